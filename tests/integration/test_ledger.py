"""The run ledger (spec §13, issue 14): models with the post-hook record_run write one row per committed run;
their next run starts after the last committed window, so a run killed anywhere (inside the renames of its
commit, before its record, a first run, a full refresh) is completed by the next plain `dbt run`; and
max_window_units moves a long first run forward in committed chunks.

The faults run in processes of their own (tests/integration/ledger_driver.py) whose Spark uses
tests/integration/faults/HaltingFileSystem.java as its local file system: it halts the JVM between two
partition moves of a commit, the one moment a polling SIGKILL cannot hit reliably."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from dbt_inc_join import inc_join, inc_join_many

from .ledger_driver import HALTED_MARKER
from .pipeline import DAYS, LAST_DAY, SETTINGS, rows

pytestmark = pytest.mark.dbt

REPO = Path(__file__).resolve().parents[2]
LEDGER = "inc_join_it.dbt_inc_join_runs"
LONG_FIRST_DAY = date(2025, 1, 1)
LONG_DAYS = 8  # the days of the long models (every JoinType of how = full appears by then)
LONG_FIRST_RUN = 7  # their first run is on day 7 (a first run over the days loaded by then), then a daily run
LONG_RUNS = LONG_DAYS - LONG_FIRST_RUN + 1


def ledger_rows(ledger_df, relation: str):
    """The committed runs of one table of `relation` (the newest table_id), oldest first."""
    runs = ledger_df.where(f"relation = '{relation}'").orderBy("finished_at").collect()
    assert runs, f"no run of {relation} in the ledger"
    table_id = runs[-1].table_id
    return [r for r in runs if r.table_id == table_id]


def assert_ledger_agrees(table_df, runs, first_day, last_day, arrival="RecDate", join_type=True):
    """The committed windows of the table tile [first_day, last_day] with no gap and no overlap, and each run's
    recorded rows (per JoinType too; NULL for a table without one JoinType column) are the table's rows in its
    window."""
    windows = [(r.window_start.date(), r.window_end.date(), r) for r in runs if not r.empty]
    assert windows[0][0] == first_day and windows[-1][1] == last_day, [w[:2] for w in windows]
    for (_, end, _), (start, _, _) in zip(windows, windows[1:], strict=False):
        assert start == end + timedelta(days=1), [w[:2] for w in windows]
    # the table's rows counted per arrival (and JoinType) in one Spark job; each window adds up the arrivals inside
    # it (a NULL arrival is in no window, as in SQL's BETWEEN)
    grouped = [arrival, "JoinType"] if join_type else [arrival]
    counted = [tuple(r) for r in table_df.groupBy(*grouped).count().collect()]
    for start, end, run in windows:
        inside = [c for c in counted if c[0] is not None and start <= c[0] <= end]
        if not join_type:
            assert (run.rows_total, run.join_type_rows) == (sum(c[-1] for c in inside), None), (start, end)
            continue
        per_type: dict = {}
        for _, code, n in inside:
            per_type[code] = per_type.get(code, 0) + n
        assert run.rows_total == sum(per_type.values()) and dict(run.join_type_rows) == per_type, (start, end)
    assert sum(run.rows_total for _, _, run in windows) == sum(c[-1] for c in counted)


def committed_property(spark, model: str) -> dict:
    """The table property in which the post-hook mirrors the table's last committed record."""
    found = {r.key: r.value for r in spark.sql(f"SHOW TBLPROPERTIES inc_join_it.{model}").collect()}
    return json.loads(found["inc_join.committed"])


def assert_monitoring_agrees(spark, project, models, last_day, runs_each):
    """The package's monitoring views, built on the ledger: each model caught up with its watermark, its runs
    counted, and its rows per JoinType adding up to its table."""
    project.invoke("run", "--select", "package:dbt_inc_join", "--quiet")
    status = {r.relation: r for r in spark.table("inc_join_it.dbt_inc_join_model_status").collect()}
    per_join_type = spark.table("inc_join_it.dbt_inc_join_run_join_types").groupBy("relation").sum("join_type_rows")
    counted = {r[0]: r[1] for r in per_join_type.collect()}
    durations = spark.table("inc_join_it.dbt_inc_join_run_durations")
    for model in models:
        relation, rows_in_table = f"inc_join_it.{model}", project.table(model).count()
        row = status[relation]
        assert (row.committed_end.date(), row.units_behind_watermark) == (last_day, 0), model
        assert (row.committed_runs, row.rows_total, counted[relation]) == (runs_each, rows_in_table, rows_in_table)
        timed = durations.where(f"relation = '{relation}'")
        assert timed.count() >= runs_each and timed.where("duration_seconds > 0").count() == timed.count()


def long_reference(spark, how, **options):
    """The core over the whole period of the long inputs as the last run saw them (from their first arrival:
    for how = full B's rows from before A's first day too)."""
    a, b = spark.table("inc_join_it.long_a"), spark.table("inc_join_it.long_b")
    return inc_join(a, b, how=how, output_window_start=None, **SETTINGS, **options)


def first_arrival(spark, how) -> date:
    """Where a first run over the long inputs starts: A's earliest arrival, or A's and B's for how = full."""
    sides = ["long_a", "long_b"] if how == "full" else ["long_a"]
    return min(spark.table(f"inc_join_it.{side}").agg({"RecDate": "min"}).first()[0] for side in sides)


LONG_MODELS = {
    "long_left": ("left", {}),
    "long_full": ("full", {}),
    "long_inner": ("inner", {"late_match_time": 3}),
    "long_left_py": ("left", {}),
}


def test_daily_runs_with_four_threads_ledger_and_tables_agree(spark, project):
    """Four models (SQL and Python, left/full/inner with late matches) and a model of several inputs, run first on
    day 7 and then on day 8 with threads = 4, so their post-hooks write the ledger at the same time:
    every run is recorded once, the windows of each table tile the period, and each table equals the core over
    the period."""
    days = [LONG_FIRST_DAY + timedelta(days=i) for i in range(LONG_FIRST_RUN - 1, LONG_DAYS)]
    for day in days:
        project.invoke("run", "--select", "+tag:long", "dbt_inc_join_runs", "--threads", "4", "--quiet", today=day)
    ledger = spark.table(LEDGER)
    for model, (how, options) in LONG_MODELS.items():
        table = project.table(model)
        expected = long_reference(spark, how, **options)
        assert rows(table, sorted(table.columns)) == rows(expected, sorted(table.columns)), model
        runs = ledger_rows(ledger, f"inc_join_it.{model}")
        assert len(runs) == LONG_RUNS and len({r.run_key for r in runs}) == LONG_RUNS, model
        assert_ledger_agrees(table, runs, first_arrival(spark, how), days[-1])
        assert committed_property(spark, model) == {
            "window_start": str(runs[-1].window_start),
            "window_end": str(runs[-1].window_end),
            "rows_total": runs[-1].rows_total,
            "run_key": runs[-1].run_key,
        }, model
    codes = {r.JoinType for r in project.table("long_full").select("JoinType").distinct().collect()}
    assert codes == {1, 2, 3, 4, 6}
    # spec §15: every record names its run's plan; a SQL model and its Python twin choose alike, run by run
    plans = {model: [r.plan for r in ledger_rows(ledger, f"inc_join_it.{model}")] for model in LONG_MODELS}
    assert plans["long_left"] == plans["long_left_py"]
    # the first run decides on its own read range; each daily run's B read range is one join window (spec §15)
    assert plans["long_left"][0].startswith("plain (auto: ")
    daily = "plain (auto: B's read range of 7 days is at most 2 join windows of 7 days)"
    assert plans["long_left"][1:] == [daily] * (LONG_RUNS - 1)
    assert set(plans["long_inner"]) == {"plain (late matches use the plain plan)"}
    assert_monitoring_agrees(spark, project, LONG_MODELS, days[-1], runs_each=LONG_RUNS)

    # a model of several inputs (spec §12) records its runs too: one per day, tiling the period, the table equal
    # to the core's one run over it
    many = project.table("long_many")
    long_b = spark.table("inc_join_it.long_b")
    expected = inc_join_many(
        spark.table("inc_join_it.long_a"),
        [
            dict(df=long_b, name="first_b", join_cols="TrxId", look_back_time=2, max_waiting_time=4),
            dict(df=long_b, name="all_b", join_cols="TrxId", look_back_time=1, max_waiting_time=6,
                 aggregate={"n_b": "count(*)", "kinds": "sort_array(collect_list(kind))"}),
        ],
    )  # fmt: skip
    assert rows(many, sorted(many.columns)) == rows(expected, sorted(many.columns))
    runs = ledger_rows(ledger, "inc_join_it.long_many")
    assert len(runs) == LONG_RUNS and len({r.run_key for r in runs}) == LONG_RUNS
    # each input's plan, run by run (spec §15), by the length of its read range: A is read from max mw = 6
    # days back; first_b then from lb = 2 more (join window 2 + 4 + 1), all_b from 1 more (1 + 6 + 1). The first
    # run covers days 1-7: first_b's 15 days are more than 2 join windows, so it samples the A rows before the last
    # 7 days of its range, and finds none (A starts on day 1)
    within = "B's read range of {} days is at most 2 join windows of {} days"
    first_b, all_b = "first_b plain (auto: " + within + "); ", "all_b plain (auto: " + within + ")"
    sampled = "first_b plain (auto: no A rows with keys to sample before the last 7 days of B's read range); "
    assert runs[0].plan == sampled + all_b.format(14, 8)
    daily = first_b.format(9, 7) + all_b.format(8, 8)
    assert [r.plan for r in runs[1:]] == [daily] * (LONG_RUNS - 1)
    assert_ledger_agrees(many, runs, first_arrival(spark, "left"), days[-1], join_type=False)
    assert committed_property(spark, "long_many")["window_end"] == str(runs[-1].window_end)
    assert {r.JoinType_first_b for r in many.select("JoinType_first_b").distinct().collect()} == {1, 2, 3, 4}

    # a run killed after its record, before the table property: the property is one record behind the ledger;
    # the next run finds the table's rows after the property's window, reads the ledger and goes on after it
    for model in ["long_left", "long_left_py"]:
        runs = ledger_rows(ledger, f"inc_join_it.{model}")
        behind = {
            "window_start": str(runs[-2].window_start),
            "window_end": str(runs[-2].window_end),
            "rows_total": runs[-2].rows_total,
            "run_key": runs[-2].run_key,
        }
        spark.sql(f"ALTER TABLE inc_join_it.{model} SET TBLPROPERTIES ('inc_join.committed' = '{json.dumps(behind)}')")
    next_day = days[-1] + timedelta(days=1)
    project.invoke("run", "--select", "+long_left", "+long_left_py", "--quiet", today=next_day)
    for model in ["long_left", "long_left_py"]:
        runs = ledger_rows(spark.table(LEDGER), f"inc_join_it.{model}")
        assert (runs[-1].window_start.date(), runs[-1].window_end.date()) == (next_day, next_day), model
        assert "ends " + str(days[-1]) in runs[-1].start_reason and "doing it again" not in runs[-1].start_reason
        assert committed_property(spark, model)["window_end"] == str(runs[-1].window_end)
        table = project.table(model)
        expected = long_reference(spark, "left")
        assert rows(table, sorted(table.columns)) == rows(expected, sorted(table.columns)), model


def test_each_batch_of_a_microbatch_run_is_recorded(spark, project):
    """spec §13: dbt runs a microbatch model's post-hooks after its last batch only; the batches before it are
    recorded all the same (the batch's writer adds record_run to its own hooks). A run of three batches leaves
    three records that tile them, each with its batch's rows, and each table (SQL and Python models) equals the
    core over those days."""
    first, days = LONG_FIRST_DAY, 3
    project.invoke("run", "--select", "+tag:long_microbatch", "dbt_inc_join_runs", "--event-time-start", str(first),
                   "--event-time-end", str(first + timedelta(days=days)), "--quiet",
                   today=first + timedelta(days=LONG_DAYS - 1))  # fmt: skip
    batches = [first + timedelta(days=i) for i in range(days)]
    expected = long_reference(spark, "left").where(f"RecDate <= DATE'{batches[-1]}'")
    for model in ("long_microbatch", "long_microbatch_py"):
        runs = ledger_rows(spark.table(LEDGER), f"inc_join_it.{model}")
        assert [(r.window_start.date(), r.window_end.date()) for r in runs] == [(d, d) for d in batches], model
        table = project.table(model)
        assert_ledger_agrees(table, runs, first, batches[-1])
        assert rows(table, sorted(table.columns)) == rows(expected, sorted(table.columns)), model


def test_a_run_after_empty_first_runs_says_so_and_starts_from_the_beginning(spark, project):
    """A first run whose window is empty (its inputs not loaded that far: here the watermark declared before
    them) commits an empty record; the next run starts from the beginning and says why: no committed window,
    every run so far empty (not a killed first run). Its table equals the core, SQL and Python models alike."""
    models = ("long_left", "long_left_py")
    today = LONG_FIRST_DAY + timedelta(days=LONG_FIRST_RUN - 1)
    before = {"inc_join_available_until": str(LONG_FIRST_DAY - timedelta(days=5))}
    project.invoke("run", "--select", *[f"+{m}" for m in models], "--full-refresh", "--quiet", today=today,
                   vars=before)  # fmt: skip
    project.invoke("run", "--select", *models, "--quiet", today=today)
    expected = long_reference(spark, "left").where(f"RecDate <= DATE'{today}'")
    for model in models:
        first, second = ledger_rows(spark.table(LEDGER), f"inc_join_it.{model}")
        assert first.empty and not second.empty, model
        assert second.start_reason.startswith(
            f"no committed run of this table with a window in {LEDGER} (table_id {second.table_id}): every "
            "committed run of it had an empty window"
        ), second.start_reason
        table = project.table(model)
        assert rows(table, sorted(table.columns)) == rows(expected, sorted(table.columns)), model


def test_a_microbatch_batch_after_the_watermark_warns_with_the_command_that_writes_it(spark, project):
    """spec §6: a batch is capped at the availability watermark. A batch run before its inputs are loaded writes
    nothing, and dbt's later runs cover it again only within their lookback: the batch warns, naming the command
    that writes it. Run once the inputs are there, that command fills it: the records tile the days and each
    table (SQL and Python models) equals the core."""
    models = ("long_microbatch", "long_microbatch_py")
    days = [LONG_FIRST_DAY + timedelta(days=i) for i in range(6)]
    warnings: list[str] = []

    def kept(event) -> None:
        if event.info.name == "JinjaLogWarning":
            warnings.append(event.data.msg)

    flags = ["--event-time-start", str(days[0]), "--event-time-end", str(days[5])]
    project.invoke("run", "--select", "+tag:long_microbatch", "dbt_inc_join_runs", "--full-refresh", *flags, "--quiet",
                   today=days[3], callbacks=[kept])  # fmt: skip
    batch = f"{days[4]} --event-time-end {days[5]}"
    for model in models:
        (said,) = [text for text in warnings if text.startswith(f"inc_join inc_join_it.{model}: ")]
        assert said.startswith(
            f"inc_join inc_join_it.{model}: microbatch batch {days[4]}..{days[4]} wrote nothing ("
        ), said
        assert said.endswith(f"else `dbt run --select {model} --event-time-start {batch}`."), said
    assert len(warnings) == len(models), warnings  # the batches before the watermark say nothing
    warnings.clear()
    # the command, with the inputs' views of the new day (the test's stand-in for their load)
    project.invoke("run", "--select", "+tag:long_microbatch", "--event-time-start", str(days[4]), "--event-time-end",
                   str(days[5]), "--quiet", today=days[4], callbacks=[kept])  # fmt: skip
    assert warnings == []
    expected = long_reference(spark, "left").where(f"RecDate <= DATE'{days[4]}'")
    for model in models:
        runs = [r for r in ledger_rows(spark.table(LEDGER), f"inc_join_it.{model}") if not r.empty]
        assert [(r.window_start.date(), r.window_end.date()) for r in runs] == [(d, d) for d in days[:5]], model
        table = project.table(model)
        assert rows(table, sorted(table.columns)) == rows(expected, sorted(table.columns)), model


@pytest.mark.parametrize("model", [pytest.param("long_chunked", marks=pytest.mark.matrix), "long_chunked_py"])
def test_a_chunked_first_run_equals_the_one_shot_table(spark, project, model):
    """123 days of history (how = full: B's rows from 3 days before A's first) with max_window_units = 31: four
    plain runs of 31, 31, 31 and 30 days, each logging how far it is behind, then nothing left; the table
    equals the core over the whole history in one go."""
    today = LONG_FIRST_DAY + timedelta(days=119)
    for _ in range(5):
        project.invoke("run", "--select", f"+{model}", "--quiet", today=today, vars={"inc_join_max_window_units": 31})
    runs = ledger_rows(spark.table(LEDGER), f"inc_join_it.{model}")
    chunks = [(r.window_start.date(), r.window_end.date(), r.units_behind) for r in runs if not r.empty]
    first = first_arrival(spark, "full")  # B's partners arrive up to 3 days before their A rows
    starts = [first + timedelta(days=d) for d in (0, 31, 62, 93)]
    left = [(today - (s + timedelta(days=30))).days for s in starts[:3]]
    assert chunks == [(s, s + timedelta(days=30), behind) for s, behind in zip(starts[:3], left, strict=True)] + [
        (starts[3], today, 0)
    ]
    assert f"max_window_units=31: caught up to {starts[1] - timedelta(days=1)}, {left[0]} days behind {today}" in (
        runs[0].end_reason
    )
    assert len(runs) == 5 and runs[-1].empty  # the fifth run finds nothing to do
    table = project.table(model)
    expected = long_reference(spark, "full")
    assert rows(table, sorted(table.columns)) == rows(expected, sorted(table.columns))


def ledger_driver(classes: Path, state: Path, *steps: str, conf: str = "") -> subprocess.CompletedProcess:
    """Run ledger_driver.py's steps in a process of its own on `state`, HaltingFileSystem its local file system;
    conf: more --conf options of its Spark."""
    env = {
        **os.environ,
        "INC_JOIN_STATE_DIR": str(state),
        "INC_JOIN_HALT_RULE": str(state / "halt-rule"),
        "PYSPARK_SUBMIT_ARGS": f"--driver-class-path {classes} "
        "--conf spark.hadoop.fs.file.impl=incjoin.faults.HaltingFileSystem "
        f"--conf spark.hadoop.fs.file.impl.disable.cache=true {conf} pyspark-shell",
    }
    (state / "halt-rule").unlink(missing_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "tests.integration.ledger_driver", str(state), *steps],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        start_new_session=True,
    )


class KillChain:
    """A fault test's kill moments in order, each the end of one driver process (the JVM halted). A moment this run's
    draw leaves out (the `kill_points` fixture) starts no process: the plain steps queued before it run in the next
    process instead, so every moment's state is reached the same way whichever moments are killed."""

    def __init__(self, drive, taken: set[str]) -> None:
        self.drive, self.taken, self.pending = drive, taken, []

    def plain(self, *steps: str) -> None:
        self.pending += steps

    def kill(self, moment: str, halt: str, step: str) -> subprocess.CompletedProcess | None:
        """The process of the queued steps, then `step` with the fault armed; None when the draw left it out."""
        if moment not in self.taken:
            return None
        result, self.pending = self.drive(*self.pending, halt, step), []
        return result

    def finish(self) -> subprocess.CompletedProcess:
        result, self.pending = self.drive(*self.pending), []
        return result


@pytest.mark.fault
def test_a_run_killed_anywhere_is_completed_by_the_next_plain_run(
    spark, project, halting_file_system, tmp_path, kill_points
):
    """ledger_left (gen_left's join, with the post-hook) on a state of its own. A process ends with its JVM halted at
    one point of a run's write; the next process starts with a plain `dbt run` of the same day. The moments:

    1. a first run over 3 days, halted after it moved 1 of its 3 partitions;
    2. a catch-up run over 3 days, halted after 1 of its 3 partitions;
    3. the run that completes the catch-up, halted while it writes its open state (table and record committed);
    4. a daily run, halted while its ledger record is being moved into place (the table is written);
    5. a full refresh, halted after 1 of its partitions (the old table is gone, the ledger still has its runs).
    After the last plain run the table equals the core over the period and the ledger agrees with it."""
    a = spark.table("inc_join_it.gen_a")  # seeded by the project fixture, as the driver seeds its own
    b = spark.table("inc_join_it.gen_b").where(f"RecDate <= DATE'{LAST_DAY}'")
    expected = inc_join(a, b, how="left", output_window_start=DAYS[0], **SETTINGS)
    reference = rows(expected, sorted(expected.columns))
    warehouse = tmp_path / "warehouse" / "inc_join_it.db"
    chain = KillChain(
        lambda *steps: ledger_driver(halting_file_system, tmp_path, *steps),
        kill_points(["first run", "catch-up", "state", "record", "full refresh"]),
    )

    def table():
        df = spark.read.parquet(str(warehouse / "ledger_left"))  # what the files say; staging dirs are hidden
        return df, rows(df, sorted(df.columns))

    def ledger():
        return spark.read.parquet(str(warehouse / "dbt_inc_join_runs"))

    def partitions():
        return sorted(p.name for p in (warehouse / "ledger_left").iterdir() if p.name.startswith("RecDate="))

    def halted(result, step, what="moving"):
        assert result.returncode == 137, result.stdout[-3000:] + result.stderr[-3000:]
        assert HALTED_MARKER + step in result.stdout and f"HaltingFileSystem: halt before {what}" in result.stdout

    arrival = sorted(expected.columns).index("RecDate")

    def reference_until(day):
        return [r for r in reference if r[arrival] <= day]

    d = [str(day) for day in DAYS]
    # 1. the first run, killed inside its commit: a table exists (created before it was written) with one partition
    if result := chain.kill("first run", "halt:ledger_left:1", f"run:{d[2]}"):
        halted(result, f"run:{d[2]}")
        assert len(partitions()) == 1
        assert not any((warehouse / "dbt_inc_join_runs").glob("*/run_key=*"))  # no run recorded

    # 2. the plain run completes it; a catch-up over days 4-6 is killed after its first partition
    chain.plain(f"run:{d[2]}")
    if result := chain.kill("catch-up", "halt:ledger_left:1", f"run:{d[5]}"):
        halted(result, f"run:{d[5]}")
        [first] = ledger_rows(ledger(), "inc_join_it.ledger_left")
        # a killed first run left a table without a run; an unkilled one started a table of its own
        assert ("no committed run of this table" in first.start_reason) == ("first run" in chain.taken)
        assert (first.window_start.date(), first.window_end.date()) == (DAYS[0], DAYS[2])
        moved = [p for p in partitions() if p > f"RecDate={d[2]}"]
        assert len(moved) == 1, partitions()  # one of days 4-6 moved, two not

    # 3. the plain run completes days 4-6 and, with its output and record committed, is killed while it writes its
    # open state (spec §18): the state's tag stays the one before, so the next run cannot read this state
    if result := chain.kill("state", "halt:ledger_left__inc_join_open:data:0", f"run:{d[5]}"):
        halted(result, f"run:{d[5]}", "creating")
        df, _ = table()
        assert rows(df.where(f"RecDate <= DATE'{d[5]}'"), sorted(df.columns)) == reference_until(DAYS[5])
    else:
        chain.plain(f"run:{d[5]}")
    # 4. day 7's write commits, its ledger record is killed
    if result := chain.kill("record", "halt:dbt_inc_join_runs:0", f"run:{d[6]}"):
        halted(result, f"run:{d[6]}")
        df, _ = table()
        assert rows(df.where(f"RecDate <= DATE'{d[6]}'"), sorted(df.columns)) == reference_until(DAYS[6])
        runs = ledger_rows(ledger(), "inc_join_it.ledger_left")
        # a partition moved by a killed catch-up is on disk but not in the catalog (Spark adds partitions after the
        # moves), so the table's latest arrival agreed with the ledger; the window was done again all the same
        assert [(r.window_start.date(), r.window_end.date()) for r in runs] == [(DAYS[0], DAYS[2]), (DAYS[3], DAYS[5])]

    unrecorded = "written by a run that did not record its commit"
    # 5. the plain run does day 7 (again, after 4.) and records it; a full refresh on day 8 is killed after one
    # partition
    chain.plain(f"run:{d[6]}")
    if result := chain.kill("full refresh", "halt:ledger_left:1", f"full:{d[7]}"):
        halted(result, f"full:{d[7]}")
        runs = ledger_rows(ledger(), "inc_join_it.ledger_left")
        assert [r.window_end.date() for r in runs] == [DAYS[2], DAYS[5], DAYS[6]]
        assert (unrecorded in runs[2].start_reason) == ("record" in chain.taken), runs[2].start_reason
        assert len(partitions()) == 1  # the new table, created before its rows

    # the next plain run: after a killed full refresh it builds the new table from the beginning
    chain.plain(f"run:{d[7]}")
    result = chain.finish()
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    df, final = table()
    assert final == reference
    runs = ledger_rows(ledger(), "inc_join_it.ledger_left")
    if "full refresh" in chain.taken:
        assert len(runs) == 1 and "no committed run of this table" in runs[0].start_reason
    else:
        assert (unrecorded in runs[2].start_reason) == ("record" in chain.taken), runs[2].start_reason
    assert_ledger_agrees(df, runs, DAYS[0], LAST_DAY)


@pytest.mark.fault
def test_a_redo_killed_anywhere_is_completed_by_the_next_plain_run(
    spark, project, halting_file_system, tmp_path, kill_points
):
    """ledger_left run daily for five days, then redone from day 2 (var inc_join_redo_from, spec §14) and killed:
    before its first partition moved (its old partitions from day 2 on already dropped), or after one. Each time
    the next plain `dbt run` of the same day starts at day 2 again (the table remembers the redo until it records
    its run) and the table equals the core over the period."""
    a = spark.table("inc_join_it.gen_a")
    b = spark.table("inc_join_it.gen_b").where(f"RecDate <= DATE'{DAYS[4]}'")
    expected = inc_join(a.where(f"RecDate <= DATE'{DAYS[4]}'"), b, how="left", output_window_start=DAYS[0],
                        output_window_end=DAYS[4], **SETTINGS)  # fmt: skip
    reference = rows(expected, sorted(expected.columns))
    warehouse = tmp_path / "warehouse" / "inc_join_it.db"
    d = [str(day) for day in DAYS]
    chain = KillChain(
        lambda *steps: ledger_driver(halting_file_system, tmp_path, *steps),
        kill_points(["before its first partition", "after one partition"]),
    )

    def table_rows():
        df = spark.read.parquet(str(warehouse / "ledger_left"))
        return rows(df, sorted(df.columns))

    def completed_redo():
        last = ledger_rows(ledger_df(spark, warehouse), "inc_join_it.ledger_left")[-1]
        assert (last.window_start.date(), last.window_end.date()) == (DAYS[1], DAYS[4])
        assert f"a redo from {DAYS[1]} did not finish: doing it again" in last.start_reason, last.start_reason
        assert last.redo_from.date() == DAYS[1]

    chain.plain(*(f"run:{day}" for day in d[:5]))
    if result := chain.kill("before its first partition", "halt:ledger_left:0", f"redo:{d[4]}:{d[1]}"):
        assert result.returncode == 137, result.stdout[-3000:] + result.stderr[-3000:]
        assert table_rows() != reference  # the redo dropped the partitions from day 2 on and was killed
        chain.plain(f"run:{d[4]}")  # the plain run completes the redo
    if result := chain.kill("after one partition", "halt:ledger_left:1", f"redo:{d[4]}:{d[1]}"):
        assert result.returncode == 137, result.stdout[-3000:] + result.stderr[-3000:]
        if "before its first partition" in chain.taken:
            completed_redo()  # the plain run's record; the killed redo recorded nothing
        assert table_rows() != reference
    if not chain.pending:  # the plain run that completes the last killed redo
        chain.plain(f"run:{d[4]}")
    result = chain.finish()
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert table_rows() == reference
    completed_redo()


def ledger_df(spark, warehouse: Path):
    return spark.read.parquet(str(warehouse / "dbt_inc_join_runs"))
