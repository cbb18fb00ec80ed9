"""dbt's own unit tests (`unit_tests:` in integration_tests/models/unit/) on models that call inc_join: given rows
for each input and for `this`, overrides for is_incremental and the window vars, expected rows placed by hand.

The given rows are CTEs of the unit test's query, which the macro can neither describe nor query while it
renders: it takes their columns from the tables they stand for and decides the window in SQL over them
(macros/orchestration/_fixtures.sql). dbt needs those tables too, for the fixtures' column types."""

from __future__ import annotations

import pytest

from .pipeline import LAST_DAY, rows

# the unit tests' SQL is the same on every format (the given rows are CTEs): the parquet legs run them, `make
# test-matrix` on Delta and Iceberg too; an empty window's run on the formats: test_format_ledger.py
pytestmark = [pytest.mark.dbt, pytest.mark.parquet_only]

UNIT_TESTS = {
    "spec_left_first_run",
    "spec_left_first_run_from_sources",
    "spec_left_incremental_run_after_this",
    "spec_left_capped_by_the_watermark",
    "spec_full_b_timed_out",
    "spec_left_rerun_of_a_past_window",
    "spec_left_in_chunks",
    "gen_inner_late_match",
    "gen_hour_left_hours",
    "hot_first_partner",
    "hot_aggregate_window",
    "gen_many_held_back_by_its_slowest_input",
    "gen_many_declared_loaded",
}
INPUTS = ["stg_spec_a", "stg_spec_b", "stg_gen_a", "stg_gen_b", "stg_gen_hour_a", "stg_gen_hour_b", "stg_renamed_b"]
INPUT_TABLES = ["stg_hot_a", "stg_hot_b"]
# the tested models whose `this` a unit test gives rows for: dbt reads the fixture's column types from the table
WITH_THIS = ["spec_left"]
SPARK_ERRORS = ("TABLE_OR_VIEW_NOT_FOUND", "Py4JJavaError", "AnalysisException")


def _missing(project, names):
    catalog = project.spark().catalog
    return [name for name in names if not catalog.tableExists(f"inc_join_it.{name}")]


def test_every_unit_test_of_the_project_passes_with_no_spark_error(project, capfd):
    # the inputs as the other tests of this session expect them (their views read up to LAST_DAY), made only when
    # missing; `this` of the incremental cases as an empty table (dbt run --empty), as a user would before
    # running unit tests
    if missing := _missing(project, INPUTS + INPUT_TABLES):
        project.invoke("run", "--select", *missing, "--quiet", today=LAST_DAY)
    if missing := _missing(project, WITH_THIS):
        project.invoke("run", "--select", *missing, "--empty", "--quiet", today=LAST_DAY)
    capfd.readouterr()
    result = project.invoke("test", "--select", "test_type:unit", expect_success=False)
    printed = "".join(capfd.readouterr())

    outcomes = {r.node.name: (str(r.status), r.message) for r in result.result}
    assert set(outcomes) == UNIT_TESTS
    assert {name: outcome for name, outcome in outcomes.items() if outcome[0] != "pass"} == {}
    assert result.success
    # what the issue saw: the macro describing and querying the fixtures' CTEs, a Py4J stack trace in the log
    assert [marker for marker in SPARK_ERRORS if marker in printed] == []
    # the run's log line says where the window came from
    assert "window decided in SQL over the given rows of a unit test" in printed


def test_an_empty_run_writes_nothing_and_the_next_run_continues(spark, project):
    """README "Testing your models": `dbt run --empty` of a model that records its runs, over inputs that hold data.
    Its inputs read as zero rows: no watermark, an empty window, no row written, one ledger record with empty =
    true, which the next plain run's start skips: that run continues after the last committed window."""
    from datetime import date

    if missing := _missing(project, ["stg_gen_a", "stg_gen_b"]):
        project.invoke("run", "--select", *missing, "--quiet", today=LAST_DAY)
    if _missing(project, ["dbt_inc_join_runs"]):
        project.invoke("run", "--select", "package:dbt_inc_join", "--quiet", today=LAST_DAY)
    until = {"inc_join_output_window_end": "2025-01-05"}
    project.invoke("run", "--select", "ledger_left", "--full-refresh", "--quiet", today=LAST_DAY, vars=until)
    table = project.table("ledger_left")
    before = rows(table, table.columns)

    project.invoke("run", "--select", "ledger_left", "--empty", "--quiet", today=LAST_DAY)
    assert rows(project.table("ledger_left"), table.columns) == before
    project.invoke("run", "--select", "ledger_left", "--quiet", today=LAST_DAY)

    runs = spark.table("inc_join_it.dbt_inc_join_runs").where("relation = 'inc_join_it.ledger_left'")
    newest = runs.where(f"table_id = '{runs.orderBy('finished_at').collect()[-1].table_id}'").orderBy("finished_at")
    found = [
        (r.empty, r.window_start and r.window_start.date(), r.window_end and r.window_end.date())
        for r in newest.collect()
    ]
    assert [empty for empty, _, _ in found] == [False, True, False], found
    assert found[2][1:] == (date(2025, 1, 6), LAST_DAY), found  # after the committed 01-05, not from the start
    assert project.table("ledger_left").where("RecDate >= DATE'2025-01-06'").count() > 0
