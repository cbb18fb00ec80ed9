from dbt_inc_join import inc_join_model


def model(dbt, session):
    # ledger_replace as a Python model: each run replaces its window with one MERGE (Delta, Iceberg); only the
    # format legs build it
    dbt.config(materialized="incremental", incremental_strategy="merge", tags=["ledger"])
    return inc_join_model(
        dbt,
        dbt.ref("stg_gen_a"),
        dbt.ref("stg_gen_b"),
        join_cols="TrxId",
        how="left",
        look_back_time=2,
        max_waiting_time=4,
    )
