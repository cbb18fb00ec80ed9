"""The audit (macros/orchestration/_audit.sql, spec §17): the window var inc_join_audit names, the counts per
JoinType of three queries side by side, and the Python function inc_join_audit (orchestration/audit.py) on a parquet
table and its ledger record: its bad input, and its three counts where no input records a version. `dbt show` and
the Python audit over Delta and Iceberg inputs as of a run's versions: tests/integration/test_format_restated.py."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest

from dbt_inc_join import inc_join, inc_join_audit, inc_join_many, inc_join_many_audit
from dbt_inc_join.sql_text import render
from dbt_inc_join.sql_text.macros import MacroError

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine


def test_the_audit_window_is_one_unit_or_two_joined_by_dots():
    assert render("_audit_window", "2025-03-05", "day") == {
        "start": date(2025, 3, 5), "end": date(2025, 3, 5), "empty": False, "time_uom": "day"}  # fmt: skip
    found = render("_audit_window", "2025-03-05 10:00 .. 2025-03-05 12:00", "hour")
    assert (found["start"], found["end"]) == (datetime(2025, 3, 5, 10), datetime(2025, 3, 5, 12))


@pytest.mark.parametrize("text", ["2025-03-05..2025-03-01", "2025-03-01..2025-03-02..2025-03-03", "yesterday"])
def test_a_bad_audit_window_gets_one_message_naming_the_var(text):
    with pytest.raises(MacroError, match="inc_join_audit"):
        render("_audit_window", text, "day")


def test_the_counts_put_three_queries_side_by_side_per_join_type(spark):
    table_rows = "SELECT * FROM VALUES (1), (1), (3) AS t(JoinType)"
    as_of_rows = "SELECT * FROM VALUES (1), (1), (3) AS t(JoinType)"
    now_rows = "SELECT * FROM VALUES (1), (4) AS t(JoinType)"
    found = spark.sql(render("_audit_counts_sql", table_rows, as_of_rows, now_rows)).collect()
    assert [tuple(row) for row in found] == [(1, 2, 2, 1), (3, 1, 1, 0), (4, 0, 0, 1)]


SCHEMA = "audit_core"
SETTINGS = dict(join_cols=["TrxId"], look_back_time=2, max_waiting_time=10)  # the spec's example (§9)
PAY = dict(name="pay", join_cols="TrxId", look_back_time=2, max_waiting_time=10)


def record(spark, table: str, table_id: str) -> None:
    """The ledger's record of one committed run over 2025-03-05..2025-03-20, as the post-hook record_run writes it
    (no input version: the inputs are not Delta or Iceberg tables); the table named as dbt quotes it."""
    spark.sql(f"ALTER TABLE {SCHEMA}.{table} SET TBLPROPERTIES ('inc_join.table_id' = '{table_id}')")
    spark.sql(
        f"INSERT INTO {SCHEMA}.dbt_inc_join_runs (relation, table_id, empty, window_start, window_end, finished_at, "
        f"input_versions, recorded_month, run_key) VALUES ('`{SCHEMA}`.`{table.title()}`', '{table_id}', false, "
        "TIMESTAMP'2025-03-05 00:00:00', TIMESTAMP'2025-03-20 00:00:00', TIMESTAMP'2025-03-21 06:00:00', "
        f"array(), '2025-03', '{table_id}')"
    )


@pytest.fixture(scope="module")
def audited(spark, inputs):
    """The spec example's inputs as tables, and the tables of one run of inc_join and of inc_join_many over
    2025-03-05..2025-03-20, each with its ledger record."""
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {SCHEMA}")
    for name, df in zip(("a", "b"), inputs, strict=True):
        df.write.mode("overwrite").saveAsTable(f"{SCHEMA}.{name}")
    a, b = spark.table(f"{SCHEMA}.a"), spark.table(f"{SCHEMA}.b")
    window = dict(output_window_start="2025-03-05", output_window_end="2025-03-20")
    inc_join(a, b, **window, **SETTINGS).write.mode("overwrite").saveAsTable(f"{SCHEMA}.joined")
    inc_join_many(a, [dict(df=b, **PAY)], **window).write.mode("overwrite").saveAsTable(f"{SCHEMA}.enriched")
    spark.sql(render("_create_ledger_sql", f"{SCHEMA}.dbt_inc_join_runs"))
    record(spark, "joined", "id-1")
    record(spark, "enriched", "id-2")
    return a, b


def counts(found) -> list[tuple]:
    return [tuple(row) for row in found.collect()]


def test_the_python_audit_counts_the_table_the_run_and_now_per_join_type(spark, audited):
    # the spec's table, days 6-8: trx 1, 2 and 7 matched late (JoinType 2), 3 and 4 on their day (1)
    found = inc_join_audit(f"{SCHEMA}.joined", "2025-03-06..2025-03-08", *audited, **SETTINGS)
    assert found.columns == ["JoinType", "table_rows", "as_of_rows", "now_rows"]
    assert counts(found) == [(1, 2, 2, 2), (2, 3, 3, 3)]
    # a call copied from the model: its arguments that change no row are taken; the ledger named
    found = inc_join_audit(f"{SCHEMA}.joined", "2025-03-12", *audited, ledger=f"{SCHEMA}.dbt_inc_join_runs",
                           on_restated_input="redo", restated_horizon=3, max_window_units=30, **SETTINGS)  # fmt: skip
    assert counts(found) == [(3, 1, 1, 1)]


def test_the_python_audit_of_several_inputs_counts_per_join_type_tuple(audited):
    a, b = audited
    found = inc_join_many_audit(f"{SCHEMA}.enriched", "2025-03-06..2025-03-08", a, [dict(df=b, **PAY)])
    assert found.columns == ["JoinType_pay", "table_rows", "as_of_rows", "now_rows"]
    assert counts(found) == [(1, 2, 2, 2), (2, 3, 3, 3)]


def test_an_input_without_a_recorded_version_is_audited_as_it_is(spark, audited):
    # a second payment of trx 3 on its day, in a parquet input (no version to go back to): as of = now
    spark.sql(f"INSERT INTO {SCHEMA}.b VALUES (3, 'XX', DATE'2025-03-06')")
    found = inc_join_audit(f"{SCHEMA}.joined", "2025-03-06", spark.table(f"{SCHEMA}.a"), spark.table(f"{SCHEMA}.b"),
                           **SETTINGS)  # fmt: skip
    assert counts(found) == [(1, 1, 2, 2), (2, 2, 2, 2)]


@pytest.mark.parametrize(
    "table, window, extra, message",
    [
        ("", "2025-03-06", {}, "table must be the audited model's table name"),
        ("audit_core.joined", "2025-03-06", {"ledger": ""}, "ledger must be the run ledger's table name"),
        ("audit_core.joined", "yesterday", {}, "window='yesterday'"),
        ("audit_core.joined", "2025-03-06..2025-03-05", {}, "window='2025-03-06..2025-03-05': its start is after"),
        ("audit_core.joined", "2025-03-06", {"output_window_end": "2025-03-06"}, "output_window_end is not an"),
        ("audit_core.joined", "2025-03-06", {"how": "sideways"}, "how"),
        ("audit_core.nowhere", "2025-03-06", {}, "table 'audit_core.nowhere' was not found"),
        ("audit_core.a", "2025-03-06", {}, "audit_core.a has no run ledger record"),
        ("audit_core.joined", "2025-03-06", {"ledger": "audit_core.nope"}, "ledger 'audit_core.nope' was not found"),
        (
            "audit_core.joined",
            "2025-03-21",
            {},
            "no committed run of audit_core.joined in audit_core.dbt_inc_join_runs",
        ),
    ],
)
def test_bad_input_to_the_python_audit_gets_one_message_naming_it(audited, table, window, extra, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        inc_join_audit(table, window, *audited, **{**SETTINGS, **extra})


def test_an_unknown_argument_of_the_many_audit_is_named(audited):
    a, b = audited
    with pytest.raises(TypeError, match="unknown arguments join_cols"):
        inc_join_many_audit(f"{SCHEMA}.enriched", "2025-03-06", a, [dict(df=b, **PAY)], join_cols="TrxId")
