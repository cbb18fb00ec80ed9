from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(
        materialized="incremental",
        incremental_strategy="insert_overwrite",
        partition_by=["RecDate"],
        tags=["open_state"],
    )
    return inc_join_model(
        dbt,
        dbt.ref("stg_gen_a"),
        dbt.ref("stg_gen_b"),
        join_cols="TrxId",
        how="left",
        partner="first",
        look_back_time=1,
        max_waiting_time=int(dbt.config.get("open_state_first_mw")),
        open_state=True,
    )
