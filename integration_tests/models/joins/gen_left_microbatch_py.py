from dbt_inc_join import inc_join_model


def model(dbt, session):
    # gen_left_microbatch as a Python model: each batch keeps the open state, and the post-hook that inc_join's
    # writer adds runs after every batch (dbt keeps a model's own post-hooks for the last), so the next batch
    # reads it (spec §18)
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
        how="left",
        look_back_time=2,
        max_waiting_time=4,
        open_state=True,
    )
