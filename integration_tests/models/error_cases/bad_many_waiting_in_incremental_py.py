from dbt_inc_join import inc_join_many_model


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="insert_overwrite", partition_by=["RecDate"])
    pay = dict(df=dbt.ref("stg_gen_b"), name="pay", join_cols="TrxId", look_back_time=1, max_waiting_time=2)
    return inc_join_many_model(dbt, dbt.ref("stg_gen_a"), [pay], include_waiting=True)
