"""spec §14 on Delta Lake and Iceberg inputs, restated with the formats' own statements: rows added by INSERT with
an old arrival, removed by DELETE, changed by UPDATE and by MERGE, all inside the next run's read ranges. The run's
fingerprints name each restated unit (warn), `fail` stops before anything is written, and the redo the warning
names makes each table (SQL and Python models, one input and several) equal to one run over the inputs as they are
now. A is partitioned by its arrival column, B is not partitioned, C is. Run by the Spark 4.1 format legs.

(Restatements older than every read range are found on these inputs by the test restated_inputs with a horizon;
its listing of files is parquet's: reading the formats' logs instead is spec §17.)"""

from __future__ import annotations

import json
from datetime import date

import pytest

from .test_restated import (
    LEDGER,
    Inputs,
    assert_equal,
    day,
    generated,
    last_record,
    left_reference,
    many_reference,
    run,
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


def newest_version(spark, chosen: str, table: str) -> str:
    """The table's newest commit: Delta's highest version, Iceberg's current snapshot."""
    if chosen == "delta":
        return str(spark.sql(f"DESCRIBE HISTORY {table}").agg({"version": "max"}).first()[0])
    history = spark.sql(f"SELECT snapshot_id, made_current_at FROM {table}.history WHERE is_current_ancestor")
    return str(history.orderBy("made_current_at", ascending=False).first()[0])


def restated(spark, model: str) -> set[tuple[str, date]]:
    return {(r.input, r.unit.date()) for r in last_record(spark, model).restated}


def test_restatements_by_the_format_s_statements_are_named_stopped_and_redone(spark, project, chosen):
    data = generated(14)
    for name, (columns, partitioned) in SCHEMAS.items():
        spark.sql(f"DROP TABLE IF EXISTS inc_join_it.restated_{name}")
        spark.sql(f"CREATE TABLE inc_join_it.restated_{name} ({columns}) USING {chosen} {partitioned}")
    # a first run over days 1-7, then a daily run: its read ranges hold the units restated below (days 6-8)
    load(spark, data, None, day(7))
    run(project, day(7), *MODELS, full_refresh=True)
    load(spark, data, day(7), day(8))
    newest = {name: newest_version(spark, chosen, f"inc_join_it.restated_{name}") for name in ("a", "b", "c")}
    run(project, day(8), *MODELS)
    # spec §17: each run records the version of each Delta or Iceberg input it read, SQL and Python models alike
    tables = {"restated_left": {"a": "a", "b": "b"}, "restated_left_py": {"a": "a", "b": "b"},
              "restated_many": {"a": "a", "pay": "b", "note": "c"}}  # fmt: skip
    for model, inputs_of in tables.items():
        expected = {(name, f"inc_join_it.restated_{table}", chosen, newest[table]) for name, table in inputs_of.items()}
        recorded = last_record(spark, model).input_versions
        assert {(v.input, v.relation.replace("`", "").lower(), v.format, v.version) for v in recorded} == expected
        properties = {r[0]: r[1] for r in spark.sql(f"SHOW TBLPROPERTIES inc_join_it.{model}").collect()}
        mirrored = json.loads(properties["inc_join.input_versions"])
        assert sorted(v["version"] for v in mirrored) == sorted(v.version for v in recorded), model
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
    newest = {name: newest_version(spark, chosen, f"inc_join_it.restated_{name}") for name in ("a", "b", "c")}
    run(project, day(9), *MODELS, inc_join_on_restated_input="redo")
    # a redo resolves its window twice and keeps the versions read before its first read of the inputs
    for model, inputs_of in tables.items():
        recorded = {v.input: v.version for v in last_record(spark, model).input_versions}
        assert recorded == {name: newest[table] for name, table in inputs_of.items()}, model
    assert_equal(project, "restated_left", left_reference(inputs))
    assert_equal(project, "restated_left_py", left_reference(inputs))
    assert_equal(project, "restated_many", many_reference(inputs))
    for model in MODELS:
        assert last_record(spark, model).redo_from.date() == day(6), model
