from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="insert_overwrite", partition_by=["RecDate"])
    return inc_join_model(dbt, dbt.ref("stg_gen_a"), dbt.ref("stg_gen_b"), join_cols="TrxId", max_window_units="31")
