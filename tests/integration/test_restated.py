"""Inputs rewritten after a committed run read them (docs/spec.md §14), on models that record their runs: each
run fingerprints the units of its read ranges, compares them with what the table's last committed run read,
and warns (the default), fails before writing, or redoes the table from the earliest restated unit.

The inputs are tables this test writes and rewrites (integration_tests/models/ledger/restated, enabled by the
var inc_join_restated_tests); the reference is the core over the inputs as they are now."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest

from dbt_inc_join import inc_join, inc_join_many
from harness.table_formats import table_format

from .pipeline import rows

pytestmark = pytest.mark.dbt

FIRST_DAY = date(2025, 3, 1)
VARS = {"inc_join_restated_tests": True}
LEDGER = "inc_join_it.dbt_inc_join_runs"
MODELS = ("restated_left", "restated_left_py", "restated_many", "restated_many_py")
MANY = ("restated_many", "restated_many_py")
# restated_many with both inputs taking their first partner, which keeps the open state (spec §18)
MANY_STATE = "restated_many_first"
# restated_left in hours over views of the same inputs (every row at hour (TrxId % 6) * 4 of its day), from day 7 on;
# named "..._hourly" on purpose: Spark shows a table property whose value matches spark.sql.redaction.options.regex
# ("(?i)url") as redacted, so its second run reads the table's state back only through _table_properties' re-read
HOURLY = ("restated_hour_a", "restated_hour_b", "restated_hourly")
A_SCHEMA = "TrxId int, Amount decimal(10,2), RecDate date"
B_SCHEMA = "PaymentId int, TrxId int, RecDate date"
C_SCHEMA = "TrxId int, Note string, RecDate date"


def day(n: int) -> date:
    return FIRST_DAY + timedelta(days=n - 1)


def generated(days: int) -> dict[str, list[tuple]]:
    """Six A rows a day; a payment for most of them, 0 to 5 days later (some a day before); a note for every
    third, 0 to 3 days later."""
    a, b, c = [], [], []
    for n in range(1, days + 1):
        for i in range(6):
            trx = n * 10 + i
            a.append((trx, Decimal(f"{(trx * 37) % 1000}.25"), day(n)))
            lag = (trx * 7) % 7 - 1  # -1 .. 5
            if i != 5:
                b.append((trx * 3, trx, day(n + lag)))
            if i % 3 == 0:
                c.append((trx, f"note {trx}", day(n + (trx % 4))))
    return {"a": a, "b": b, "c": c}


class Inputs:
    """The three input tables as they are, written up to a simulated day."""

    def __init__(self, spark, days: int = 14):
        self.spark = spark
        self.data = generated(days)

    def write(self, until: date) -> None:
        for name, schema in (("a", A_SCHEMA), ("b", B_SCHEMA), ("c", C_SCHEMA)):
            loaded = [r for r in self.data[name] if r[-1] <= until]
            frame = self.spark.createDataFrame(loaded, schema)
            # every write rewrites every file (and here in reverse order): the same rows are no restatement
            # in the leg's table format (make test-formats), else parquet. Static: the whole table is replaced, though
            # dbt-spark's insert_overwrite leaves spark.sql.sources.partitionOverwriteMode=dynamic in the session it
            # shares with the test, which Delta honours in a DataFrame's overwrite too (then only the days written
            # would be replaced, and an earlier test's later days would stay)
            frame.orderBy(frame.columns[0], ascending=False).write.mode("overwrite").option(
                "partitionOverwriteMode", "static"
            ).format(table_format() or "parquet").partitionBy("RecDate").saveAsTable(f"inc_join_it.restated_{name}")

    def table(self, name: str):
        return self.spark.table(f"inc_join_it.restated_{name}")


# restated_left's and restated_left_py's join (models/ledger/restated), as the core takes it
LEFT = dict(join_cols="TrxId", how="left", look_back_time=2, max_waiting_time=4)


def many_inputs(inputs: Inputs) -> list[dict]:
    """restated_many's and restated_many_py's inputs (models/ledger/restated), as the core takes them."""
    return [
        dict(df=inputs.table("b"), name="pay", join_cols="TrxId", look_back_time=2, max_waiting_time=4,
             partner="first", partner_order_by="PaymentId"),
        dict(df=inputs.table("c"), name="note", join_cols="TrxId", look_back_time=1, max_waiting_time=3,
             aggregate={"n_notes": "count(*)"}),
    ]  # fmt: skip


def many_state_reference(inputs: Inputs):
    pay, note = many_inputs(inputs)
    note = {key: value for key, value in note.items() if key != "aggregate"}
    return inc_join_many(inputs.table("a"), [pay, dict(note, partner="first")])


def left_reference(inputs: Inputs):
    return inc_join(inputs.table("a"), inputs.table("b"), **LEFT)


def many_reference(inputs: Inputs):
    return inc_join_many(inputs.table("a"), many_inputs(inputs))


def assert_equal(project, model: str, expected) -> None:
    table = project.table(model)
    columns = sorted(table.columns)
    assert rows(table, columns) == rows(expected.select(*columns), columns), model


def at_hour(trx: int, n: int) -> str:
    """A row's arrival in restated_hour_a and _b, as the ledger's text."""
    return f"{day(n)} {(trx % 6) * 4:02d}:00:00"


def restated_units(spark, model: str) -> list[tuple[str, str]]:
    """The restated units of the model's last record: (input, unit as 'yyyy-MM-dd HH:mm:ss' in UTC)."""
    last = f"SELECT restated FROM {LEDGER} WHERE relation = 'inc_join_it.{model}' ORDER BY finished_at DESC LIMIT 1"
    units = f"SELECT posexplode(restated) AS (i, r) FROM ({last})"
    found = spark.sql(f"SELECT r.input, date_format(r.unit, 'yyyy-MM-dd HH:mm:ss') FROM ({units}) ORDER BY i")
    return [tuple(row) for row in found.collect()]


def last_record(spark, model: str):
    runs = spark.table(LEDGER).where(f"relation = 'inc_join_it.{model}'").orderBy("finished_at").collect()
    return runs[-1]


def run(project, until: date, *select: str, expect_success: bool = True, full_refresh: bool = False, callbacks=(),
        **variables):  # fmt: skip
    """dbt run of the models on the simulated day (each test starts its tables afresh: full_refresh)."""
    extra = ["--full-refresh"] if full_refresh else []
    return project.invoke("run", "--select", *(select or ("tag:restated",)), *extra,
                          vars={**VARS, **variables}, today=until, expect_success=expect_success,
                          callbacks=callbacks)  # fmt: skip


def statements_into(found: dict[str, list[str]]):
    """A dbt callback that keeps each model's SQL statements, leading comments stripped: {model name: [sql]}."""

    def collect(event) -> None:
        if event.info.name == "SQLQuery":
            text = re.sub(r"^\s*(/\*.*?\*/\s*)*", "", event.data.sql, flags=re.S)
            found.setdefault(event.data.node_info.node_name, []).append(text)

    return collect


def state_lines_into(found: dict[str, str]):
    """A dbt callback that keeps each model's open-state line (spec §18) without its prefix: {model name: text}."""
    prefix = "inc_join open state of "

    def collect(event) -> None:
        if event.info.name == "JinjaLogInfo" and event.info.msg.startswith(prefix):
            target, _, rest = event.info.msg[len(prefix) :].partition(": ")
            found[target.split(".")[-1]] = rest

    return collect


def reads_before_the_write(statements: list[str], relation: str) -> list[str]:
    """The queries that read `relation` before the model's write (dbt-spark's temporary view of the model's SQL,
    then its insert)."""
    before = []
    for text in statements:
        if text.lower().startswith(("create or replace temporary view", "insert ")):
            break
        if text.lower().startswith("select") and relation in text:
            before.append(text)
    return before


def failures_each(project, *tests: str, callbacks=()) -> dict[str, int]:
    """The failing rows of each data test, by its name (one `dbt test`)."""
    result = project.invoke("test", "--select", *tests, vars=VARS, expect_success=False, callbacks=callbacks)
    found = {r.node.name: r.failures or 0 for r in result.result.results}
    assert sorted(found) == sorted(tests), found
    return found


def failures(project, *tests: str, callbacks=()) -> int:
    """The failing rows of data tests, added up."""
    return sum(failures_each(project, *tests, callbacks=callbacks).values())


def test_restated_units_are_named_then_redone(spark, project):
    """A first run over days 1-6, two daily runs; then a B row added with an old arrival, a B row deleted and an
    A amount changed, all in the next run's read range: with on_restated_input=fail the run writes and records
    nothing; the default run warns, writes as usual and records the three units; the redo the message names makes
    each table equal to one run over the current inputs."""
    inputs = Inputs(spark)
    statements: dict[str, list[str]] = {}
    state: dict[str, str] = {}
    logged: list[str] = []
    for n in range(6, 9):
        inputs.write(day(n))
        hourly = HOURLY if n == 7 else HOURLY[-1:] if n > 7 else ()
        statements.clear()
        # day 8's run of restated_many_first is given its window by vars: it counts the state in the watermark's
        # query, as the open-ended runs count it in the query that fingerprints their read ranges
        given = n == 8
        callbacks = [statements_into(statements), state_lines_into(state), messages_into(logged)]
        run(project, day(n), *MODELS, *(() if given else (MANY_STATE,)), *hourly, full_refresh=n == 6,
            callbacks=callbacks)  # fmt: skip
        if given:
            run(project, day(n), MANY_STATE, callbacks=callbacks,
                inc_join_output_window_start=str(day(n)), inc_join_output_window_end=str(day(n)))  # fmt: skip
        if n == 7:  # the open state the day-8 run reads
            open_rows = spark.table("inc_join_it.restated_left__inc_join_open").count()
            many_open_rows = spark.table(f"inc_join_it.{MANY_STATE}__inc_join_open").count()
    # restated_left and restated_many_first keep the open state (spec §18): the daily runs read it
    assert state["restated_left"].startswith("read ") and state[MANY_STATE].startswith("read "), state
    # the rows each run read, counted from its fingerprints: each input's rows in the range it read (restated_left
    # with its state: a from day 8 - mw, b from day 8 - lb; without it b from day 8 - mw - lb), and the state's
    data = inputs.data

    def arrived(name: str, first: int) -> int:
        return sum(1 for row in data[name] if day(first) <= row[-1] <= day(8))

    read = {"a": arrived("a", 4), "b": arrived("b", 6), "open_state": open_rows}
    assert last_record(spark, "restated_left").rows_read == read
    assert last_record(spark, "restated_left_py").rows_read == {"a": arrived("a", 4), "b": arrived("b", 2)}
    for model in MANY:  # A from day 8 - 4 (the widest mw), pay lb 2 and note lb 1 before it
        assert last_record(spark, model).rows_read == {"a": arrived("a", 4), "pay": arrived("b", 2),
                                                       "note": arrived("c", 3)}, model  # fmt: skip
    # with the state: A from day 8, each input its look_back_time before it, and the state's rows
    with_state = {"a": arrived("a", 8), "pay": arrived("b", 6), "note": arrived("c", 7), "open_state": many_open_rows}
    assert last_record(spark, MANY_STATE).rows_read == with_state
    line = next(m for m in reversed(logged) if m.startswith("inc_join inc_join_it.restated_left: "))
    assert f"; rows read: a {read['a']}, b {read['b']}, open state {open_rows}; plan: " in line, line
    # a daily run reads each input once before its write: the watermark's query fingerprints the read ranges
    for model, relation in (("restated_left", "restated_b"), ("restated_many", "restated_c")):
        reads = reads_before_the_write(statements[model], f"inc_join_it.{relation}")
        assert len(reads) == 1 and " AS input, " in reads[0], (model, reads)
    assert_equal(project, "restated_left", left_reference(inputs))
    assert_equal(project, "restated_many", many_reference(inputs))
    first = last_record(spark, "restated_left")
    assert list(first.restated) == [] and first.redo_from is None
    recorded = json.loads(first.fingerprints)
    # the ledger keeps every unit the run read (window 03-08: A from 03-04, B from 03-02); the table property
    # what the next run compares ("next")
    assert recorded["ranges"] == {"a": ["2025-03-04 00:00:00", "2025-03-08 00:00:00"],
                                  "b": ["2025-03-02 00:00:00", "2025-03-08 00:00:00"]}  # fmt: skip
    assert recorded["next"] == {"a": ["2025-03-05 00:00:00", "2025-03-08 00:00:00"],
                                "b": ["2025-03-03 00:00:00", "2025-03-08 00:00:00"]}  # fmt: skip
    assert sorted(recorded["units"]["b"]) == [f"{day(n)} 00:00:00" for n in range(2, 9)]
    # SQL model = Python model: the same units, counts and hashes recorded
    for sql_model, python_model in (("restated_left", "restated_left_py"), MANY):
        python_recorded = json.loads(last_record(spark, python_model).fingerprints)
        assert python_recorded == json.loads(last_record(spark, sql_model).fingerprints), python_model

    # the restatements: a late-stamped payment (day 6), a deleted payment (day 7), a changed amount (day 8)
    data = inputs.data
    data["b"].append((9001, 53, day(6)))
    deleted = next(r for r in data["b"] if r[2] == day(7))
    data["b"].remove(deleted)
    changed = next(i for i, r in enumerate(data["a"]) if r[2] == day(8))
    data["a"][changed] = (data["a"][changed][0], Decimal("1.50"), day(8))
    inputs.write(day(9))
    # fail: nothing written, no record, the units and the command named
    files = {m: table_files(spark, m) for m in MODELS}
    records = spark.table(LEDGER).count()
    failed = run(project, day(9), *MODELS, expect_success=False, inc_join_on_restated_input="fail")
    message = " ".join(str(r.message) for r in failed.result.results if r.message)
    assert not failed.success and "on_restated_input=fail: nothing was written" in message, message
    assert f"b {day(6)} (rows" in message and f"a {day(8)} (rows" in message, message
    assert {m: table_files(spark, m) for m in MODELS} == files
    assert spark.table(LEDGER).count() == records
    # warn (the default): written as usual, every unit recorded
    result = run(project, day(9), *MODELS, MANY_STATE, "restated_hourly", callbacks=[state_lines_into(state)])
    # a run that finds restated units cannot prove its state is the inputs' now: it reads as without it
    for model in ("restated_left", MANY_STATE):
        assert state[model].startswith("not read (restated input units)"), state
    for model in [m for m in MODELS if m not in MANY]:
        record = last_record(spark, model)
        named = [(r.input, r.unit.date()) for r in record.restated]
        assert named == [("b", day(6)), ("b", day(7)), ("a", day(8))], model
        assert record.redo_from is None
    for model in MANY:
        many_named = [(r.input, r.unit.date()) for r in last_record(spark, model).restated]
        assert many_named == [("pay", day(6)), ("pay", day(7)), ("a", day(8))], model
    # in hours: each unit named by its hour
    expected = [("b", at_hour(53, 6)), ("b", at_hour(deleted[1], 7)), ("a", at_hour(data["a"][changed][0], 8))]
    assert restated_units(spark, "restated_hourly") == expected
    assert result.success
    # until redone, every restated_inputs test fails on them (the re-fingerprinted units are as recorded)
    assert failures(project, "restated_left_not_redone", "restated_left_last_8", "restated_many_next_reads") == 9

    # the command the warning names: the tables equal one run over the current inputs
    run(project, day(9), *MODELS, MANY_STATE, inc_join_redo_from=str(day(6)), callbacks=[state_lines_into(state)])
    # the redo's window starts before the state's end: not read, written again as of the redo's end
    assert state["restated_left"].startswith(f"not read (the state is as of {day(9)}, the window starts at "
                                             f"{day(6)})"), state  # fmt: skip
    assert_equal(project, "restated_left", left_reference(inputs))
    assert_equal(project, "restated_left_py", left_reference(inputs))
    assert_equal(project, "restated_many", many_reference(inputs))
    assert_equal(project, "restated_many_py", many_reference(inputs))
    assert_equal(project, MANY_STATE, many_state_reference(inputs))
    for model in MODELS:
        record = last_record(spark, model)
        assert record.redo_from.date() == day(6) and record.window_start.date() == day(6), model
        assert "var inc_join_redo_from=2025-03-06" in record.start_reason, model
    assert failures(project, "restated_left_not_redone", "restated_left_last_8", "restated_many_next_reads") == 0

    # an older unit, out of every daily run's read range: the test with a horizon reads it again, and the test
    # with inputs that are tables finds it from their files, wherever it lies (restated_many_next_reads has no
    # horizon beyond the next run's reads); what they find stays outstanding (the plain test of the model fails on
    # it too) until a redo, which the one command the test logs makes
    changed = next(i for i, r in enumerate(data["a"]) if r[2] == day(2))
    data["a"][changed] = (data["a"][changed][0], Decimal("2.50"), day(2))
    inputs.write(day(9))
    outstanding_tests = ("restated_left_last_8", "restated_left_not_redone", "restated_many_next_reads")
    assert failures_each(project, *outstanding_tests) == dict.fromkeys(outstanding_tests, 1)
    run(project, day(9), "restated_left", "restated_many", inc_join_on_restated_input="redo")
    assert_equal(project, "restated_left", left_reference(inputs))
    assert_equal(project, "restated_many", many_reference(inputs))
    assert last_record(spark, "restated_left").redo_from.date() == day(2)
    assert last_record(spark, "restated_many").redo_from.date() == day(2)
    # after the redo, the horizon compares with what the redo read, and passes; every file rewritten with the same
    # rows (Inputs.write) is no restatement: the units whose files changed are confirmed by their fingerprints
    inputs.write(day(9))
    logged: list[str] = []
    assert failures(project, "restated_left_not_redone", "restated_left_last_8", "restated_many_next_reads",
                    callbacks=[messages_into(logged)]) == 0  # fmt: skip
    assert any(re.search(r"listed the files of a: \d+ unit\(s\) with files changed", line) for line in logged), logged
    # a partition dropped, out of every read range and horizon: its files are gone, and the test names it
    dropped = spark.sql("SHOW PARTITIONS inc_join_it.restated_c").collect()[0][0].split("=", 1)[1]
    spark.sql(f"ALTER TABLE inc_join_it.restated_c DROP PARTITION (RecDate = '{dropped}')")
    logged.clear()
    assert failures(project, "restated_many_next_reads", callbacks=[messages_into(logged)]) == 1
    assert any("note: 1 unit(s) with files changed" in line for line in logged), logged
    [found] = outstanding(spark, "restated_many")
    assert (found["input"], found["unit"], found["rows_now"]) == ("note", f"{dropped} 00:00:00", 0)
    assert found["rows_then"] > 0


def test_a_run_given_a_past_window_leaves_the_next_runs_check_whole(spark, project):
    """A full refresh records only the units the next run reads again; a run then given a past window records its
    own, earlier range. The test restated_inputs judges no unit between the two records (no run recorded it), and
    the next daily run still compares its read range with what the runs before it read (spec §13, §14): a payment
    stamped with an old day is found and the redo repairs the table."""
    inputs = Inputs(spark)
    inputs.write(day(9))
    run(project, day(9), "restated_left", full_refresh=True)
    run(project, day(9), "restated_left", full_refresh=True)  # records a 03-06..09, b 03-04..09
    # the monitoring view counts the runs of the table as it is: the full refresh made a new one
    run(project, day(9), "dbt_inc_join_runs", "dbt_inc_join_model_status")
    [status] = spark.table(STATUS).where("model_name = 'restated_left'").collect()
    assert (status.committed_runs, status.rows_total) == (1, project.table("restated_left").count())
    run(project, day(9), "restated_left", inc_join_output_window_start=str(day(2)),
        inc_join_output_window_end=str(day(2)))  # fmt: skip
    inputs.data["b"].append((9002, 83, day(8)))
    inputs.write(day(10))
    run(project, day(10), "restated_left")
    assert [(r.input, r.unit.date()) for r in last_record(spark, "restated_left").restated] == [("b", day(8))]
    # the files listed for the first time: every unit up to the last one read is compared, but a 03-03..05 and
    # b 03-03 lie between the past window's record and the full refresh's: only b 03-08, outstanding, fails
    assert failures(project, "restated_left_not_redone") == 1
    run(project, day(10), "restated_left", inc_join_on_restated_input="redo")
    assert_equal(project, "restated_left", left_reference(inputs))
    assert failures(project, "restated_left_not_redone") == 0


def table_files(spark, model: str) -> list[str]:
    return sorted(spark.table(f"inc_join_it.{model}").inputFiles())


@pytest.mark.matrix  # fail, warn and redo run in make test: test_restated_units_are_named_then_redone
def test_fail_writes_nothing_and_redo_repairs_a_chain(spark, project):
    """on_restated_input=fail stops before anything is written, naming the unit and the command; a plain run (warn)
    then writes and records the units; the models that read restated_many's table (directly, and through a view)
    each log one line naming its unit not redone, and their restated_inputs tests (without `inputs`) fail (issue 71
    item 4). Then one `dbt run` with the command of restated_many's warning (`restated_many+`, the var holding for
    the whole run) redoes the models, although the warn run recorded the new fingerprints, and in DAG order the
    chained ones: each equals one run over its inputs as they are now, and the tests pass."""
    inputs = Inputs(spark)
    chained = ("restated_many", "restated_chained", "restated_left_py", "restated_many_view", "restated_chained_view")
    state: dict[str, str] = {}
    for n in range(4, 8):  # a first run over days 1-4, then daily runs
        inputs.write(day(n))
        run(project, day(n), *chained, full_refresh=n == 4, callbacks=[state_lines_into(state)])
    assert state["restated_chained"].startswith("read "), state  # it keeps the open state (spec §18)
    inputs.data["b"].append((9002, 64, day(5)))  # a late-stamped payment for an A row of day 6
    inputs.data["c"] = [r for r in inputs.data["c"] if r[0] != 60]  # a deleted note of day 6
    inputs.write(day(8))

    files = {m: table_files(spark, m) for m in chained if m != "restated_many_view"}
    records = spark.table(LEDGER).count()
    result = run(project, day(8), *chained, expect_success=False, inc_join_on_restated_input="fail")
    assert not result.success
    message = " ".join(str(r.message) for r in result.result.results if r.message)
    assert "pay 2025-03-05 (rows" in message and "b 2025-03-05 (rows" in message
    assert "on_restated_input=fail: nothing was written" in message
    assert "dbt run --select restated_many+ --vars '{inc_join_on_restated_input: redo}'" in message
    # the message says what the run compared, and that older units were not
    assert "Compared: a 2025-03-04..2025-03-08, b 2025-03-02..2025-03-08 (restated_horizon=0); units before" in message
    assert {m: table_files(spark, m) for m in chained if m != "restated_many_view"} == files
    assert spark.table(LEDGER).count() == records

    warnings: list[str] = []
    # warn: written as usual, units outstanding
    run(project, day(8), *chained, callbacks=[state_lines_into(state), warnings_into(warnings)])
    # the failed run left the state as it was; this run found the restated units and reads as without it
    assert state["restated_chained"].startswith("not read (restated input units)"), state
    assert [(r.input, r.unit.date()) for r in last_record(spark, "restated_left_py").restated] == [("b", day(5))]
    (upstream,) = [text for text in warnings if text.startswith("inc_join inc_join_it.restated_many:")]
    for model in ("restated_chained", "restated_chained_view"):
        (line,) = [text for text in warnings if text.startswith(f"inc_join inc_join_it.{model}: its input")]
        assert "\n" not in line and len(line) <= 360, line  # one line, two units named
        named = f"its input inc_join_it.restated_many has restated units that its model has not redone: pay {day(5)} ("
        assert named in line and f", note {day(6)} (" in line, line
        redo = "Redo both with: dbt run --select restated_many+ --vars '{inc_join_on_restated_input: redo}'"
        assert line.endswith(redo), line
    tests = ("restated_chained_not_redone", "restated_chained_view_not_redone")
    # three rows each: restated_many's two units, and the note of day 6 deleted from c, which each reads as its B
    assert failures(project, *tests) == 6
    command = re.search(r"dbt run --select (\S+) --vars '\{inc_join_on_restated_input: redo\}'", upstream)
    assert command and command.group(1) == "restated_many+", upstream
    run(project, day(8), command.group(1), "restated_left_py", inc_join_on_restated_input="redo")
    assert_equal(project, "restated_left_py", left_reference(inputs))
    assert_equal(project, "restated_many", many_reference(inputs))
    expected = inc_join(project.table("restated_many"), inputs.table("c"), join_cols="TrxId", how="left",
                        look_back_time=1, max_waiting_time=2, suffixes=["_M", "_C"])  # fmt: skip
    assert_equal(project, "restated_chained", expected)
    assert_equal(project, "restated_chained_view", expected)
    for model in ("restated_many", "restated_left_py"):
        assert last_record(spark, model).redo_from.date() == day(5), model
    for model in ("restated_chained", "restated_chained_view"):
        downstream = last_record(spark, model)
        found = [(r.input, r.unit.date(), r.rows_then) for r in downstream.restated]
        assert ("inc_join_it.restated_many", day(5), None) in found, (model, found)
        assert downstream.redo_from.date() == day(5), model
    assert failures(project, *tests) == 0


def messages_into(found: list[str]):
    """A dbt callback that keeps the text of each info line a macro logged (log(..., info=True))."""

    def collect(event) -> None:
        if event.info.name == "JinjaLogInfo":
            found.append(event.data.msg)

    return collect


def outstanding(spark, model: str) -> list[dict]:
    """The table property inc_join.outstanding: the restated units no run has redone."""
    properties = {row[0]: row[1] for row in spark.sql(f"SHOW TBLPROPERTIES inc_join_it.{model}").collect()}
    return json.loads(properties.get("inc_join.outstanding") or "[]")


def warnings_into(found: list[str]):
    """A dbt callback that keeps the text of each warning a model gave (exceptions.warn, or a Python model's)."""

    def collect(event) -> None:
        if event.info.name == "JinjaLogWarning":
            found.append(event.data.msg)

    return collect


def hour_reference(inputs: Inputs):
    hours = {name: project_view(inputs, name) for name in ("a", "b")}
    return inc_join(hours["a"], hours["b"], join_cols="TrxId", how="left", look_back_time=1, max_waiting_time=30,
                    time_uom="hour")  # fmt: skip


def project_view(inputs: Inputs, name: str):
    return inputs.spark.table(f"inc_join_it.restated_hour_{name}")


STATUS = "inc_join_it.dbt_inc_join_model_status"


def outstanding_units(spark, model: str) -> list[str]:
    """The monitoring view's list of a model's restated units not redone (dbt_inc_join_model_status)."""
    found = spark.sql(f"SELECT outstanding_units FROM {STATUS} WHERE model_name = '{model}'").collect()
    return list(found[0][0]) if found else []


def test_a_microbatch_model_is_repaired_by_the_commands_its_warning_gives(spark, project):
    """A microbatch model records each batch (spec §13). A B row deleted from a unit its next batch reads is named,
    with the two commands that repair the model (a batch keeps its bounds, so no redo): its batches again from the
    restated unit, then a redo of the models that read it. The first names nothing it re-does itself, even with
    on_restated_input=fail, and the table then equals one run over the current inputs, nothing outstanding."""
    inputs = Inputs(spark)
    inputs.write(day(6))

    def batches(first: int, last: int) -> list[str]:
        return ["--event-time-start", str(day(first)), "--event-time-end", str(day(last + 1))]

    run(project, day(6), "restated_microbatch", "dbt_inc_join_model_status", *batches(1, 6), full_refresh=True)
    records = spark.table(LEDGER).where("relation = 'inc_join_it.restated_microbatch'").orderBy("finished_at").collect()
    table_id = records[-1].table_id
    windows = [(r.window_start.date(), r.window_end.date()) for r in records if r.table_id == table_id]
    assert windows == [(day(n), day(n)) for n in range(1, 7)], windows
    # a payment of day 3 deleted: in the day-7 batch's read range of B (from day 7 - 4 - 2)
    deleted = next(r for r in inputs.data["b"] if r[-1] == day(3))
    inputs.data["b"].remove(deleted)
    inputs.write(day(7))
    warnings: list[str] = []
    run(project, day(7), "restated_microbatch", *batches(7, 7), callbacks=[warnings_into(warnings)])
    (message,) = [w for w in warnings if "inputs changed after a committed run read them" in w]
    assert f"  b {day(3)} (rows " in message, message
    first, downstream = message.split("\n")[-2:]
    assert first == f"  dbt run --select restated_microbatch --event-time-start {day(3)} --event-time-end {day(8)}"
    assert downstream == ("  dbt run --select restated_microbatch+ --exclude restated_microbatch --vars "
                          "'{inc_join_on_restated_input: redo}'")  # fmt: skip
    assert outstanding_units(spark, "restated_microbatch") == [f"b {day(3)}"]
    # the first command, as given, with fail: its batches re-do day 3 on, so nothing stops them
    warnings.clear()
    run(project, day(7), "restated_microbatch", *batches(3, 7), callbacks=[warnings_into(warnings)],
        inc_join_on_restated_input="fail")  # fmt: skip
    assert not [w for w in warnings if "inputs changed after a committed run read them" in w], warnings
    assert_equal(project, "restated_microbatch", left_reference(inputs).where(f"RecDate <= DATE'{day(7)}'"))
    assert outstanding_units(spark, "restated_microbatch") == []


@pytest.mark.matrix  # its steps run in make test: hourly units: the same macros as days
def test_hours_redelivered_are_named_listed_and_repaired_by_the_command_given(spark, project):
    """Hourly units over views, look-back 1 h, waiting 30 h, restated_horizon 48, daily runs of days 5-8.

    B's day 7 re-delivered with rows changed at an early and a late hour, one deleted, one added; the early hours lie
    before the next run's read range (B from day 7 about 14:00 on), inside its horizon. The run names every changed
    hour; the command its warning gives makes both tables (SQL and Python models) equal to one run over the current
    inputs, and the horizon test passes in the model's own unit.

    Then issue 71 item 5, one day on: every B row of three days changed (B's rows at six hours a day, inside the
    next run's read range and its 48-hour horizon): the warning lists 10 units, one a line, counts the rest and names
    the view that lists them all, and no line is longer than 200 characters. The view lists every unit the run
    recorded; the command the warning gives (the model and what reads it) repairs the table and empties the
    list."""
    inputs = Inputs(spark)
    models = ("restated_hour_a", "restated_hour_b", "redelivered_hour", "redelivered_hour_py")
    for n in range(5, 9):
        inputs.write(day(n))
        run(project, day(n), *models, full_refresh=n == 5)
    assert failures(project, "redelivered_hour_last_72") == 0  # hours compared with hours

    hour = lambda row: (row[1] % 6) * 4  # noqa: E731  (a B row's hour in restated_hour_b)
    redelivered = [r for r in inputs.data["b"] if r[2] == day(7)]
    early = sorted((r for r in redelivered if hour(r) < 12), key=hour)
    late = [r for r in redelivered if hour(r) >= 16]
    assert len(early) >= 2 and late, redelivered
    changed_early, deleted, changed_late = early[0], early[1], late[0]
    data = inputs.data["b"]
    data[data.index(changed_early)] = (changed_early[0] + 1, changed_early[1], day(7))
    data[data.index(changed_late)] = (changed_late[0] + 1, changed_late[1], day(7))
    data.remove(deleted)
    added = next(t for t in range(9000, 9100) if t % 6 == 5)  # hour 20
    data.append((added * 3, added, day(7)))
    inputs.write(day(9))
    warnings: list[str] = []
    run(project, day(9), *models, callbacks=[warnings_into(warnings)])
    expected_units = sorted({f"{day(7)} {hour(r):02d}:00:00" for r in (changed_early, deleted, changed_late)}
                            | {f"{day(7)} 20:00:00"})  # fmt: skip
    for model in models[2:]:
        found = sorted({unit for name, unit in restated_units(spark, model) if name == "b"})
        assert found == expected_units, model
    assert len(warnings) == 2 and all("(restated_horizon=48)" in text for text in warnings), warnings
    # what the warning says, done as it says it
    commands = {re.search(r"dbt run --select (\S+)\+ --vars '(\{.*?\})'", text).groups() for text in warnings}
    assert {model for model, _ in commands} == set(models[2:])
    for model, settings in sorted(commands):
        assert settings == "{inc_join_on_restated_input: redo}", settings
        run(project, day(9), model + "+", inc_join_on_restated_input="redo")
    for model in models[2:]:
        assert_equal(project, model, hour_reference(inputs))
        assert last_record(spark, model).redo_from == datetime.fromisoformat(expected_units[0])
        # open_state='auto' with a few rows of A an hour keeps no state, in a redo too (spec §18)
        assert not spark.catalog.tableExists(f"inc_join_it.{model}__inc_join_open"), model
    assert failures(project, "redelivered_hour_last_72") == 0

    # every B row of days 7-9 changed
    models = models[:3]
    run(project, day(9), "dbt_inc_join_model_status")
    data = inputs.data["b"]
    for i, row in enumerate(data):
        if day(7) <= row[2] <= day(9):
            data[i] = (row[0] + 1, row[1], row[2])  # another PaymentId: the unit's rows differ
    inputs.write(day(10))
    warnings.clear()
    run(project, day(10), *models, callbacks=[warnings_into(warnings)])
    recorded = sorted(f"{name} {unit}" for name, unit in restated_units(spark, "redelivered_hour"))
    assert len(recorded) > 12, recorded
    (message,) = [text for text in warnings if "inputs changed after a committed run read them" in text]
    lines = message.split("\n")
    assert max(len(line) for line in lines) <= 200, [len(line) for line in lines]
    assert lines[0].endswith(f"inputs changed after a committed run read them ({len(recorded)} units):"), lines[0]
    listed = [line.strip().split(" (rows ")[0] for line in lines if line.startswith("  b ")]
    assert listed == recorded[:10], (listed, recorded)
    assert lines[11].startswith(f"  ... and {len(recorded) - 10} more (once this run is recorded, all of them: "
                                "select outstanding_units from dbt_inc_join_model_status where model_name = "
                                "'redelivered_hour')")  # fmt: skip
    assert outstanding_units(spark, "redelivered_hour") == recorded
    # the command on the message's last line, as given
    command = re.fullmatch(r"  dbt run --select (\S+) --vars '\{inc_join_on_restated_input: redo\}'", lines[-1])
    assert command and command.group(1) == "redelivered_hour+", lines[-1]
    run(project, day(10), command.group(1), inc_join_on_restated_input="redo")
    assert_equal(project, "redelivered_hour", hour_reference(inputs))
    assert outstanding_units(spark, "redelivered_hour") == []


@pytest.mark.matrix  # its steps run in make test: the log test on Iceberg
def test_a_day_redelivered_long_after_it_was_read_fails_the_test_without_inputs(spark, project):
    """Issue 71 item 8, parquet: B's day 2, read by the runs of days 5-8, re-delivered with a row changed after the
    day-10 run, outside the next run's read range (B from day 5). The model's plain restated_inputs test (no
    `inputs`) checks the inputs the runs recorded: the changed files name day 2, confirmed by its fingerprint; the
    redo then gives the table one run over the inputs as they are now gives."""
    inputs = Inputs(spark)
    for n in range(4, 11):
        inputs.write(day(n))
        run(project, day(n), "restated_left", full_refresh=n == 4)
    recorded = last_record(spark, "restated_left").fingerprints
    assert json.loads(recorded)["inputs"] == {
        side: {"relation": f"inc_join_it.restated_{side}", "arrival": "RecDate"} for side in ("a", "b")
    }
    assert failures(project, "restated_left_not_redone") == 0  # the test's first listing of the inputs' files
    data = inputs.data["b"]
    row = next(r for r in data if r[2] == day(2))
    data[data.index(row)] = (row[0] + 1, row[1], row[2])
    inputs.write(day(10))
    assert failures(project, "restated_left_not_redone") == 1
    assert [(r["input"], r["unit"]) for r in outstanding(spark, "restated_left")] == [("b", f"{day(2)} 00:00:00")]
    run(project, day(10), "restated_left", inc_join_on_restated_input="redo")
    assert last_record(spark, "restated_left").redo_from.date() == day(2)
    assert_equal(project, "restated_left", left_reference(inputs))
    assert failures(project, "restated_left_not_redone") == 0
