from dbt_inc_join import inc_join_model


def model(dbt, session):
    # file_format delta: on parquet dbt-spark refuses merge itself before the model's code runs
    dbt.config(
        materialized="incremental",
        incremental_strategy="merge",
        unique_key="TrxId",
        partition_by=["RecDate"],
        file_format="delta",
    )
    return inc_join_model(dbt, dbt.ref("stg_gen_a"), dbt.ref("stg_gen_b"), join_cols="TrxId")
