from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(
        materialized="incremental",
        incremental_strategy="microbatch",
        event_time="RecDate",
        batch_size="day",
        begin="2025-01-01",
        partition_by=["RecDate"],
        tags=["microbatch"],
    )
    return inc_join_model(
        dbt,
        dbt.ref("stg_gen_a"),
        dbt.ref("stg_gen_b"),
        join_cols="TrxId",
        how="full",
        look_back_time=2,
        max_waiting_time=4,
    )
