"""dbt_inc_join.sql_text.statement: a run's statement is bound to the caller's DataFrames and left lazy, and the
caller's DataFrames stay as they were: a cached input keeps its cache, and no temporary view is left behind."""

from __future__ import annotations

import pytest

from dbt_inc_join import inc_join
from dbt_inc_join.orchestration.many import inc_join_many
from dbt_inc_join.sql_text import statement

from .frames import bound, oracle_rows, side_frame
from .oracle import expected_rows
from .test_edge_inputs import A_ROWS, B_ROWS, LB, MW


def is_cached(spark, df) -> bool:
    """Whether Spark's cache manager holds data for ``df``'s plan (what an action would read)."""
    return spark._jsparkSession.sharedState().cacheManager().lookupCachedData(df._jdf).isDefined()


def package_views(spark) -> list[str]:
    return [t.name for t in spark.catalog.listTables() if t.isTemporary and t.name.startswith("_inc_join_")]


@pytest.fixture
def cached(spark):
    """The two inputs, cached and materialised, as a notebook user would have them; uncached afterwards."""
    frames = [side_frame(spark, rows, side, "day", "date").cache() for rows, side in ((A_ROWS, "a"), (B_ROWS, "b"))]
    for df in frames:
        df.count()
    yield frames
    for df in frames:
        df.unpersist()


def test_a_cached_input_stays_cached_and_no_view_stays(spark, cached):
    """spark.sql(text, a=df) would drop its views with spark.catalog.dropTempView, which uncaches them: the
    caller's cache was gone after the call (pyspark 3.5.9 and 4.3.0)."""
    df_a, df_b = cached
    assert is_cached(spark, df_a) and is_cached(spark, df_b)
    result = inc_join(
        df_a,
        df_b,
        join_cols="k",
        inc_col="RecDate",
        how="full",
        look_back_time=LB,
        max_waiting_time=MW,
        output_window_start=bound(0, "day"),
        output_window_end=bound(12, "day"),
    )
    assert is_cached(spark, df_a) and is_cached(spark, df_b)
    assert package_views(spark) == []
    # the result still reads the inputs after their views are gone
    expected = expected_rows(A_ROWS, B_ROWS, how="full", lb=LB, mw=MW, start=0, end=12)
    assert sorted(oracle_rows(result, "day"), key=repr) == sorted(expected, key=repr)
    assert "InMemoryTableScan" in result._jdf.queryExecution().executedPlan().toString()


def test_inc_join_many_keeps_its_inputs_cached(spark, cached):
    df_a, df_b = cached
    inputs = [dict(df=df_b, name="b", join_cols="k", look_back_time=LB, max_waiting_time=MW, partner="first")]
    result = inc_join_many(df_a, inputs, output_window_start=bound(0, "day"), output_window_end=bound(12, "day"))
    assert is_cached(spark, df_a) and is_cached(spark, df_b)
    assert package_views(spark) == []
    assert result.count() == len([r for r in A_ROWS if r["t"] is not None])


def test_a_statement_with_braces_runs_as_written(spark):
    """The statement's text goes to Spark as it is (no str.format of the caller's or the package's braces)."""
    df = spark.range(3)
    text = "SELECT id, '{not a placeholder}' AS text, map('k', id) AS m FROM " + statement.relation("a")
    rows = statement.run(text, {"a": df}).orderBy("id").collect()
    assert [(r.id, r.text, r.m) for r in rows] == [(i, "{not a placeholder}", {"k": i}) for i in range(3)]
