"""Faults (issue 6): a dbt run killed with SIGKILL in the middle of its write, then run again, leaves the
table equal to the reference; a B row arriving after its A timed out is counted, never re-emitted as a match.
(Re-running a past day or the same day is in test_dbt_pipeline.py; the watermark cap in test_spec_pipeline.py.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from .fault_driver import KILLED_MARKER, MODEL
from .pipeline import DAYS, LAST_DAY, SETTINGS, ordered, rows

pytestmark = pytest.mark.dbt

REPO = Path(__file__).resolve().parents[2]


def fault_driver(state: Path, mode: str, *days) -> subprocess.CompletedProcess:
    """Run the driver in its own process, with its own Spark state and dbt target/log directories."""
    env = {
        **os.environ,
        "INC_JOIN_STATE_DIR": str(state),
        "DBT_TARGET_PATH": str(state / "target"),
        "DBT_LOG_PATH": str(state / "logs"),
    }
    return subprocess.run(
        [sys.executable, "-m", "tests.integration.fault_driver", str(state), mode, *map(str, days)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        start_new_session=True,
    )


def table_rows(spark, state: Path):
    """The table as its files on disk say (Spark skips uncommitted `_`/`.` staging directories)."""
    table = spark.read.parquet(str(state / "warehouse" / "inc_join_it.db" / MODEL))
    return rows(table, ordered(table.columns))


@pytest.mark.fault
def test_a_daily_run_killed_during_its_write_then_rerun_equals_the_reference(spark, daily, tmp_path):
    """SIGKILL (Python and its JVM) while Spark writes a daily run's partitions: the killed write is invisible,
    and the next run completes the table: the same rows as the pipeline that was never killed, nothing lost,
    nothing twice. (A killed first run is a documented limit of Spark's managed tables: README, Guarantees.)"""
    reference = daily[MODEL]
    arrival = ordered(spark.table(f"inc_join_it.{MODEL}").columns).index("RecDate")
    killed = fault_driver(tmp_path, "kill", DAYS[0], DAYS[1])  # day 1 creates the table, day 2 dies mid-write
    assert killed.returncode == -signal.SIGKILL, killed.stdout[-3000:] + killed.stderr[-3000:]
    assert KILLED_MARKER in killed.stdout
    assert table_rows(spark, tmp_path) == [r for r in reference if r[arrival] < DAYS[1]]

    rerun = fault_driver(tmp_path, "run", DAYS[1], LAST_DAY)
    assert rerun.returncode == 0, rerun.stdout[-3000:] + rerun.stderr[-3000:]
    assert table_rows(spark, tmp_path) == reference
    # That process's Spark was started by dbt-spark from integration_tests/profiles.yml with Spark's own logging
    # (warnings on the console), as in a user's `dbt run`: none of its statements met a differing setting.
    assert "Using an existing Spark session" not in rerun.stdout + rerun.stderr, rerun.stderr[-3000:]


@pytest.fixture(scope="module")
def late_b(spark, daily):
    """(TrxId, a_day, b_day) of the B rows in the integration data that arrive more than max_waiting_time after
    an A row with the same key which has no partner in time: that A row times out before its B comes."""
    mw, lb = SETTINGS["max_waiting_time"], SETTINGS["look_back_time"]
    a = spark.table("inc_join_it.gen_a").where(f"RecDate <= DATE'{LAST_DAY}' AND TrxId IS NOT NULL")
    b = spark.table("inc_join_it.gen_b").where(f"RecDate <= DATE'{LAST_DAY}' AND TrxId IS NOT NULL")
    pairs = [
        (r.TrxId, r.a_day, r.b_day)
        for r in a.alias("a")
        .join(b.alias("b"), "TrxId")
        .selectExpr("TrxId", "a.RecDate AS a_day", "b.RecDate AS b_day")
        .collect()
    ]
    in_time = {(k, a_day) for k, a_day, b_day in pairs if -lb <= (b_day - a_day).days <= mw}
    late = [
        (k, a_day, b_day)
        for k, a_day, b_day in pairs
        if (b_day - a_day).days > mw and (k, a_day) not in in_time and a_day + timedelta(days=mw) <= LAST_DAY
    ]
    assert len(late) >= 5
    return late


@pytest.mark.parametrize("how", ["left", "full"])
def test_a_b_row_after_its_a_timed_out_is_never_a_match(project, late_b, how):
    """The A row is emitted once, timed out, on a + max_waiting_time; the late B never makes it a match. With
    how = full the late B becomes b_timed_out on b + look_back_time, and not before: in these data that is
    after the last simulated day, so it is not in the table yet."""
    table = project.table(f"gen_{how}")
    lb = SETTINGS["look_back_time"]
    for key, a_day, b_day in late_b:
        emitted = table.where(f"TrxId = {key} AND RecDate_A = DATE'{a_day}'").select("JoinType").collect()
        assert [e.JoinType for e in emitted] == [4], (key, a_day, b_day)
        late = table.where(f"TrxId = {key} AND RecDate_B = DATE'{b_day}'").select("JoinType", "RecDate").collect()
        if how == "left" or b_day + timedelta(days=lb) > LAST_DAY:
            assert late == [], (key, a_day, b_day)
        else:
            assert [tuple(e) for e in late] == [(6, b_day + timedelta(days=lb))]


def test_the_distribution_test_counts_the_timed_out_a_rows(spark, project, late_b):
    """gen_full_timed_out_per_day (join_type_distribution, store_failures) reports, for every day, as many
    a_timed_out and b_timed_out rows as the table holds, the A rows whose B came too late among them."""
    result = project.invoke("test", "--select", "gen_full_timed_out_per_day", expect_success=False)
    assert [str(r.status) for r in result.result.results] == ["fail"]
    stored = spark.table("inc_join_it_dbt_test__audit.gen_full_timed_out_per_day").collect()
    reported = {(str(r.period)[:10], r.join_type): r.join_type_rows for r in stored}
    counted = {
        (str(r.day), r.JoinType): r.n
        for r in project.table("gen_full")
        .where("JoinType IN (4, 6)")
        .groupBy("RecDate", "JoinType")
        .count()
        .selectExpr("RecDate AS day", "JoinType", "count AS n")
        .collect()
    }
    assert reported == counted and {code for _, code in reported} == {4, 6}
    mw = SETTINGS["max_waiting_time"]
    for key, a_day, _ in late_b:
        assert reported[(str(a_day + timedelta(days=mw)), 4)] >= 1, key
