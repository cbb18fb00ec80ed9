# Not calling inc_join_model itself (as a model that reaches it through a module of its own), but opting in to
# inc_join's writer with meta inc_join_writer: true.
import datetime


def model(dbt, session):
    dbt.config(materialized="table", partition_by=["day"], tags=["writer_scope"], meta={"inc_join_writer": True})
    saw_context = hasattr(dbt, "inc_join_context")
    return session.createDataFrame(
        [(1, saw_context, datetime.date(2025, 1, 1))], "id int, saw_inc_join_context boolean, day date"
    )
