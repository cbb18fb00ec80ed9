from dbt_inc_join import inc_join_model


def model(dbt, session):
    # over two plain parquet tables that tests/thrift/test_thrift_pipeline.py loads between runs through a thrift
    # session of its own: each run must see the rows loaded before it
    dbt.config(materialized="incremental", incremental_strategy="insert_overwrite", partition_by=["RecDate"])
    return inc_join_model(
        dbt,
        session.table("inc_join_it.connect_fresh_a"),
        session.table("inc_join_it.connect_fresh_b"),
        join_cols="TrxId",
        look_back_time=1,
        max_waiting_time=2,
    )
