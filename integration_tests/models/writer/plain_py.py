# A Python model that is not inc_join's: it must get dbt-spark's own writer, exactly as without the package
# (tests/integration/test_writer_scope.py). It records whether its dbt object carries inc_join's context (only
# inc_join's writer adds it) and asks for partition_by, which dbt-spark's Python writer ignores.
import datetime


def model(dbt, session):
    dbt.config(materialized="table", partition_by=["day"], tags=["writer_scope"])
    saw_context = hasattr(dbt, "inc_join_context")
    return session.createDataFrame(
        [(1, saw_context, datetime.date(2025, 1, 1))], "id int, saw_inc_join_context boolean, day date"
    )
