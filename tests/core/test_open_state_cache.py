"""The open state's two statements read the inputs once (spec §18): Spark 4 finds the cached kept rows inside the
output's and the state's statements. Spark 3.5 does not match a cached plan that holds a WITH clause (measured on
3.5.x: the statements are correct there, and the state's reads its inputs again), so this runs on Spark 4."""

from __future__ import annotations

import pytest

from dbt_inc_join.orchestration.join import prepare_join
from dbt_inc_join.orchestration.render import OpenState, render_with_state
from dbt_inc_join.plan.window import OutputWindow, parse_bound

pytestmark = pytest.mark.one_engine


def test_the_output_and_the_state_come_from_one_read_of_the_inputs(spark, tmp_path):
    """The model's hooks cache the kept rows; Spark finds them inside the output's and the state's statements, so
    neither reads an input again (spec §18)."""
    for side in ("a", "b"):
        frame = spark.createDataFrame([(k, f"2024-01-0{1 + k % 5}") for k in range(20)], "k int, d string")
        frame.selectExpr("k", "to_date(d) AS RecDate").write.parquet(str(tmp_path / side))
    a, b = (spark.read.parquet(str(tmp_path / side)) for side in ("a", "b"))
    prepared = prepare_join(a, b, join_cols="k", look_back_time=1, max_waiting_time=2)
    window = OutputWindow(
        *(parse_bound(d, "bound", prepared.params.time_uom, "UTC") for d in ("2024-01-03", "2024-01-05"))
    )
    frames = render_with_state(prepared, window, OpenState("keys"))
    kept = frames["kept"].persist()
    try:
        rows, left = frames["rows"], frames["state"]
        for df in (rows, left):
            plan = df._jdf.queryExecution().optimizedPlan().toString()
            assert "InMemoryRelation" in plan and "parquet" not in plan.split("InMemoryRelation")[0], plan
        assert rows.count() > 0
    finally:
        kept.unpersist()
