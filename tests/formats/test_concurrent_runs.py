"""spec §16, two runs of one model at once (an orchestrator's retry while the first run is still going), on Delta
Lake and Iceberg: one run commits, the other fails with the format's conflict (on Iceberg with insert_overwrite both
commits go in, the same rows, and the later run fails before it records: the package's check), the table equals one
run and the ledger records the window once. Run by the format legs only (INC_JOIN_TABLE_FORMAT = delta or iceberg).

Two dbt processes (tests/formats/concurrent_driver.py) share one warehouse and one metastore: a Derby network
server on 127.0.0.1 (jars by `make jars`, jars/pom.xml profile derby-network; an embedded Derby metastore admits
one JVM). Both run ledger_left (insert_overwrite by its arrival column, the ledger's post-hook) on the same day
after the same committed window, so both choose the same window. Their writes overlap by construction: each
process's local file system (tests/formats/barrier/BarrierFileSystem.java) holds its first data file of the table
until the other process is at the same point, after both began their table transaction and before either
commits."""

from __future__ import annotations

import glob
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dbt_inc_join import inc_join
from harness.table_formats import JARS, table_format

from ..conftest import compile_file_system
from ..integration.pipeline import DAYS, SETTINGS, ordered, rows
from ..integration.test_ledger import assert_ledger_agrees, ledger_rows
from .concurrent_driver import FAILED_MARKER, SUCCEEDED_MARKER

pytestmark = pytest.mark.dbt

REPO = Path(__file__).resolve().parents[2]
# the message of a lost commit race, per format
CONFLICT = {
    "delta": r"ConcurrentAppendException|ConcurrentDeleteReadException|ConcurrentDeleteDeleteException"
    r"|ConcurrentTransactionException|MetadataChangedException|ProtocolChangedException|DELTA_CONCURRENT_",
    "iceberg": r"CommitFailedException|Cannot commit|ValidationException|Found conflicting files",
}


def network_jars() -> list[str]:
    jars = sorted(glob.glob(str(JARS / "derby-network" / "*.jar")))
    if not jars:
        raise FileNotFoundError(f"No Derby network jars in {JARS / 'derby-network'}: run `make jars` first.")
    return jars


@pytest.fixture(scope="module")
def metastore(tmp_path_factory):
    """A Derby network server on 127.0.0.1 (a free port), its databases in a folder of its own; its JDBC URL without
    the database."""
    home = tmp_path_factory.mktemp("derby-server")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        ["java", f"-Dderby.system.home={home}", "-cp", os.pathsep.join(network_jars()),
         "org.apache.derby.drda.NetworkServerControl", "start", "-h", "127.0.0.1", "-p", str(port),
         "-noSecurityManager"],
        stdout=(home / "server.log").open("w"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError as refused:
                if server.poll() is not None or time.monotonic() > deadline:
                    log = (home / "server.log").read_text()
                    raise RuntimeError("the Derby network server did not start: " + log) from refused
                time.sleep(0.2)
        yield f"jdbc:derby://127.0.0.1:{port}/"  # a test names its database (one per case)
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def barrier_file_system(tmp_path_factory):
    """BarrierFileSystem compiled against the running pyspark's Hadoop jars."""
    source = Path(__file__).parent / "barrier" / "BarrierFileSystem.java"
    return compile_file_system(source, tmp_path_factory.mktemp("barrier-fs"))


def shared_metastore_block() -> str:
    """The profile lines of docs/table-formats.md's "Two processes on one metastore" for a Derby network server."""
    section = (REPO / "docs" / "table-formats.md").read_text().split("## Two processes on one metastore", 1)[1]
    return next(block for block in re.findall(r"```yaml\n(.*?)```", section, re.S) if "ClientDriver" in block)


def shared_metastore_lines() -> dict[str, str]:
    """Those lines as {setting: value}. The drivers below run with them (the server's own address and database in
    the URL)."""
    return dict(re.findall(r'^\s*([\w.]+): "([^"]*)"', shared_metastore_block(), re.M))


def start_driver(
    name: str, state: Path, barrier: Path, url: str, classes: Path, model: str, *steps: str
) -> subprocess.Popen:
    lines = shared_metastore_lines()
    documented = lines["spark.hadoop.javax.jdo.option.ConnectionURL"]
    assert re.sub(r"//[^/]+/[^;]+", "//", documented) == re.sub(r"//[^/]+/[^;]+", "//", url), (documented, url)
    jar_name = Path(lines["spark.driver.extraClassPath"]).name
    client = [jar for jar in network_jars() if Path(jar).name == jar_name]
    assert client, f"{jar_name} (docs/table-formats.md) is not among the Derby network jars of make jars"
    env = {
        **os.environ,
        "INC_JOIN_CONCURRENT_MODEL": model,
        "INC_JOIN_STATE_DIR": str(state),
        "INC_JOIN_METASTORE_URL": url,
        "INC_JOIN_METASTORE_DRIVER": lines["spark.hadoop.javax.jdo.option.ConnectionDriverName"],
        "INC_JOIN_BARRIER_RULE": str(barrier / "rule"),
        "INC_JOIN_BARRIER_NAME": name,
        "PYSPARK_SUBMIT_ARGS": f"--driver-class-path {os.pathsep.join([str(classes), *client])} "
        "--conf spark.hadoop.fs.file.impl=incjoin.barrier.BarrierFileSystem "
        "--conf spark.hadoop.fs.file.impl.disable.cache=true pyspark-shell",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.formats.concurrent_driver", str(state), name, *steps],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip


# the message of the package's check on Iceberg with insert_overwrite, where both commits go in (macros/io/
# _commit_metadata.sql, _refuse_concurrent_commit): Iceberg commits a dynamic overwrite made by SQL without checking
# it against the commits made since the run began (no write options isolation-level and validate-from-snapshot-id)
BOTH_COMMIT = r"committed an overlapping window .* This run records nothing and fails"

# the models: ledger_left (insert_overwrite by RecDate) on both formats; on Iceberg also ledger_replace (merge: a
# MERGE is validated against concurrent commits, the table's write.merge.isolation-level, serializable by default).
# The race on Iceberg with insert_overwrite, where the package's own check must refuse the later run, is one of the
# fault tests `make test` draws from (tests/conftest.py's FAULT_DRAWS); on Delta (Delta's conflict check refuses it)
# and Iceberg's merge race are in `make test-matrix`.
MODELS = [
    pytest.param("ledger_left", marks=pytest.mark.one_format("iceberg")),
    *([pytest.param("ledger_replace", marks=pytest.mark.matrix)] if table_format() == "iceberg" else []),
]


@pytest.mark.fault
@pytest.mark.parametrize("model", MODELS)
def test_two_runs_of_one_window_at_once_one_commits_the_other_fails(spark, chosen, metastore, barrier_file_system,
                                                                     tmp_path, model):  # fmt: skip
    """The model's first run covers days 1-3; then two processes run it on day 6 at once, both over days 4-6, their
    writes held until both are writing. One commits and records days 4-6; the other fails with the format's
    conflict and records nothing. The table equals the core over days 1-6, no row twice, and the ledger has days
    4-6 once."""
    state, barrier, dumped = tmp_path / "state", tmp_path / "barrier", tmp_path / "dumped"
    url = f"{metastore}metastore_{model};create=true"
    barrier.mkdir()
    d = [str(day) for day in DAYS]
    first = start_driver("first", state, barrier, url, barrier_file_system, model,
                         f"setup:{d[2]}:{d[5]}", "mark:ready", "arm", f"run:{d[5]}", "mark:done-first",
                         "await:done-second", f"dump:{dumped}")  # fmt: skip
    second = start_driver("second", state, barrier, url, barrier_file_system, model,
                          f"warm:{d[5]}", "await:ready", "arm", f"run:{d[5]}", "mark:done-second")  # fmt: skip
    outputs = {}
    try:
        for name, process in (("second", second), ("first", first)):
            outputs[name] = process.communicate(timeout=600)[0]
    finally:
        for process in (first, second):
            if process.poll() is None:
                os.killpg(process.pid, 9)
    said = "\n".join(f"--- {name} (exit {p.returncode}):\n{outputs.get(name, '')[-6000:]}"
                     for name, p in (("first", first), ("second", second)))  # fmt: skip
    for name, output in outputs.items():
        (tmp_path / f"{name}.log").write_text(output)
    # the writes overlapped: each process waited at its first data file until the other was there
    for name in ("first", "second"):
        assert "BarrierFileSystem: met arrived-" in outputs[name], said
    # the table's commits (Delta: version, time, operation; Iceberg: time, snapshot, parent, operation), oldest first
    history = sorted(tuple(r) for r in spark.read.parquet(str(dumped / "history")).collect())
    said += "\n--- the table's commits:\n" + "\n".join(str(commit) for commit in history)
    # the table: one run's rows, the core over days 1-6 (the inputs as the processes loaded them), no row twice
    a = spark.read.parquet(str(dumped / "gen_a")).where(f"RecDate <= DATE'{d[5]}'")
    b = spark.read.parquet(str(dumped / "gen_b")).where(f"RecDate <= DATE'{d[5]}'")
    expected = inc_join(a, b, how="left", output_window_start=DAYS[0], output_window_end=DAYS[5], **SETTINGS)
    table = spark.read.parquet(str(dumped / "table"))
    found = rows(table, ordered(table.columns))
    assert found == rows(expected, ordered(expected.columns)), said
    assert len(found) == len(set(found))
    runs = ledger_rows(spark.read.parquet(str(dumped / "ledger")), f"inc_join_it.{model}")
    windows = [(r.window_start.date(), r.window_end.date()) for r in runs]

    succeeded = [name for name in outputs if SUCCEEDED_MARKER in outputs[name]]
    failed = [name for name in outputs if FAILED_MARKER in outputs[name]]
    assert len(succeeded) == 1 and len(failed) == 1, said
    [loser] = failed
    message = outputs[loser].split(FAILED_MARKER, 1)[1]
    both_commit = chosen == "iceberg" and model == "ledger_left"
    assert re.search(BOTH_COMMIT if both_commit else CONFLICT[chosen], message, re.DOTALL), said
    assert (first.returncode, second.returncode) == ((1, 0) if loser == "first" else (0, 1)), said
    # the data commits: the first run's (days 1-3) and the winner's (days 4-6), on Iceberg with insert_overwrite
    # also the loser's, each on the one before (the same partitions replaced with the same rows); the rest are the
    # ledger's table properties (Delta commits those too)
    writes = [commit for commit in history if commit[-1] != "SET TBLPROPERTIES"]
    assert len(writes) == (3 if both_commit else 2), said
    if both_commit:
        assert [commit[-1] for commit in history] == ["overwrite"] * 3, said
        assert [commit[2] for commit in history[1:]] == [commit[1] for commit in history[:2]], said
    # the ledger: days 1-3 and days 4-6, each once, agreeing with the table
    assert windows == [(DAYS[0], DAYS[2]), (DAYS[3], DAYS[5])]
    assert_ledger_agrees(table, runs, DAYS[0], DAYS[5])
