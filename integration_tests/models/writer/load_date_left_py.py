# An inc_join Python model (its code calls inc_join_model): inc_join's writer, parquet partitioned by load_date.
from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(materialized="table", partition_by=["load_date"], tags=["writer_scope"])
    return inc_join_model(
        dbt,
        dbt.ref("load_date_a"),
        dbt.ref("load_date_b"),
        join_cols="TrxId",
        inc_col="load_date",
        how="left",
        look_back_time=2,
        max_waiting_time=4,
    )
