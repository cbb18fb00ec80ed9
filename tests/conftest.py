"""One local SparkSession for the whole test run (start-up is the expensive part).

The engine matrix of `make test` (see the Makefile) is chosen with environment variables:

- ``INC_JOIN_ANSI`` = ``true`` / ``false``: ``spark.sql.ansi.enabled`` for the core tests (set on the session)
  and for every statement dbt runs (SQL models and Python models). Unset: each product's own default (Spark 4:
  true, Spark 3.5: false; dbt-spark 1.11 forces false for dbt).
- ``INC_JOIN_EXPECT_SPARK`` = e.g. ``3.5``: the run fails unless the installed pyspark is that version, so a
  run meant for one Spark cannot silently use another.
- ``INC_JOIN_CODEGEN`` = ``interpreted``: Spark evaluates without compiling code in the sessions the harness
  starts (harness/local_spark.py), which the test's dbt invocations share; unset, it compiles.

A skipped test fails the run: nothing that did not run counts as passing.
"""

from __future__ import annotations

import os
import random
import subprocess
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")

# The property tests' example count: `fast` (8) in `make test`'s Spark 4 core leg and `make test-core`, `engine` (4)
# in its Spark 3.5 leg, `inc_join` (16, the default: a plain `pytest`, `make test-matrix`). The properties check
# engine-independent logic against the oracle; the smaller profiles run the pairwise (mode, how) pairs of
# test_properties' one-row matrix, 16 runs every pair; on the second engine a few examples each run the drawn
# statements there against the same oracle.
settings.register_profile("inc_join", max_examples=16)
settings.register_profile("fast", max_examples=8)
settings.register_profile("engine", max_examples=4)
settings.load_profile("inc_join")


# `make test-fast` (pytest --no-spark): the tests that need no Spark job and no dbt invocation. A test needs Spark
# when the fixture `spark` is in its fixture closure (directly, or through `project`, `inputs`, ...); a test that
# invokes dbt carries the marker `dbt` (the integration tests, and the renders of tests/core/test_renders_as_dbt.py and
# test_changed_files.py by one `dbt run-operation` without Spark). The Spark session is a fixture, started lazily:
# the tests left run without a JVM and without dbt's runner, and the run fails if either was started anyway (such a
# test needs the marker or the fixture).
NO_SPARK = "--no-spark"


def pytest_addoption(parser):
    parser.addoption(
        NO_SPARK,
        action="store_true",
        help="inc_join: deselect the tests that use the Spark session or invoke dbt (`make test-fast`)",
    )


# The axes of `make test` are chosen pairwise: a leg's environment names its engine (the installed pyspark),
# ANSI mode and table format (INC_JOIN_TABLE_FORMAT). A test whose subject does not depend on an axis carries that
# axis's marker and runs on one of its values; `make test-matrix` (INC_JOIN_MATRIX=1) runs every test on every value.
#   one_engine          engine-independent logic: not on the second engine (Spark 3.5)
#   parquet_only        a pipeline test whose subject is not the table format: not in the format legs
#   one_format(name)    the same SQL on either format: in the parquet legs and that format's legs only
#   matrix              a combination of a test's parameters beyond the pairwise ones: `make test-matrix` only
#   matrix(format, ...) the same, in those formats' legs only (a test whose other format's run has its steps)
#   release             a set-up recipe run end to end, whose parts other tests run: `make test-matrix` only
#   format_feature(name) a feature of one table format (Iceberg's partition transforms): that format's legs only,
#                       in `make test-matrix` too
MATRIX = "INC_JOIN_MATRIX"


def whole_matrix() -> bool:
    """Every test on every axis value (`make test-matrix`)."""
    return os.environ.get(MATRIX, "") == "1"


def _left_out_on_this_leg(item) -> bool:
    from harness.table_formats import spark_line, table_format

    chosen = table_format()
    feature = item.get_closest_marker("format_feature")
    if feature is not None and chosen != feature.args[0]:
        return True
    if whole_matrix():
        return False
    matrix = item.get_closest_marker("matrix")
    if matrix is not None and (not matrix.args or chosen in matrix.args):
        return True
    if item.get_closest_marker("release") is not None:
        return True
    if item.get_closest_marker("one_engine") is not None and spark_line() == "3.5":
        return True
    if item.get_closest_marker("parquet_only") is not None and chosen is not None:
        return True
    one_format = item.get_closest_marker("one_format")
    return one_format is not None and chosen not in (None, one_format.args[0])


def _deselect(config, items, unwanted) -> None:
    kept = [item for item in items if not unwanted(item)]
    dropped = [item for item in items if unwanted(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_collection_modifyitems(config, items):
    _deselect(config, items, _left_out_on_this_leg)
    _deselect(config, items, lambda item: _not_drawn(config, item))
    if not config.getoption(NO_SPARK):
        return

    def needs_spark_or_dbt(item) -> bool:
        marked = item.get_closest_marker("dbt") is not None or item.get_closest_marker("spark") is not None
        return "spark" in getattr(item, "fixturenames", ()) or marked

    _deselect(config, items, needs_spark_or_dbt)


# The kill points of the fault tests (marker `fault`): `make test` takes one test of each group of FAULT_DRAWS and
# one of its moments, drawn with a seed that changes from run to run and is printed in the header;
# INC_JOIN_FAULT_SEED draws the same ones again; INC_JOIN_FAULTS=all takes every test and moment (`make test-faults`).
FAULT_SEED, ALL_FAULTS = "INC_JOIN_FAULT_SEED", "INC_JOIN_FAULTS"


def every_fault() -> bool:
    """Every fault test and every moment of each (`make test-faults`, `make test-matrix`)."""
    return os.environ.get(ALL_FAULTS, "") == "all"


# Fault tests of one kind draw among themselves: `make test`, which gives all its legs one seed, runs one test of
# each group (the same in every leg) with one of its moments, and deselects the others. A member is named by its
# file and function and, in a format leg, the format. INC_JOIN_FAULTS=all runs every member.
FAULT_DRAWS = {
    "a run killed or raced": (
        "test_faults.py::test_a_daily_run_killed_during_its_write_then_rerun_equals_the_reference",
        "test_ledger.py::test_a_run_killed_anywhere_is_completed_by_the_next_plain_run",
        "test_ledger.py::test_a_redo_killed_anywhere_is_completed_by_the_next_plain_run",
        *(
            f"test_format_ledger.py::test_a_run_killed_at_any_moment_leaves_the_table_before_or_after_its_commit@{name}"
            for name in ("delta", "iceberg")
        ),
        "test_concurrent_runs.py::test_two_runs_of_one_window_at_once_one_commits_the_other_fails@iceberg",
    ),
}


def fault_member(item) -> str:
    """The name of a test in FAULT_DRAWS: file::function, and @format in a format leg."""
    from harness.table_formats import table_format

    chosen = table_format()
    return f"{Path(str(item.path)).name}::{item.originalname}" + (f"@{chosen}" if chosen else "")


def drawn_members(seed: int) -> dict[str, str]:
    """Each group of FAULT_DRAWS and the member the seed takes from it."""
    return {group: random.Random(f"{seed}:{group}").choice(members) for group, members in FAULT_DRAWS.items()}


def _not_drawn(config, item) -> bool:
    if item.get_closest_marker("fault") is None or every_fault():
        return False
    member = fault_member(item)
    drawn = drawn_members(_fault_seed(config))
    return any(member in members and drawn[group] != member for group, members in FAULT_DRAWS.items())


def _fault_seed(config) -> int:
    if not hasattr(config, "_inc_join_fault_seed"):
        given = os.environ.get(FAULT_SEED, "").strip()
        config._inc_join_fault_seed = int(given) if given else random.SystemRandom().randrange(10**6)
    return config._inc_join_fault_seed


def pytest_report_header(config):
    from harness.local_spark import evaluation_settings

    evaluation = "inc_join: Spark's evaluation: " + ("interpreted" if evaluation_settings() else "compiled")
    if every_fault():
        return [evaluation, "inc_join: every kill point of the fault tests (INC_JOIN_FAULTS=all)"]
    seed = _fault_seed(config)
    taken = "; ".join(f"{group}: {member}" for group, member in drawn_members(seed).items())
    return [
        evaluation,
        f"inc_join: kill points drawn with seed {seed} ({FAULT_SEED}={seed} draws them again; make test-faults: all)",
        f"inc_join: the fault tests drawn: {taken}",
    ]


@pytest.fixture
def kill_points(request):
    """draw(moments) -> the moments of this test that this run kills: every one with INC_JOIN_FAULTS=all, else one,
    drawn from the run's seed and the test's id. The draw is printed and kept in the
    test's report."""

    def draw(moments: Sequence[str]) -> set[str]:
        if every_fault():
            taken = list(moments)
        else:
            rng = random.Random(f"{_fault_seed(request.config)}:{request.node.nodeid}")
            taken = rng.sample(list(moments), 1)
        chosen = [moment for moment in moments if moment in taken]
        print(f"inc_join: kill points of this run: {', '.join(chosen)}")
        request.node.user_properties.append(("kill points", ", ".join(chosen)))
        return set(chosen)

    return draw


def _spark_or_dbt_was_started() -> str | None:
    import sys

    context = sys.modules.get("pyspark.context")
    if context is not None and context.SparkContext._gateway is not None:
        return "Spark"
    if "dbt.cli.main" in sys.modules:  # dbtRunner's module: imported by harness/local_dbt.py when it invokes dbt
        return "dbt"
    return None


def ansi_setting():
    """The ANSI mode this run asks for: "true", "false", or None (leave the defaults)."""
    value = os.environ.get("INC_JOIN_ANSI", "").strip().lower()
    if value not in ("", "true", "false"):
        raise pytest.UsageError(f"INC_JOIN_ANSI must be true or false (got {value!r}).")
    return value or None


def _coverage_running():
    """The coverage collector of this process under `make test-coverage` (harness/coverage_hook.py), else None."""
    if not os.environ.get("COVERAGE_PROCESS_START"):
        return None
    import coverage

    return coverage.Coverage.current()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """`make test-coverage`: the lines this process runs from a test's set-up to its teardown are that test's, under
    the name harness/coverage_hook.py gives the processes the test starts (a shared fixture counts for the first
    test that asks for it)."""
    running = _coverage_running()
    if running is not None:
        from harness.coverage_hook import context_name

        running.switch_context(context_name(item.nodeid))
    yield
    if running is not None:
        running.switch_context("")


def pytest_configure(config):
    if _coverage_running() is not None and config.option.xmlpath:  # the leg, named after its JUnit XML
        os.environ.setdefault("INC_JOIN_COVERAGE_LEG", Path(config.option.xmlpath).stem)
    expected = os.environ.get("INC_JOIN_EXPECT_SPARK")
    if expected:
        import pyspark

        if not (pyspark.__version__ == expected or pyspark.__version__.startswith(expected + ".")):
            raise pytest.UsageError(f"this run needs pyspark {expected}, found {pyspark.__version__}.")
    ansi = ansi_setting()
    if ansi is not None:
        _dbt_spark_uses_ansi(ansi)


# what dbt-spark's profiles get for spark.sql.ansi.enabled (None: its own "false"), and whether it is hooked
_DBT_ANSI: dict = {"value": None, "hooked": False}


def _dbt_spark_uses_ansi(ansi: str) -> None:
    """dbt-spark 1.11 writes spark.sql.ansi.enabled=false into every profile's server_side_parameters and
    re-applies them to the session before each statement (SQL and, through the session helper, Python models).
    Here that one entry takes the value of the run instead, as where ANSI is on for dbt (Databricks, other
    adapters or setups on Spark 4). tests/integration/test_engine.py checks what the statements dbt runs see."""
    _DBT_ANSI["value"] = ansi
    try:
        from dbt.adapters.spark.connections import SparkCredentials
    except ImportError:
        return
    if _DBT_ANSI["hooked"]:
        return
    original = SparkCredentials.__post_init__

    def __post_init__(self) -> None:
        original(self)
        if _DBT_ANSI["value"] is not None:  # read per dbt invocation: each one builds its credentials anew
            self.server_side_parameters["spark.sql.ansi.enabled"] = _DBT_ANSI["value"]

    SparkCredentials.__post_init__ = __post_init__  # type: ignore[method-assign]
    _DBT_ANSI["hooked"] = True


@contextmanager
def dbt_spark_default_ansi():
    """dbt invocations inside keep dbt-spark's own ANSI setting (false), whatever the run's."""
    saved = _DBT_ANSI["value"]
    _DBT_ANSI["value"] = None
    try:
        yield
    finally:
        _DBT_ANSI["value"] = saved


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    started = _spark_or_dbt_was_started() if session.config.getoption(NO_SPARK) else None
    if started:
        if reporter:
            reporter.write_line(f"inc_join: a test started {started} in a {NO_SPARK} run.", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped and exitstatus == pytest.ExitCode.OK:
        reporter.write_line(f"inc_join: {len(skipped)} test(s) skipped; a skipped test fails the run.", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    from harness.local_spark import local_spark_session

    state = tmp_path_factory.mktemp("spark-state")
    os.environ["INC_JOIN_STATE_DIR"] = str(state)  # dbt tests reuse this session and its catalog
    session = local_spark_session(state)
    ansi = ansi_setting()
    if ansi is not None:
        session.conf.set("spark.sql.ansi.enabled", ansi)
    yield session
    session.stop()


@pytest.fixture(scope="module")
def chosen():
    """The leg's table format (delta or iceberg); a test that asks for it runs in a format leg only."""
    from harness.table_formats import table_format

    found = table_format()
    if found is None:
        pytest.fail("this test runs in a format leg: set INC_JOIN_TABLE_FORMAT to delta or iceberg (make test-formats)")
    return found


def vacuum_every_old_file(spark, table: str) -> None:
    """Delta's VACUUM with no retention: every file the newest version does not read is deleted (what a retention
    shorter than the time between two runs does). Its listing runs spark.sql.sources.parallelPartitionDiscovery.
    parallelism tasks, 10,000 by default: about 30 s on local[2] for a table of a few files, 3 s with 2."""
    settings = {"spark.databricks.delta.retentionDurationCheck.enabled": "false",
                "spark.sql.sources.parallelPartitionDiscovery.parallelism": "2"}  # fmt: skip
    for key, value in settings.items():
        spark.conf.set(key, value)
    try:
        spark.sql(f"VACUUM {table} RETAIN 0 HOURS")
    finally:
        for key in settings:
            spark.conf.unset(key)


def compile_file_system(source: Path, classes: Path) -> Path:
    """A fault-injecting Hadoop file system of the tests (a .java file) compiled into `classes` against the running
    pyspark's Hadoop jars."""
    import glob

    import pyspark

    jars = glob.glob(os.path.join(os.path.dirname(pyspark.__file__), "jars", "hadoop-client-api-*.jar"))
    subprocess.run(["javac", "-d", str(classes), "-cp", jars[0], str(source)], check=True)
    return classes
