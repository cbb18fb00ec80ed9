from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(
        materialized="incremental",
        incremental_strategy="insert_overwrite",
        partition_by=["RecDate"],
        tags=["daily"],
    )
    return inc_join_model(
        dbt,
        dbt.ref("stg_hot_a"),
        dbt.ref("stg_hot_b"),
        join_cols="TrxId",
        look_back_time=2,
        max_waiting_time=4,
        aggregate={
            "n_payments": "count(*)",
            "countries": "count(distinct Country)",
            "last_status": "max_by(Status, PaymentId)",
        },
        null_fill={"last_status": "none"},
    )
