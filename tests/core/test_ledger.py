"""The run ledger's rules in Python (src/dbt_inc_join/plan/ledger.py): where an incremental run starts, and the
max_window_units cap. The SQL macros apply the same rules; tests/integration/test_ledger.py runs both languages
through dbt, with the faults."""

from __future__ import annotations

import json
from datetime import date, datetime
from types import SimpleNamespace

import pytest

from dbt_inc_join.plan.ledger import check_max_window_units
from dbt_inc_join.sql_text import render
from dbt_inc_join.sql_text.macros import port
from dbt_inc_join.sql_text.time_units import TimeUnit

pytestmark = pytest.mark.one_engine  # engine-independent: `make test` runs it on Spark 4 only

DAY, HOUR = TimeUnit.DAY, TimeUnit.HOUR
STATE = {
    "ledger": "s.dbt_inc_join_runs",
    "table_id": "t1",
    "committed_end": "2025-01-06 00:00:00",
    "last_start": "2025-01-04 00:00:00",
    "last_rows": 30,
}


def ledger_start(state: dict, latest, inc_col: str, unit: TimeUnit) -> SimpleNamespace | None:
    """The macro _ledger_start: where an incremental run starts by the ledger, and why."""
    found = render("_ledger_start", state, latest, inc_col, unit.value)
    return None if found is None else SimpleNamespace(**found)


def test_a_table_the_ledger_never_saw_is_left_to_the_table():
    assert ledger_start({**STATE, "table_id": None}, date(2025, 1, 6), "RecDate", DAY) is None


def test_a_table_without_committed_runs_starts_from_the_beginning():
    found = ledger_start({**STATE, "committed_end": None}, date(2025, 1, 2), "RecDate", DAY)
    assert found is not None and found.start is None
    assert found.reason == (
        "no committed run of this table with a window in s.dbt_inc_join_runs (table_id t1): the run that created it "
        "did not finish"
    )
    empty = ledger_start({**STATE, "committed_end": None, "empty_runs": True}, None, "RecDate", DAY)
    assert empty is not None and empty.start is None
    assert empty.reason == (
        "no committed run of this table with a window in s.dbt_inc_join_runs (table_id t1): every committed run of it "
        "had an empty window"
    )


def test_the_next_run_starts_after_the_last_committed_window():
    found = ledger_start(STATE, date(2025, 1, 6), "RecDate", DAY)
    assert found is not None and found.start == date(2025, 1, 7)
    assert found.reason == "last committed window in s.dbt_inc_join_runs (table_id t1) ends 2025-01-06 + 1 day"


def test_quiet_last_units_are_no_disagreement():
    """The last committed window wrote rows up to day 5 only: the table is consistent with the ledger."""
    found = ledger_start(STATE, date(2025, 1, 5), "RecDate", DAY)
    assert found is not None and found.start == date(2025, 1, 7)


def test_rows_after_the_committed_window_are_written_again():
    """A run wrote day 7 (or some of its partitions) and was killed before its record: do it again."""
    found = ledger_start(STATE, date(2025, 1, 8), "RecDate", DAY)
    assert found is not None and found.start == date(2025, 1, 7)
    assert "max(RecDate) in this is 2025-01-08, written by a run that did not record its commit" in found.reason


def test_a_commit_without_a_record_is_named_by_its_metadata():
    """On Delta and Iceberg the table's last commit carrying a run's metadata (_last_commit) names the run whose
    record is missing; a commit of a window the ledger has is not named."""
    run = {"inc_join_run": "inv/model.p.m/2025-01-07 00:00:00", "relation": "s.m",
           "window_start": "2025-01-07 00:00:00", "window_end": "2025-01-08 00:00:00"}  # fmt: skip
    commit = {"version": "Delta version 12", "at": "2025-01-09 02:00:00", "operation": "MERGE", "run": run}
    found = ledger_start({**STATE, "last_commit": commit}, date(2025, 1, 8), "RecDate", DAY)
    assert found is not None and found.start == date(2025, 1, 7)
    assert found.reason.endswith(
        "written by a run that did not record its commit (Delta version 12 at 2025-01-09 02:00:00, MERGE, run "
        "inv/model.p.m/2025-01-07 00:00:00, window 2025-01-07 00:00:00..2025-01-08 00:00:00): doing it again"
    )
    recorded = {**commit, "run": {**run, "window_start": "2025-01-04 00:00:00", "window_end": "2025-01-06 00:00:00"}}
    found = ledger_start({**STATE, "last_commit": recorded}, date(2025, 1, 8), "RecDate", DAY)
    assert found is not None and found.reason.endswith("did not record its commit: doing it again")


def test_rows_missing_from_the_last_committed_window_start_from_the_table():
    found = ledger_start(STATE, date(2025, 1, 2), "RecDate", DAY)
    assert found is not None and found.start == date(2025, 1, 3)
    assert "before the last committed window 2025-01-04..2025-01-06" in found.reason
    empty_table = ledger_start(STATE, None, "RecDate", DAY)
    assert empty_table is not None and empty_table.start is None


def test_a_last_window_without_rows_says_nothing_of_the_table():
    found = ledger_start({**STATE, "last_rows": 0}, date(2025, 1, 1), "RecDate", DAY)
    assert found is not None and found.start == date(2025, 1, 7)


def test_hours_parse_and_shift_in_hours():
    state = {**STATE, "committed_end": "2025-01-06 10:00:00", "last_start": "2025-01-06 08:00:00"}
    found = ledger_start(state, datetime(2025, 1, 6, 9), "RecDate", HOUR)
    assert found is not None and found.start == datetime(2025, 1, 6, 11)


class Table:
    """A model's table by its arrivals; records which reads a run made (None: the whole table)."""

    def __init__(self, *arrivals: date) -> None:
        self.arrivals, self.reads = list(arrivals), []

    def latest_from(self, since: date | None) -> date | None:
        self.reads.append(since)
        return max((a for a in self.arrivals if since is None or a >= since), default=None)


POINTER = {**STATE, "source": "table property inc_join.committed"}
NEWER_RECORD = {
    **STATE,
    "committed_end": "2025-01-07 00:00:00",
    "last_start": "2025-01-07 00:00:00",
    "source": "ledger",
}


def no_ledger_read() -> dict:
    raise AssertionError("the ledger was read")


def no_commit_read() -> dict:
    raise AssertionError("the table's commits were read")


def committed_state(state, latest_from, read_ledger, unit, read_last_commit=lambda: None) -> SimpleNamespace:
    """The macro _committed_state, with the table's latest arrival, the ledger and the table's commits as given."""

    def no_query(text: str) -> None:
        raise AssertionError(f"a query ran: {text}")

    stand_ins = {
        "_ledger_state": lambda ledger, relation: dict(state),
        "_latest_output_arrival": lambda relation, inc_col, time_uom, since: latest_from(since),
        "_ledger_state_from_ledger": lambda ledger, found: dict(read_ledger()),
        "_last_commit": lambda found: read_last_commit(),
    }
    found = port(no_query, {}, stand_ins)("_committed_state", "s.dbt_inc_join_runs", "s.m", "RecDate", unit.value)
    return SimpleNamespace(**found)


def test_a_daily_run_reads_the_last_window_of_its_table_and_not_the_ledger():
    table = Table(date(2025, 1, 2), date(2025, 1, 5), date(2025, 1, 6))
    found = committed_state(POINTER, table.latest_from, no_ledger_read, DAY)
    assert (found.state, found.latest, table.reads) == (POINTER, date(2025, 1, 6), [date(2025, 1, 4)])


def test_a_table_property_one_record_behind_reads_the_ledger():
    """Killed after the record, before the property: the table has day 7, the ledger has its record."""
    table = Table(date(2025, 1, 5), date(2025, 1, 7))
    found = committed_state(POINTER, table.latest_from, lambda: NEWER_RECORD, DAY)
    assert (found.state, found.latest) == (NEWER_RECORD, date(2025, 1, 7))
    start = ledger_start(found.state, found.latest, "RecDate", DAY)
    assert start is not None and start.start == date(2025, 1, 8) and "doing it again" not in start.reason


def test_rows_written_without_a_record_are_done_again_after_the_ledger_is_read():
    table = Table(date(2025, 1, 5), date(2025, 1, 7))
    found = committed_state(POINTER, table.latest_from, lambda: {**STATE, "source": "ledger"}, DAY)
    start = ledger_start(found.state, found.latest, "RecDate", DAY)
    assert start is not None and start.start == date(2025, 1, 7) and "doing it again" in start.reason


def test_the_table_s_commits_are_read_only_for_rows_without_a_record():
    """Delta and Iceberg: a daily run, and a property one record behind, read no commit log; rows after the
    ledger's last window read it, and its newest commit with a run's metadata goes into the state."""
    commit = {"version": "Delta version 9", "at": "2025-01-08 01:00:00", "operation": "WRITE", "run": {}}
    table = Table(date(2025, 1, 5), date(2025, 1, 6))
    assert committed_state(POINTER, table.latest_from, no_ledger_read, DAY, no_commit_read).state == POINTER
    behind = Table(date(2025, 1, 5), date(2025, 1, 7))
    found = committed_state(POINTER, behind.latest_from, lambda: NEWER_RECORD, DAY, no_commit_read)
    assert found.state == NEWER_RECORD
    found = committed_state(POINTER, behind.latest_from, lambda: {**STATE, "source": "ledger"}, DAY, lambda: commit)
    assert found.state["last_commit"] == commit
    # a state read from the ledger (no table property) reads the commits the same way
    ledger_only = {**STATE, "source": "ledger"}
    found = committed_state(ledger_only, behind.latest_from, no_ledger_read, DAY, lambda: commit)
    assert found.state["last_commit"] == commit


def test_the_last_commit_is_the_newest_with_this_table_s_run():
    """_last_commit_of over a table's commits (Delta's DESCRIBE HISTORY columns, in any order, newest first): a
    commit without metadata, with another table's run or with text that is not a run's is passed over."""
    run = {"inc_join_run": "inv/model.p.m/2025-01-07", "relation": "s.m", "window_end": "2025-01-07 00:00:00"}
    other = {**run, "relation": "s.other"}
    columns = ["version", "timestamp", "userId", "operation", "userMetadata"]
    rows = [
        [12, datetime(2025, 1, 9, 2), None, "OPTIMIZE", None],
        [11, datetime(2025, 1, 9, 1), None, "WRITE", json.dumps(other)],
        [10, datetime(2025, 1, 8, 23), None, "WRITE", "a note"],
        [9, datetime(2025, 1, 8, 1), None, "MERGE", json.dumps(run)],
        [8, datetime(2025, 1, 7, 1), None, "WRITE", json.dumps({**run, "window_end": "2025-01-06 00:00:00"})],
    ]
    found = render("_last_commit_of", columns, rows, "delta", "S.M")
    assert found == {"version": "Delta version 9", "at": "2025-01-08 01:00:00", "operation": "MERGE", "run": run}
    assert render("_last_commit_of", columns, rows[:3], "iceberg", "s.m") is None
    assert render("_last_commit_sql", "s.m", "parquet") is None
    assert render("_last_commit_sql", "s.m", "delta") == "DESCRIBE HISTORY s.m LIMIT 20"


def test_a_concurrent_commit_is_another_run_s_overlapping_window_after_this_run_s_start():
    """_concurrent_commit_of (spec §16, Iceberg): walking from this run's commit to the snapshot it started from,
    another run's commit of an overlapping window of this table is found; commits before the start (an older run,
    or one a redo overlaps), of other tables, or of windows that do not overlap are passed over."""
    key = "inv-2/model.p.m/2025-01-04 00:00:00"
    record = {"window_start": "2025-01-04 00:00:00", "window_end": "2025-01-06 00:00:00", "start_snapshot": "10"}

    def run(run_key, start, end, relation="s.m"):
        return json.dumps({"inc_join_run": run_key, "relation": relation, "window_start": start, "window_end": end})

    other = run("inv-1/model.p.m/2025-01-04 00:00:00", "2025-01-04 00:00:00", "2025-01-06 00:00:00")
    # id, parent, committed_at, operation, run: newest first
    rows = [
        ["13", "12", datetime(2025, 1, 9, 3), "overwrite", run(key, record["window_start"], record["window_end"])],
        ["12", "11", datetime(2025, 1, 9, 2), "overwrite", other],
        ["11", "10", datetime(2025, 1, 9, 1), "append", run("x", "2025-01-04 00:00:00", "2025-01-06 00:00:00", "s.n")],
        ["10", "9", datetime(2025, 1, 8, 1), "overwrite", run("inv-0/m", "2025-01-01", "2025-01-05")],
        ["9", None, datetime(2025, 1, 7, 1), "overwrite", None],
    ]
    found = render("_concurrent_commit_of", rows, record, key, "S.M")
    assert (found["id"], found["at"]) == ("12", "2025-01-09 02:00:00")
    assert found["run"] == json.loads(other)
    # the later committer's message names the other run's commit and both windows (tests/formats/test_concurrent_runs.py
    # runs the race itself when `make test` draws it)
    assert render("_concurrent_commit_message", "s.m", record, found).startswith(
        "another run of s.m committed an overlapping window (2025-01-04 00:00:00 to 2025-01-06 00:00:00, Iceberg "
        "snapshot 12 at 2025-01-09 02:00:00, run inv-1/model.p.m/2025-01-04 00:00:00) while this run "
        "(2025-01-04 00:00:00 to 2025-01-06 00:00:00) was writing. Iceberg commits an INSERT OVERWRITE"
    )
    # the earlier committer: the other's commit is not among its commit's parents
    first = [["12", "10", datetime(2025, 1, 9, 2), "overwrite", run(key, record["window_start"], record["window_end"])]]
    assert render("_concurrent_commit_of", first + rows[3:], record, key, "s.m") is None
    # a commit before the start (here the other's, had this run started after it) is none of this run's concern
    assert render("_concurrent_commit_of", rows, {**record, "start_snapshot": "12"}, key, "s.m") is None
    # a window that does not overlap, an unknown start, or no commit of this run: nothing found
    later = {**record, "window_start": "2025-01-07 00:00:00", "window_end": "2025-01-07 00:00:00"}
    assert render("_concurrent_commit_of", rows, later, key, "s.m") is None
    assert render("_concurrent_commit_of", rows, {**record, "start_snapshot": None}, key, "s.m") is None
    assert render("_concurrent_commit_of", rows[1:], record, key, "s.m") is None


def test_rows_gone_from_the_last_window_read_the_whole_table():
    table = Table(date(2025, 1, 1), date(2025, 1, 2))
    found = committed_state(POINTER, table.latest_from, no_ledger_read, DAY)
    assert (found.latest, table.reads) == (date(2025, 1, 2), [date(2025, 1, 4), None])
    quiet = Table(date(2025, 1, 2))
    found = committed_state({**POINTER, "last_rows": 0}, quiet.latest_from, no_ledger_read, DAY)
    assert (found.latest, quiet.reads) == (None, [date(2025, 1, 4)])


def test_without_a_committed_window_the_whole_table_is_read():
    table = Table(date(2025, 1, 2))
    found = committed_state(
        {**STATE, "committed_end": None, "source": "ledger"}, table.latest_from, no_ledger_read, DAY
    )
    assert (found.latest, table.reads) == (date(2025, 1, 2), [None])


@pytest.mark.parametrize(
    "start, end, cap, expected",
    [
        (date(2025, 1, 1), date(2025, 4, 30), 31, (date(2025, 1, 31), 89)),
        (date(2025, 1, 1), date(2025, 1, 31), 31, (date(2025, 1, 31), 0)),
        (date(2025, 1, 1), date(2025, 2, 1), 31, (date(2025, 1, 31), 1)),
        (date(2025, 1, 1), date(2025, 4, 30), None, (date(2025, 4, 30), 0)),
        (None, date(2025, 4, 30), 31, (date(2025, 4, 30), 0)),  # no lower bound: nothing to count from
        (date(2025, 5, 1), date(2025, 4, 30), 1, (date(2025, 4, 30), 0)),  # an empty window stays empty
        (datetime(2025, 1, 1, 0), datetime(2025, 1, 2, 0), 6, (datetime(2025, 1, 1, 5), 19)),
    ],
)
def test_max_window_units_caps_the_end(start, end, cap, expected):
    unit = HOUR if isinstance(start, datetime) else DAY
    empty = start is not None and start > end
    capped = render("_cap_window", start, end, empty, cap, unit.value)  # the rule both languages render
    assert (capped["end"], capped["units_behind"]) == expected
    if expected[1]:
        plural = "s" if expected[1] != 1 else ""
        behind = f"{expected[1]} {unit.value}{plural} behind {end}"
        assert capped["reason"] == f"max_window_units={cap}: caught up to {expected[0]}, {behind}"


@pytest.mark.parametrize("value", [0, -3, True, 2.0, "31"])
def test_max_window_units_must_be_a_positive_whole_number(value):
    message = r"^inc_join: max_window_units must be a positive whole number of time_uom units"
    with pytest.raises(ValueError, match=message):
        check_max_window_units(value)
