from dbt_inc_join import inc_join_model


def model(dbt, session):
    # long_microbatch as a Python model: one record per batch (spec §13)
    dbt.config(
        materialized="incremental",
        incremental_strategy="microbatch",
        event_time="RecDate",
        batch_size="day",
        begin="2025-01-01",
        partition_by=["RecDate"],
        tags=["long_microbatch"],
    )
    return inc_join_model(
        dbt,
        dbt.ref("long_a"),
        dbt.ref("long_b"),
        join_cols="TrxId",
        how="left",
        look_back_time=2,
        max_waiting_time=4,
    )
