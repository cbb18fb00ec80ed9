from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(
        materialized="incremental",
        incremental_strategy="insert_overwrite",
        partition_by=["RecDate"],
        tags=["chunked"],
    )
    return inc_join_model(
        dbt,
        dbt.ref("long_a"),
        dbt.ref("long_b"),
        join_cols="TrxId",
        how="full",
        look_back_time=2,
        max_waiting_time=4,
    )
