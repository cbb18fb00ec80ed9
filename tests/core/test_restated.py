"""restated.py (docs/spec.md §14): fingerprints of a DataFrame's units on real Spark, and the pure rules that
compare them (the core renders the fingerprints' macros); the dbt runs in
tests/integration/test_restated.py."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from types import SimpleNamespace

import pytest

from dbt_inc_join import unit_fingerprints
from dbt_inc_join.plan.restated import on_restated_input_mode, restated_horizon, with_horizon
from dbt_inc_join.plan.window import parse_bound
from dbt_inc_join.sql_text import render
from dbt_inc_join.sql_text.macros import port
from dbt_inc_join.sql_text.statement import relation, run
from dbt_inc_join.sql_text.time_units import TimeUnit


def restated_units(previous, units, ranges):
    return render("_restated_units", previous, units, ranges)


def fingerprint_record(units, ranges, redone=None):
    return render("_fingerprint_record", units, ranges, dict(redone or {}))


def upstream_restated(previous, redone, unit: TimeUnit):
    return render("_upstream_restated", previous, redone, unit.value)


def restated_text(restated, unit: TimeUnit) -> str:
    return render("_restated_text", list(restated), unit.value)


def restated_message(target, model_name, restated, unit: TimeUnit, mode, checked, horizon, logged=()) -> str:
    return render("_restated_message", target, model_name, list(restated), unit.value, mode, checked, horizon,
                  list(logged))  # fmt: skip


def pending_units(found, outstanding):
    return render("_pending_units", list(found), list(outstanding or []))


def recorded_fingerprints(records, ranges):
    return render("_recorded_fingerprints", list(records), ranges)


def covers(record, ranges, last_read="2025-03-31 00:00:00") -> bool:
    return render("_covers", record, ranges, last_read)


def check_redo_config(config: dict, mode: str) -> None:
    """The macro _check_redo_config with this model config and var inc_join_redo_from."""
    names = {
        "config": SimpleNamespace(get=lambda key, default=None: config.get(key, default)),
        "var": lambda name, default=None: config.get("redo_from") if name == "inc_join_redo_from" else default,
    }
    port(lambda text: None, names)("_check_redo_config", mode)


SCHEMA = "k int, amount decimal(10,2), tags map<string,int>, RecDate date"
ROWS = [
    (1, "1.50", {"x": 1}, date(2025, 3, 1)),
    (2, "2.00", None, date(2025, 3, 1)),
    (3, "3.00", {"y": 2}, date(2025, 3, 2)),
    (4, None, {}, date(2025, 3, 3)),
]


def frame(spark, rows):
    from decimal import Decimal

    typed = [(k, None if a is None else Decimal(a), t, d) for k, a, t, d in rows]
    return spark.createDataFrame(typed, SCHEMA)


def fingerprints(df, **kwargs):
    return {r.unit: (r.rows, r.hash) for r in unit_fingerprints(df, **kwargs).collect()}


def test_the_same_rows_in_another_order_or_partitioning_have_the_same_fingerprint(spark):
    before = fingerprints(frame(spark, ROWS))
    assert sorted(before) == ["2025-03-01 00:00:00", "2025-03-02 00:00:00", "2025-03-03 00:00:00"]
    assert before["2025-03-01 00:00:00"][0] == 2
    shuffled = frame(spark, ROWS[::-1]).repartition(3)
    assert fingerprints(shuffled) == before


@pytest.mark.parametrize(
    "change",
    ["added", "removed", "payload", "key", "map"],
)
def test_an_added_removed_or_changed_row_changes_its_unit_only(spark, change):
    rows = list(ROWS)
    if change == "added":
        rows.append((5, "9.99", None, date(2025, 3, 1)))
    elif change == "removed":
        rows.remove(ROWS[1])
    elif change == "payload":
        rows[1] = (2, "2.01", None, date(2025, 3, 1))
    elif change == "key":
        rows[1] = (7, "2.00", None, date(2025, 3, 1))
    else:
        rows[0] = (1, "1.50", {"x": 2}, date(2025, 3, 1))
    before, after = fingerprints(frame(spark, ROWS)), fingerprints(frame(spark, rows))
    changed = {unit for unit in before if before[unit] != after.get(unit)}
    assert changed == {"2025-03-01 00:00:00"}


def test_a_range_and_hour_units(spark):
    df = spark.createDataFrame(
        [(1, datetime(2025, 3, 1, 10, 5)), (2, datetime(2025, 3, 1, 10, 55)), (3, datetime(2025, 3, 1, 12, 0))],
        "k int, ts timestamp",
    )
    found = fingerprints(df, inc_col="TS", time_uom="hour", start="2025-03-01 10:00", end="2025-03-01 11:00")
    assert {unit: rows for unit, (rows, _) in found.items()} == {"2025-03-01 10:00:00": 2}
    with pytest.raises(ValueError, match="inc_col='RecDate' is not a column of df"):
        unit_fingerprints(df)


@pytest.mark.parametrize("unit", ["day", "hour"])
def test_the_watermarks_query_gives_the_latest_arrivals_and_the_checks_fingerprints(spark, unit):
    """A run that checks its inputs reads them once before the join (spec §14): the read units' latest units from
    the start on are _latest_arrivals' answer, and the units of each queried range are _fingerprints' answer (the
    macros, run on Spark through the port)."""
    time_unit = TimeUnit(unit)
    step = timedelta(days=1) if unit == "day" else timedelta(hours=1)
    first = datetime(2025, 3, 1)
    schema = "k int, note string, ts timestamp"
    a = spark.createDataFrame([(i, f"a{i}", first + step * (i % 9) + step / 3) for i in range(40)], schema)
    b = spark.createDataFrame([(i, f"b{i}", first + step * (i % 6)) for i in range(30)], schema)
    empty = spark.createDataFrame([(i, "c", first + step * (i % 3)) for i in range(5)], schema)
    frames = {"a": a, "b": b, "c": empty}
    macros = port(lambda text: run(text, {n: df for n, df in frames.items() if relation(n) in text}))
    columns = [("k", "int"), ("note", "string"), ("ts", "timestamp")]
    sides = [{"name": n, "relation": relation(n), "columns": columns, "arrival": "ts", "raw_type": "timestamp"}
             for n in frames]  # fmt: skip
    start = parse_bound(first + step * 4, "start", time_unit)
    reach = {"a": 2, "b": 3, "c": 1}
    read = macros("_read_units", sides, reach, start, unit)
    arrivals = [(s["name"], s["relation"], {"name": "ts"}, "timestamp") for s in sides]
    row = macros("_latest_arrivals", arrivals, start, None, False, unit)
    expected = [row[f"{name}_max"] for name in frames]
    assert macros("_latest_units", read, list(frames), start) == expected
    assert expected[1] == render("_unit_text", parse_bound(first + step * 5, "b", time_unit)) and expected[2] is None
    queried = render("_reach_ranges", reach, start, parse_bound(first + step * 5, "end", time_unit), unit)
    units = render("_units_read", read, queried)
    assert units is not None
    within = {
        name: {text: value for text, value in units.get(name, {}).items() if bounds[0] <= text <= bounds[1]}
        for name, bounds in queried.items()
    }
    alone = macros("_fingerprints", sides, queried, unit)
    assert {name: found for name, found in within.items() if found} == alone
    # a: units 2..5, b: units 1..5, c: none from unit 3 on
    assert {name: len(found) for name, found in alone.items()} == {"a": 4, "b": 5}
    # a range the read units do not cover is read again
    assert render("_units_read", read, {"a": [render("_unit_text", first), None]}) is None


RANGES = {"a": ["2025-03-04 00:00:00", "2025-03-09 00:00:00"]}
PREVIOUS = {
    "ranges": {"a": ["2025-03-03 00:00:00", "2025-03-08 00:00:00"]},
    "units": {"a": {"2025-03-03 00:00:00": "6:1", "2025-03-05 00:00:00": "6:2", "2025-03-07 00:00:00": "2:3"}},
    "redone": {},
}


def test_restated_units_are_the_differences_inside_both_ranges():
    now = {"a": {"2025-03-05 00:00:00": "7:9", "2025-03-06 00:00:00": "1:4", "2025-03-09 00:00:00": "3:3"}}
    found = restated_units(PREVIOUS, now, RANGES)
    # 03-03: outside this run's range; 03-07: gone; 03-09: after the last run's range (not read by it)
    assert found == [
        {"input": "a", "unit": "2025-03-05 00:00:00", "rows_then": 6, "rows_now": 7},
        {"input": "a", "unit": "2025-03-06 00:00:00", "rows_then": 0, "rows_now": 1},
        {"input": "a", "unit": "2025-03-07 00:00:00", "rows_then": 2, "rows_now": 0},
    ]
    same = {"a": {"2025-03-05 00:00:00": "6:2", "2025-03-07 00:00:00": "2:3"}}
    assert restated_units(PREVIOUS, same, RANGES) == []
    assert restated_units(None, now, RANGES) == []


def test_a_record_keeps_the_units_the_next_run_reads_again():
    units = {"a": {"2025-03-01 00:00:00": "1:1", "2025-03-05 00:00:00": "6:2"}, "b": {"2025-03-09 00:00:00": "1:2"}}
    record = fingerprint_record(units, RANGES, {"db.up": {"from": "2025-03-01 00:00:00", "run_key": "r"}})
    assert record == {
        "ranges": RANGES,
        "units": {"a": {"2025-03-05 00:00:00": "6:2"}},
        "redone": {"db.up": {"from": "2025-03-01 00:00:00", "run_key": "r"}},
    }


def test_an_upstream_redo_restates_its_start_once():
    redone = {"db.up": {"from": "2025-03-05 13:00:00", "run_key": "r2"}}
    assert upstream_restated({**PREVIOUS, "redone": {"db.up": {"run_key": "r1"}}}, redone, TimeUnit.DAY) == [
        {"input": "db.up", "unit": "2025-03-05 00:00:00", "rows_then": None, "rows_now": None}
    ]
    assert upstream_restated({**PREVIOUS, "redone": redone}, redone, TimeUnit.DAY) == []
    assert upstream_restated({"ranges": {}, "units": {}}, redone, TimeUnit.DAY) == []  # a record before markers


def test_modes_and_their_messages():
    assert on_restated_input_mode("warn", None) == "warn"
    assert on_restated_input_mode(" FAIL ", None) == "fail"
    assert on_restated_input_mode("warn", "redo") == "redo"  # the var wins
    with pytest.raises(ValueError, match="inc_join_on_restated_input='nope' is not supported"):
        on_restated_input_mode("warn", "nope")
    restated = [{"input": "b", "unit": "2025-03-06 00:00:00", "rows_then": 5, "rows_now": 6}]
    checked = {"a": ["2025-03-05 00:00:00", "2025-03-08 00:00:00"], "b": ["2025-03-03 00:00:00", "2025-03-08 00:00:00"]}
    assert restated_message("db.m", "m", restated, TimeUnit.DAY, "fail", checked, 0).split("\n") == [
        "inc_join db.m: inputs changed after a committed run read them (1 unit):",
        "  b 2025-03-06 (rows 5 → 6)",
        "Compared: a 2025-03-05..2025-03-08, b 2025-03-03..2025-03-08 (restated_horizon=0); units before those were "
        "not compared.",
        "The table differs from one run over the current inputs from 2025-03-06 on at least (on_restated_input=fail: "
        "nothing was written).",
        "Redo it and the models that read it from the earliest restated unit with:",
        "  dbt run --select m+ --vars '{inc_join_on_restated_input: redo}'",
    ]
    # as many rows as before: the contents changed
    same_count = [{"input": "a", "unit": "2025-03-07 00:00:00", "rows_then": 5, "rows_now": 5}]
    assert "\n  a 2025-03-07 (rows 5, contents changed)\n" in restated_message(
        "db.m", "m", same_count, TimeUnit.DAY, "warn", checked, 0
    )
    # the earliest compared unit of b restated: older ones may be too, and the command compares further back
    at_start = [{"input": "b", "unit": "2025-03-03 00:00:00", "rows_then": 5, "rows_now": 4}, *restated]
    message = restated_message("db.m", "m", at_start, TimeUnit.HOUR, "warn", checked, 30)
    assert "written as usual, unless dbt stops on warnings (--warn-error)" in message
    assert message.endswith(
        "The earliest compared unit of b is restated, so older units may be restated too. Compare 60 more units, and "
        "redo it and the models that read it from the earliest restated unit, with:\n"
        "  dbt run --select m+ --vars '{inc_join_on_restated_input: redo, inc_join_restated_horizon: 60}'"
    )
    assert "Compare 48 more units" in restated_message("db.m", "m", at_start, TimeUnit.HOUR, "warn", checked, 0)
    # a microbatch model cannot be redone (a batch keeps its bounds): its batches run again, then what reads it
    batches = render("_restated_message", "db.m", "m", restated, "day", "warn", checked, 0, [], True).split("\n")
    assert batches[-3:] == [
        "Run its batches again from the earliest restated unit, then redo the models that read it, with:",
        "  dbt run --select m --event-time-start 2025-03-06 --event-time-end 2025-03-09",
        "  dbt run --select m+ --exclude m --vars '{inc_join_on_restated_input: redo}'",
    ]
    hourly = render("_restated_message", "db.m", "m", at_start, "hour", "warn", checked, 0, [], True)
    assert "--event-time-start 2025-03-03T00:00:00 --event-time-end 2025-03-08T01:00:00\n" in hourly
    # b's older units checked from its log (spec §17): no wider horizon to suggest, and the message says so
    logged = restated_message("db.m", "m", at_start, TimeUnit.HOUR, "warn", checked, 30, ["b"])
    assert "units before those were checked from the logs of b, not compared for a.\n" in logged
    assert logged.endswith("Redo it and the models that read it from the earliest restated unit with:\n"
                           "  dbt run --select m+ --vars '{inc_join_on_restated_input: redo}'")  # fmt: skip
    every = restated_message("db.m", "m", at_start, TimeUnit.HOUR, "warn", checked, 30, ["a", "b"])
    assert "units before those were checked from the inputs' logs.\n" in every


def test_a_day_redelivered_in_hours_is_listed_in_ten_lines_and_counted():
    """Issue 71: one re-delivered day in hourly units restates 24 units. The message lists the first 10, one a
    line, says how many more there are and where the ledger's view lists them all, and no line is longer than
    200 characters; the one-line text of a redo's reason is capped the same way."""
    commit = {"operation": "WRITE", "at": "2025-03-09 10:00:00", "version": "12"}
    day = [{"input": "b", "unit": f"2025-03-07 {h:02d}:00:00", "rows_then": 40 + h, "rows_now": 41 + h,
            "commit": commit} for h in range(24)]  # fmt: skip
    checked = {"a": ["2025-03-08 10:00:00", "2025-03-09 06:00:00"], "b": ["2025-03-07 14:00:00", "2025-03-09 06:00:00"]}
    for mode in ("warn", "fail"):
        message = restated_message("db.imp_clicks", "imp_clicks", day, TimeUnit.HOUR, mode, checked, 0, ["b"])
        lines = message.split("\n")
        assert max(len(line) for line in lines) <= 200, [len(line) for line in lines]
        assert lines[0] == "inc_join db.imp_clicks: inputs changed after a committed run read them (24 units):"
        units = [line for line in lines if line.startswith("  b 2025-03-07 ")]
        assert units == [f"  b 2025-03-07 {h:02d}:00:00 (rows {40 + h} → {41 + h}; WRITE at 2025-03-09 10:00:00, "
                         "version 12)" for h in range(10)]  # fmt: skip
        assert lines[11].startswith("  ... and 14 more (once ")
        assert lines[11].endswith(
            "all of them: select outstanding_units from dbt_inc_join_model_status where model_name = 'imp_clicks')"
        )
        assert lines[-1] == "  dbt run --select imp_clicks+ --vars '{inc_join_on_restated_input: redo}'"
        assert len(lines) == 16
    assert restated_text(day, TimeUnit.HOUR).endswith(" and 14 more (24 units)")
    assert restated_text(day, TimeUnit.HOUR).count("(rows ") == 10


def test_units_found_earlier_stay_pending_until_found_again():
    found = [{"input": "b", "unit": "2025-03-06 00:00:00", "rows_then": 5, "rows_now": 6}]
    outstanding = [
        {"input": "b", "unit": "2025-03-06 00:00:00", "rows_then": 5, "rows_now": 7},
        {"input": "a", "unit": "2025-03-01 00:00:00", "rows_then": 2, "rows_now": 1},
    ]
    assert pending_units(found, outstanding) == [
        {"input": "a", "unit": "2025-03-01 00:00:00", "rows_then": 2, "rows_now": 1, "outstanding": True},
        found[0],
    ]
    assert pending_units([], None) == []
    text = restated_text(pending_units([], outstanding[1:]), TimeUnit.DAY)
    assert text == "a 2025-03-01 (rows 2 → 1; found earlier, not redone)"


def test_what_the_ledger_last_saw_of_each_unit():
    records = [
        {"ranges": {"a": ["2025-03-01 00:00:00", "2025-03-05 00:00:00"]},
         "units": {"a": {"2025-03-01 00:00:00": "1:1", "2025-03-04 00:00:00": "1:2"}}},
        # a later run read 03-03..03-06 again: 03-04 had no rows then, 03-06 two
        {"ranges": {"a": ["2025-03-03 00:00:00", "2025-03-06 00:00:00"]},
         "units": {"a": {"2025-03-06 00:00:00": "2:2"}}},
    ]  # fmt: skip
    queried = {"a": ["2025-03-02 00:00:00", "2025-03-09 00:00:00"], "b": ["2025-03-02 00:00:00", "2025-03-09 00:00:00"]}
    assert recorded_fingerprints(records, queried) == {
        "ranges": {"a": ["2025-03-02 00:00:00", "2025-03-06 00:00:00"]},
        "units": {"a": {"2025-03-01 00:00:00": "1:1", "2025-03-06 00:00:00": "2:2"}},  # 03-04: no rows since
        "covered": {
            "a": [["2025-03-01 00:00:00", "2025-03-05 00:00:00"], ["2025-03-03 00:00:00", "2025-03-06 00:00:00"]]
        },
    }
    # the property reaches back to a range's start, and on to the unit before the run's window: units after
    # that are new arrivals, not restatements
    assert covers(records[1], {"a": ["2025-03-03 00:00:00", "2025-03-09 00:00:00"]}, "2025-03-06 00:00:00")
    assert not covers(records[1], {"a": ["2025-03-02 00:00:00", "2025-03-06 00:00:00"]})
    assert not covers(None, {"a": ["2025-03-03 00:00:00", "2025-03-06 00:00:00"]})
    assert not covers(records[1], queried)  # no record of b


def test_a_record_of_a_past_window_covers_no_later_read_and_a_gap_between_records_is_not_judged():
    """A full refresh records only what the next run reads again; a run given a past window then records its own
    range, earlier: the next daily run's check does not take that record as what the runs read before it, and no
    unit between the two records (read by no run that recorded it) counts as restated (spec §13, §14)."""
    full = {
        "ranges": {"b": ["2025-03-04 00:00:00", "2025-03-09 00:00:00"]},
        "units": {"b": {"2025-03-04 00:00:00": "2:4", "2025-03-08 00:00:00": "3:8"}},
    }
    past = {
        "ranges": {"b": ["2025-02-25 00:00:00", "2025-03-02 00:00:00"]},
        "units": {"b": {"2025-03-01 00:00:00": "1:1", "2025-03-02 00:00:00": "1:2"}},
    }
    # the day-10 run reads b 03-04..03-10; the past window's record ends on 03-02, before the 03-09 it follows
    queried = {"b": ["2025-03-04 00:00:00", "2025-03-10 00:00:00"]}
    assert not covers(past, queried, "2025-03-09 00:00:00")
    assert covers(full, queried, "2025-03-09 00:00:00")
    recorded = recorded_fingerprints([full, past], queried)
    now = {"b": {"2025-03-04 00:00:00": "2:4", "2025-03-08 00:00:00": "4:9", "2025-03-10 00:00:00": "1:5"}}
    assert restated_units(recorded, now, queried) == [
        {"input": "b", "unit": "2025-03-08 00:00:00", "rows_then": 3, "rows_now": 4},
    ]
    # the whole history compared (the test's first listing of the files): 03-03 lies between the two records
    every = {"b": [None, "2025-03-09 00:00:00"]}
    recorded = recorded_fingerprints([full, past], every)
    then_now = dict(
        now["b"], **{"2025-03-03 00:00:00": "5:5", "2025-03-01 00:00:00": "1:1", "2025-03-02 00:00:00": "1:2"}
    )
    assert restated_units(recorded, {"b": then_now}, recorded["ranges"]) == [
        {"input": "b", "unit": "2025-03-08 00:00:00", "rows_then": 3, "rows_now": 4},
    ]


def test_the_horizon_var_wins_and_is_checked():
    assert restated_horizon(None, None) == 0
    assert restated_horizon(24, None) == 24
    assert restated_horizon(24, 72) == 72
    with pytest.raises(TypeError, match="restated_horizon must be a non-negative whole number"):
        restated_horizon("24", None)
    with pytest.raises(ValueError, match="inc_join_restated_horizon must be a non-negative whole number"):
        restated_horizon(None, -1)
    assert with_horizon({"a": 4, "b": 6}, 10) == {"a": 14, "b": 16}


def redo_start(start, reason, redos):
    """The macro _redo_start as (start, reason, redo_from)."""
    found = {"start": start, "reason": reason, "redo_from": None}
    redone = render("_redo_start", found, [{"start": start, "reason": reason} for start, reason in redos])
    return redone["start"], redone["reason"], redone["redo_from"]


def test_a_redo_starts_at_the_earliest_redo_before_the_start():
    start = date(2025, 3, 9)
    redos = [(date(2025, 3, 6), "late"), (date(2025, 3, 4), "earliest"), (date(2025, 3, 10), "after")]
    assert redo_start(start, "ledger", redos) == (date(2025, 3, 4), "earliest", date(2025, 3, 4))
    assert redo_start(start, "ledger", [(date(2025, 3, 10), "after")]) == (start, "ledger", None)
    assert redo_start(None, "beginning", redos) == (None, "beginning", None)
    # a redo from the start itself is a redo (it replaces the partitions from there)
    assert redo_start(start, "ledger", [(start, "same")]) == (start, "same", start)


def test_a_redo_needs_a_strategy_that_replaces_the_window():
    config = {"materialized": "incremental", "incremental_strategy": "insert_overwrite", "partition_by": ["RecDate"]}
    check_redo_config(config, "redo")
    check_redo_config({**config, "incremental_strategy": "merge"}, "redo")  # admitted on Delta/Iceberg only
    with pytest.raises(ValueError, match="on_restated_input=redo needs incremental_strategy='insert_overwrite'"):
        check_redo_config({**config, "incremental_strategy": "append"}, "redo")
    with pytest.raises(ValueError, match="var inc_join_redo_from needs incremental_strategy='insert_overwrite'"):
        check_redo_config({**config, "incremental_strategy": None, "redo_from": "2025-03-01"}, "warn")
    check_redo_config({**config, "materialized": "table", "incremental_strategy": "append"}, "redo")


def test_a_chained_model_names_its_input_s_units_not_redone_in_one_line():
    """Issue 71: a model that reads an inc_join table whose model found restated units and did not redo them
    (warn) says so in one line, with the command that redoes both (spec §14, Chains)."""
    units = [{"input": "b", "unit": f"2025-03-07 {h:02d}:00:00", "rows_then": 3, "rows_now": 4} for h in (5, 1, 9, 2)]
    upstream = {"db.imp_clicks": {"model": "imp_clicks", "units": units}}
    lines = render("_upstream_outstanding_lines", "db.conversions", upstream, "hour")
    assert lines == [
        "inc_join db.conversions: its input db.imp_clicks has restated units that its model has not redone: "
        "b 2025-03-07 01:00:00 (rows 3 → 4), b 2025-03-07 02:00:00 (rows 3 → 4), b 2025-03-07 05:00:00 (rows 3 → 4) "
        "and 1 more (4 units); this table is stale from 2025-03-07 01:00:00 on at least. Redo both with: "
        "dbt run --select imp_clicks+ --vars '{inc_join_on_restated_input: redo}'"
    ]
    assert render("_upstream_outstanding_lines", "db.conversions", {}, "hour") == []
