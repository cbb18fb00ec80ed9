from dbt_inc_join import inc_join_model


def model(dbt, session):
    # partitioned by the key, not by the arrival: an INSERT OVERWRITE of the window would drop the other days' rows
    dbt.config(materialized="incremental", incremental_strategy="insert_overwrite", partition_by=["TrxId"])
    return inc_join_model(dbt, dbt.ref("stg_gen_a"), dbt.ref("stg_gen_b"), join_cols="TrxId")
