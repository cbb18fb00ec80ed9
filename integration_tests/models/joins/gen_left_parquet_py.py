from dbt_inc_join import inc_join_model


def model(dbt, session):
    # a parquet table in a session whose spark_catalog is Delta Lake's or Iceberg's (the format legs build it)
    dbt.config(
        materialized="incremental",
        incremental_strategy="insert_overwrite",
        partition_by=["RecDate"],
        file_format="parquet",
    )
    return inc_join_model(
        dbt,
        dbt.ref("stg_gen_a"),
        dbt.ref("stg_gen_b"),
        join_cols="TrxId",
        how="left",
        look_back_time=2,
        max_waiting_time=4,
    )
