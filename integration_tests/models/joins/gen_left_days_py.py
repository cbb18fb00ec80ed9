from dbt_inc_join import inc_join_model


def model(dbt, session):
    # partitioned by Iceberg's days() transform of the arrival column (the Iceberg leg builds it)
    dbt.config(materialized="incremental", incremental_strategy="insert_overwrite", partition_by=["days(RecDate)"])
    return inc_join_model(
        dbt,
        dbt.ref("stg_gen_a"),
        dbt.ref("stg_gen_b"),
        join_cols="TrxId",
        how="left",
        look_back_time=2,
        max_waiting_time=4,
    )
