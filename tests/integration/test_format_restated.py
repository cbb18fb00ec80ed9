"""spec §14 on Delta Lake and Iceberg inputs, restated with the formats' own statements: rows added by INSERT with
an old arrival, removed by DELETE, changed by UPDATE and by MERGE, all inside the next run's read ranges. The run's
fingerprints name each restated unit (warn), `fail` stops before anything is written, and the redo the warning
names makes each table (SQL and Python models, one input and several) equal to one run over the inputs as they are
now. A is partitioned by its arrival column, B is not partitioned, C is. Run on Iceberg only (one_format: the
fingerprints are the same SQL on both formats).

Then spec §17: restatements older than every read range, found from the inputs' own logs (Delta's commit files,
Iceberg's snapshots and manifest entries) and confirmed by fingerprints as of the recorded version and now: a
DELETE of a table not partitioned by its arrival column (a remove without statistics), an UPDATE, a MERGE, an
append stamped with an old arrival, a compaction (no restatement), a restore to an older version; and a log that is
gone since the recorded version (one line, then the read range's fingerprints). SQL and Python models (the Python
model on Iceberg: PYTHON_LOG_FORMATS); the input versions each run records; the audit of a run's window (`dbt show`,
and the core's inc_join_audit for the Python model). `make test` runs it on Iceberg (its macros and src lines on
Delta are those of the Delta leg's log tests, tests/formats), `make test-matrix` on both formats."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest

from dbt_inc_join import inc_join, inc_join_audit, inc_join_many_audit
from dbt_inc_join.sql_text import render

from ..conftest import vacuum_every_old_file, whole_matrix
from .test_restated import (
    LEDGER,
    LEFT,
    VARS,
    Inputs,
    assert_equal,
    day,
    failures,
    generated,
    last_record,
    left_reference,
    many_inputs,
    many_reference,
    run,
    statements_into,
    warnings_into,
)

pytestmark = pytest.mark.dbt

MODELS = ("restated_left", "restated_left_py", "restated_many")
SCHEMAS = {
    "a": ("TrxId int, Amount decimal(10,2), RecDate date", "PARTITIONED BY (RecDate)"),
    "b": ("PaymentId int, TrxId int, RecDate date", ""),
    "c": ("TrxId int, Note string, RecDate date", "PARTITIONED BY (RecDate)"),
}


def values(rows: list[tuple]) -> str:
    def literal(value) -> str:
        if isinstance(value, date):
            return f"DATE'{value}'"
        return repr(value) if isinstance(value, str) else str(value)  # an int, or a Decimal as its digits

    return ", ".join("(" + ", ".join(literal(v) for v in row) + ")" for row in rows)


def load(spark, data: dict[str, list[tuple]], after: date | None, until: date) -> None:
    """Each input's rows that arrive in (after, until], appended with one INSERT per table (one commit)."""
    for name in ("a", "b", "c"):
        new = [r for r in data[name] if (after is None or r[-1] > after) and r[-1] <= until]
        if new:
            spark.sql(f"INSERT INTO inc_join_it.restated_{name} VALUES {values(new)}")


def first_run(spark, project, chosen: str, models: tuple[str, ...]) -> dict[str, list[tuple]]:
    """The inputs made afresh in the leg's format and loaded up to day 7, and the models' first run over them."""
    data = generated(14)
    for name, (columns, partitioned) in SCHEMAS.items():
        spark.sql(f"DROP TABLE IF EXISTS inc_join_it.restated_{name}")
        spark.sql(f"CREATE TABLE inc_join_it.restated_{name} ({columns}) USING {chosen} {partitioned}")
    load(spark, data, None, day(7))
    run(project, day(7), *models, full_refresh=True)
    return data


def newest_version(spark, chosen: str, table: str) -> str:
    """The table's newest commit: Delta's highest version, Iceberg's current snapshot."""
    if chosen == "delta":
        return str(spark.sql(f"DESCRIBE HISTORY {table}").agg({"version": "max"}).first()[0])
    history = spark.sql(f"SELECT snapshot_id, made_current_at FROM {table}.history WHERE is_current_ancestor")
    return str(history.orderBy("made_current_at", ascending=False).first()[0])


def newest_versions(spark, chosen: str) -> dict[str, str]:
    """Each input table's newest commit, by its short name (a, b, c)."""
    return {name: newest_version(spark, chosen, f"inc_join_it.restated_{name}") for name in ("a", "b", "c")}


# each model's inputs and the tables they read
INPUT_TABLES = {"restated_left": {"a": "a", "b": "b"}, "restated_left_py": {"a": "a", "b": "b"},
                "restated_many": {"a": "a", "pay": "b", "note": "c"}}  # fmt: skip


def assert_input_versions_recorded(spark, chosen: str, newest: dict[str, str], models=tuple(INPUT_TABLES)) -> None:
    """spec §17: each model's last run recorded the version of each Delta or Iceberg input it read (`newest`, per
    table), SQL and Python models alike, in the ledger and in the table property the next run reads."""
    for model, inputs_of in ((m, INPUT_TABLES[m]) for m in models):
        expected = {(name, f"inc_join_it.restated_{table}", chosen, newest[table]) for name, table in inputs_of.items()}
        recorded = last_record(spark, model).input_versions
        assert {(v.input, v.relation.replace("`", "").lower(), v.format, v.version) for v in recorded} == expected
        properties = {r[0]: r[1] for r in spark.sql(f"SHOW TBLPROPERTIES inc_join_it.{model}").collect()}
        mirrored = json.loads(properties["inc_join.input_versions"])
        assert sorted(v["version"] for v in mirrored) == sorted(v.version for v in recorded), model


def restated(spark, model: str) -> set[tuple[str, date]]:
    return {(r.input, r.unit.date()) for r in last_record(spark, model).restated}


@pytest.mark.one_format("iceberg")
@pytest.mark.matrix  # its steps: the log test below, fail and redo in test_restated.py
def test_restatements_by_the_format_s_statements_are_named_stopped_and_redone(spark, project, chosen):
    # a first run over days 1-7, then a daily run: its read ranges hold the units restated below (days 6-8)
    data = first_run(spark, project, chosen, MODELS)
    load(spark, data, day(7), day(8))
    newest = newest_versions(spark, chosen)
    run(project, day(8), *MODELS)
    assert_input_versions_recorded(spark, chosen, newest)
    inputs = Inputs(spark)  # the tables as they are now (its own rows are not written)
    assert_equal(project, "restated_left", left_reference(inputs))
    assert_equal(project, "restated_many", many_reference(inputs))

    # a payment stamped day 6, a payment of day 7 deleted, an amount of day 8 updated, a note of day 8 merged
    paid_late = [r for r in data["b"] if r[2] == day(7)][0]
    amount = [r for r in data["a"] if r[2] == day(8)][0]
    note = [r for r in data["c"] if r[2] == day(8)][0]
    spark.sql(f"INSERT INTO inc_join_it.restated_b VALUES (9001, 53, DATE'{day(6)}')")
    spark.sql(f"DELETE FROM inc_join_it.restated_b WHERE PaymentId = {paid_late[0]}")
    spark.sql(f"UPDATE inc_join_it.restated_a SET Amount = 1.50 WHERE TrxId = {amount[0]}")
    spark.sql(
        "MERGE INTO inc_join_it.restated_c AS t USING (SELECT "
        f"{note[0]} AS TrxId, DATE'{note[2]}' AS RecDate) AS s ON t.TrxId = s.TrxId AND t.RecDate = s.RecDate "
        "WHEN MATCHED THEN UPDATE SET Note = 'merged'"
    )
    load(spark, data, day(8), day(9))

    # fail: nothing written, no record; the message names the units and the command
    records = spark.table(LEDGER).count()
    files = {m: sorted(project.table(m).inputFiles()) for m in MODELS}
    result = run(project, day(9), *MODELS, expect_success=False, inc_join_on_restated_input="fail")
    assert not result.success
    message = " ".join(str(r.message) for r in result.result.results if r.message)
    assert "on_restated_input=fail: nothing was written" in message, message
    assert f"b {day(6)} (rows" in message and f"b {day(7)} (rows" in message and f"a {day(8)} (rows" in message
    assert {m: sorted(project.table(m).inputFiles()) for m in MODELS} == files
    assert spark.table(LEDGER).count() == records

    # warn (the default): written as usual, every restated unit recorded
    run(project, day(9), *MODELS)
    for model in ("restated_left", "restated_left_py"):
        assert restated(spark, model) == {("b", day(6)), ("b", day(7)), ("a", day(8))}, model
    assert restated(spark, "restated_many") == {("pay", day(6)), ("pay", day(7)), ("a", day(8)), ("note", day(8))}

    # the redo: one run over the current inputs
    newest = newest_versions(spark, chosen)
    run(project, day(9), *MODELS, inc_join_on_restated_input="redo")
    # a redo resolves its window twice and keeps the versions read before its first read of the inputs
    for model, inputs_of in INPUT_TABLES.items():
        recorded = {v.input: v.version for v in last_record(spark, model).input_versions}
        assert recorded == {name: newest[table] for name, table in inputs_of.items()}, model
    assert_equal(project, "restated_left", left_reference(inputs))
    assert_equal(project, "restated_left_py", left_reference(inputs))
    assert_equal(project, "restated_many", many_reference(inputs))
    for model in MODELS:
        assert last_record(spark, model).redo_from.date() == day(6), model


# the Python model's reading of the logs runs on Iceberg only: it renders the same log queries as the SQL model (one
# text per format, macros/io/); so do the model of several inputs and the chain (each input's log is read by the
# macros restated_left runs). `make test-matrix` runs them on Delta too.
PYTHON_LOG_FORMATS = ("iceberg",)
CHAINED = "restated_chained"  # reads restated_many's table: a chain of two models redone in one dbt run


def one_row(spark, table: str, where: str) -> tuple:
    return tuple(spark.sql(f"SELECT * FROM inc_join_it.restated_{table} WHERE {where} LIMIT 1").first())


def compact(spark, chosen: str, table: str) -> None:
    """A compaction: the same rows in other files (no restatement)."""
    if chosen == "delta":
        spark.sql(f"OPTIMIZE inc_join_it.restated_{table}")
    else:
        spark.sql(f"CALL spark_catalog.system.rewrite_data_files(table => 'inc_join_it.restated_{table}', "
                  "options => map('rewrite-all', 'true'))")  # fmt: skip


def restore(spark, chosen: str, table: str, version: str) -> None:
    if chosen == "delta":
        spark.sql(f"RESTORE TABLE inc_join_it.restated_{table} TO VERSION AS OF {version}")
    else:
        spark.sql(f"CALL spark_catalog.system.rollback_to_snapshot('inc_join_it.restated_{table}', {version})")


@pytest.mark.matrix("delta")
def test_restatements_older_than_every_read_range_are_read_from_the_log(spark, project, chosen):
    python = chosen in PYTHON_LOG_FORMATS
    lefts = ("restated_left", "restated_left_py") if python else ("restated_left",)
    manys = ("restated_many",) if python or whole_matrix() else ()
    models = (*lefts, *manys, *([CHAINED] if manys else []))
    data = first_run(spark, project, chosen, models)
    # a day-8 run reads a from day 4, b (pay) from day 2 and c (note) from day 4: days 1-2 are older
    deleted = one_row(spark, "b", f"RecDate = DATE'{day(1)}'")
    updated = one_row(spark, "a", f"RecDate = DATE'{day(2)}'")
    merged = one_row(spark, "c", f"RecDate <= DATE'{day(2)}'")
    before_delete = newest_version(spark, chosen, "inc_join_it.restated_b")
    spark.sql(f"DELETE FROM inc_join_it.restated_b WHERE PaymentId = {deleted[0]}")  # b is not partitioned
    spark.sql(f"UPDATE inc_join_it.restated_a SET Amount = 2.25 WHERE TrxId = {updated[0]}")
    spark.sql(
        "MERGE INTO inc_join_it.restated_c AS t USING (SELECT "
        f"{merged[0]} AS TrxId, DATE'{merged[2]}' AS RecDate) AS s ON t.TrxId = s.TrxId AND t.RecDate = s.RecDate "
        "WHEN MATCHED THEN UPDATE SET Note = 'merged old'"
    )
    compact(spark, chosen, "b")
    load(spark, data, day(7), day(8))
    spark.sql(f"INSERT INTO inc_join_it.restated_a VALUES (9002, 7.00, DATE'{day(1)}')")  # stamped with an old arrival
    # rows of no unit (a NULL arrival, spec §2), in a partitioned and an unpartitioned input: the logs stay whole
    spark.sql("INSERT INTO inc_join_it.restated_a VALUES (9003, 1.00, NULL)")
    spark.sql("INSERT INTO inc_join_it.restated_b VALUES (9004, 9004, NULL)")

    # the audit of the first run's days 1-2 (spec §17): the table holds what one run over the inputs as that run
    # read them gives, and no longer what the inputs give now
    audit = audit_counts(project, "restated_left", f"{day(1)}..{day(2)}")
    inputs = Inputs(spark)  # the input tables as they are now
    now = left_reference(inputs).where(f"RecDate <= DATE'{day(2)}'").groupBy("JoinType").count().collect()
    assert {code: counts[0] for code, counts in audit.items()} == {code: counts[1] for code, counts in audit.items()}
    assert {code: counts[2] for code, counts in audit.items() if counts[2]} == {r.JoinType: r["count"] for r in now}
    assert any(counts[1] != counts[2] for counts in audit.values()), audit
    # the Python model's audit, by the core's function (dbt show runs no Python model): the same counts, its
    # inputs read as of the versions its own run recorded;
    # a call copied from the model (on_restated_input included) is accepted: the audit drops what only a run uses
    if python:
        found = inc_join_audit(
            "inc_join_it.restated_left_py", f"{day(1)}..{day(2)}", inputs.table("a"), inputs.table("b"), **LEFT,
            on_restated_input="warn",
        )  # fmt: skip
        assert {row[0]: tuple(row[1:]) for row in found.collect()} == audit
    if chosen == "iceberg":  # format-independent SQL: once
        audit = audit_counts(project, "restated_many", f"{day(1)}..{day(2)}", keys=2)
        # the core's audit of the SQL model's table: the same counts
        found = inc_join_many_audit("inc_join_it.restated_many", f"{day(1)}..{day(2)}", inputs.table("a"),
                                    many_inputs(inputs))  # fmt: skip
        assert {tuple(row[:2]): tuple(row[2:]) for row in found.collect()} == audit
        now = many_reference(inputs).where(f"RecDate <= DATE'{day(2)}'")
        now = now.groupBy("JoinType_pay", "JoinType_note").count().collect()
        assert {k: c[0] for k, c in audit.items()} == {k: c[1] for k, c in audit.items()}
        assert {k: c[2] for k, c in audit.items() if c[2]} == {(r[0], r[1]): r[2] for r in now}
        # refused by dbt run, before anything is read
        result = run(project, day(8), "restated_left", expect_success=False, inc_join_audit=str(day(1)))
        assert "var inc_join_audit is for dbt show" in " ".join(str(r.message) for r in result.result.results)

    # the redo the check sends: every unit named from the log, its commit in the reason, the tables repaired; the
    # versions it read recorded
    newest = newest_versions(spark, chosen)
    run(project, day(8), *models, inc_join_on_restated_input="redo")
    assert_input_versions_recorded(spark, chosen, newest, (*lefts, *manys))
    left = {("b", day(1)), ("a", day(1)), ("a", day(2))}
    many = {("pay", day(1)), ("a", day(1)), ("a", day(2)), ("note", merged[2])}
    expected = {**{model: left for model in lefts}, **{model: many for model in manys}}
    named = {**{model: ("DELETE", "UPDATE") for model in lefts},
             **{model: ("MERGE",) for model in manys}} if chosen == "delta" else {}  # fmt: skip
    for model, units in expected.items():
        record = last_record(spark, model)
        assert restated(spark, model) == units, model
        assert record.redo_from.date() == day(1), model
        assert (", version " if chosen == "delta" else ", snapshot ") in record.start_reason, record.start_reason
        assert all(operation + " at " in record.start_reason for operation in named.get(model, ())), record.start_reason
    inputs = Inputs(spark)
    for model in lefts:
        assert_equal(project, model, left_reference(inputs))
    if manys:
        assert_equal(project, "restated_many", many_reference(inputs))
        # the chain, redone in the same dbt run: its A is restated_many's table, redone from day 1
        assert last_record(spark, CHAINED).redo_from.date() == day(1)
        assert_equal(project, CHAINED, chained_reference(project, inputs))

    # a restore to the version before the delete: the payment of day 1 is back (the compaction and the day-8
    # payments undone; those are delivered again with day 9's)
    restore(spark, chosen, "b", before_delete)
    load(spark, {"a": [], "b": data["b"], "c": []}, day(7), day(9))
    load(spark, {"a": data["a"], "b": [], "c": data["c"]}, day(8), day(9))
    run(project, day(9), *models, inc_join_on_restated_input="redo")
    assert all(restated(spark, model) == {("b", day(1))} for model in lefts), [restated(spark, m) for m in lefts]
    assert all(restated(spark, model) == {("pay", day(1))} for model in manys)
    reason = last_record(spark, "restated_left").start_reason
    assert last_record(spark, "restated_left").redo_from.date() == day(1)
    assert ("RESTORE at " if chosen == "delta" else ", snapshot ") in reason, reason
    inputs = Inputs(spark)
    for model in lefts:
        assert_equal(project, model, left_reference(inputs))
    if manys:
        assert_equal(project, "restated_many", many_reference(inputs))

    # a run with nothing new to write (an empty window) reads the logs too: a deletion of day 1 is named now. On
    # Delta it follows more commits than a run names (properties, no data change): the rest is read by pattern
    if chosen == "delta":
        for n in range(render("_delta_named_commits")):
            spark.sql(f"ALTER TABLE inc_join_it.restated_b SET TBLPROPERTIES ('inc_join_it.n' = '{n}')")
    spark.sql(f"DELETE FROM inc_join_it.restated_b WHERE RecDate = DATE'{day(1)}'")
    # before any run, the test with inputs finds it from the log (its horizon, the last 8 units, does not reach it)
    assert failures(project, "restated_left_last_8") == 1
    warnings: list[str] = []
    sent: dict[str, list[str]] = {}
    run(project, day(9), "restated_left", callbacks=[warnings_into(warnings), statements_into(sent)])
    assert last_record(spark, "restated_left").empty
    named = [w for w in warnings if f"b {day(1)} (rows " in w]
    assert len(named) == 1 and (" → 0; DELETE at " if chosen == "delta" else " → 0; ") in named[0], warnings
    # warn (the default) keeps what the log named outstanding: the model's plain restated_inputs test fails on it
    assert failures(project, "restated_left_not_redone") == 1
    # the inputs' versions and logs ride on the watermark's query (spec §17): one statement, no DESCRIBE HISTORY
    logs = [t for t in sent["restated_left"] if re.search(r"restated_[ab]`?(\.snapshots|/\{_delta_log/)", t)]
    assert len(logs) == 1 and "'units' AS part, to_json(" in logs[0], logs
    assert not [t for t in sent["restated_left"] if t.lower().startswith("describe history inc_join_it.restated_")]
    rest = [t for t in sent["restated_left"] if re.search(r"restated_[ab]`?/_delta_log/\{", t)]
    assert len(rest) == (1 if chosen == "delta" else 0) and all("restated_b" in t for t in rest), rest
    # an Iceberg input's version is the snapshot dbt's listing of the schema showed: no read of its refs; its log,
    # the snapshots from the recorded version's commit on (the restore above read them all again: its lineage
    # reaches before them)
    assert not [t for t in sent["restated_left"] if re.search(r"restated_[ab]`?\.refs", t)], sent["restated_left"]
    assert chosen != "iceberg" or logs[0].count(".snapshots WHERE committed_at >= timestamp_millis(") == 2, logs

    # the log since the recorded version is gone: one line, then the read range's fingerprints
    if chosen == "delta":
        spark.sql("ALTER TABLE inc_join_it.restated_b SET TBLPROPERTIES ('delta.checkpointInterval' = '1')")
    load(spark, data, day(9), day(10))
    expire_log(spark, chosen, "b")
    warnings.clear()
    run(project, day(10), "restated_left", callbacks=[warnings_into(warnings)])
    lines = [w for w in warnings if "is no longer kept" in w]
    assert len(lines) == 1 and "restated_b" in lines[0], warnings
    assert (" since version " if chosen == "delta" else " since snapshot ") in lines[0], lines[0]

    # the logs switched off (var inc_join_input_logs): no version or log read, none recorded, the property emptied.
    # A payment of day 5 deleted meanwhile is in the read range: its fingerprints find it (spec §14), the run
    # redoes it. The next run with its logs reads the versions only: listing the commits since the day-10 run's
    # versions would name day 5 again (now before its read range), though the run without logs redid it
    gone = one_row(spark, "b", f"RecDate = DATE'{day(5)}'")
    spark.sql(f"DELETE FROM inc_join_it.restated_b WHERE PaymentId = {gone[0]}")
    load(spark, data, day(10), day(11))
    sent.clear()
    run(project, day(11), *lefts, inc_join_input_logs=False, inc_join_on_restated_input="redo",
        callbacks=[statements_into(sent)])  # fmt: skip
    logs_read = re.compile(r"restated_[ab]`?(\.snapshots|\.refs|/\{?_delta_log)|^describe history ", re.IGNORECASE)
    for model in lefts:
        record = last_record(spark, model)
        # (restated_left also redoes day 1, which the empty-window run above left outstanding)
        assert ("b", day(5)) in restated(spark, model) and record.redo_from.date() <= day(5), model
        assert not record.input_versions, model
        properties = {r[0]: r[1] for r in spark.sql(f"SHOW TBLPROPERTIES inc_join_it.{model}").collect()}
        assert json.loads(properties["inc_join.input_versions"]) == [], model
        assert not [t for t in sent[model] if logs_read.search(t)], sent[model]
    load(spark, data, day(11), day(12))
    newest = newest_versions(spark, chosen)
    run(project, day(12), *lefts)
    assert not [model for model in lefts if restated(spark, model)], [restated(spark, m) for m in lefts]
    assert_input_versions_recorded(spark, chosen, newest, lefts)
    assert_equal(project, "restated_left", left_reference(Inputs(spark)))


def expire_log(spark, chosen: str, table: str) -> None:
    """What log retention does: Delta's commit files before the newest checkpoint removed; Iceberg's snapshots but
    the current one expired."""
    name = f"inc_join_it.restated_{table}"
    if chosen == "iceberg":
        spark.sql(f"CALL spark_catalog.system.expire_snapshots(table => '{name}', "
                  "older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)")  # fmt: skip
        return
    location = spark.sql(f"DESCRIBE DETAIL {name}").first()["location"]
    log = Path(location.removeprefix("file:")) / "_delta_log"
    newest = int(newest_version(spark, chosen, name))
    assert (log / f"{newest:020d}.checkpoint.parquet").exists()
    for commit in log.glob("*.json"):
        if int(commit.name[:20]) < newest:
            commit.unlink()


def chained_reference(project, inputs: Inputs):
    return inc_join(project.table("restated_many"), inputs.table("c"), join_cols="TrxId", how="left",
                    look_back_time=1, max_waiting_time=2, suffixes=["_M", "_C"])  # fmt: skip


def audit_counts(project, model: str, window: str, keys: int = 1) -> dict[object, tuple[int, int, int]]:
    """`dbt show` of a model with var inc_join_audit: per JoinType (inc_join_many: per JoinType_<input> tuple),
    (table, as of the run's inputs, inputs now)."""
    result = project.invoke("show", "--select", model, "--limit", "50", vars={**VARS, "inc_join_audit": window})
    table = result.result.results[0].agate_table
    key = (lambda row: row[0]) if keys == 1 else (lambda row: tuple(row[:keys]))
    return {key(row): tuple(int(v) for v in row[keys:]) for row in table.rows}


def remove_old_files(spark, chosen: str, table: str) -> None:
    """What a retention shorter than the time between two runs does to an input's files: Delta's VACUUM RETAIN 0
    HOURS removes every file its newest version does not read; Iceberg's expire_snapshots, every snapshot but the
    current one with the files only those read."""
    if chosen == "iceberg":
        expire_log(spark, chosen, table)
        return
    vacuum_every_old_file(spark, f"inc_join_it.restated_{table}")


# the same macros on either format (Delta's VACUUM or Iceberg's expired snapshots remove the files): `make test-matrix`
# runs it on both; `make test` runs its macros in tests/formats/test_log_files_gone.py (Delta) and the log test above
# (Iceberg's expired log)
@pytest.mark.matrix
def test_an_input_whose_old_files_are_gone_then_a_day_redelivered_long_after_are_found(spark, project, chosen):
    """Two restatements older than the next run's read range, one after the other on one model's daily runs.

    Issue 71 item 7: daily runs up to day 9, then a payment of day 3 deleted (recorded by the day-9 run, older than
    the day-10 run's read range of b: the log check would compare day 3 as of the recorded version and now), and
    the input's old files removed. The run reads no file that is gone: it says in one line what it could not
    check, checks its read ranges by fingerprints and writes; the test restated_inputs over the last 8 days finds
    day 3 from the ledger's fingerprints (no old version read), and the redo repairs the table.

    Issue 71 item 8: then B's day 1 re-delivered (deleted, then written again with a payment changed) after the
    day-10 runs, outside the next run's read range. The model's plain restated_inputs test (no `inputs`) reads the
    log of each input the runs recorded and names day 1; the redo then gives the table one run over the inputs as
    they are now gives."""
    data = first_run(spark, project, chosen, ("restated_left",))
    for n in (8, 9):
        load(spark, data, day(n - 1), day(n))
        run(project, day(n), "restated_left")
    assert failures(project, "restated_left_not_redone") == 0
    deleted = one_row(spark, "b", f"RecDate = DATE'{day(3)}'")
    spark.sql(f"DELETE FROM inc_join_it.restated_b WHERE PaymentId = {deleted[0]}")  # b is not partitioned
    load(spark, data, day(9), day(10))
    remove_old_files(spark, chosen, "b")
    warnings: list[str] = []
    run(project, day(10), "restated_left", callbacks=[warnings_into(warnings)])
    lines = [w for w in warnings if "only the read range by its fingerprints" in w]
    assert len(lines) == 1 and "restated_b" in lines[0], warnings
    print(lines[0])
    assert not restated(spark, "restated_left")  # day 3 is not compared by the run
    # the rest, by the test with its horizon: day 3 found, kept outstanding, and redone
    assert failures(project, "restated_left_last_8") == 1
    run(project, day(10), "restated_left", inc_join_on_restated_input="redo")
    assert last_record(spark, "restated_left").redo_from.date() == day(3)
    assert_equal(project, "restated_left", left_reference(Inputs(spark)))
    assert failures(project, "restated_left_not_redone") == 0

    # day 1 of b re-delivered, one payment changed: found by the plain test from the log, then redone
    again = [r for r in data["b"] if r[2] == day(1)]
    again[0] = (again[0][0] + 1, *again[0][1:])
    spark.sql(f"DELETE FROM inc_join_it.restated_b WHERE RecDate = DATE'{day(1)}'")
    spark.sql(f"INSERT INTO inc_join_it.restated_b VALUES {values(again)}")
    assert failures(project, "restated_left_not_redone") == 1
    run(project, day(10), "restated_left", inc_join_on_restated_input="redo")
    assert last_record(spark, "restated_left").redo_from.date() == day(1)
    assert_equal(project, "restated_left", left_reference(Inputs(spark)))
    assert failures(project, "restated_left_not_redone") == 0
