from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(
        materialized="incremental",
        incremental_strategy="insert_overwrite",
        partition_by=["RecDate"],
        tags=["restated"],
    )
    return inc_join_model(
        dbt,
        dbt.ref("restated_hour_a"),
        dbt.ref("restated_hour_b"),
        join_cols="TrxId",
        how="left",
        look_back_time=1,
        max_waiting_time=30,
        time_uom="hour",
        restated_horizon=48,
    )
