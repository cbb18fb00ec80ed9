"""The integration pipeline on a multi-process Spark cluster (issue 14, item 5): a standalone master and two
workers (python -m scripts.spark_cluster), a Thrift Server with Spark Connect whose executors run on them
(python -m scripts.thrift_server --master), and dbt on the thrift target in a worker process (SQL models over
thrift, Python models through Spark Connect). Faults while a daily run is in flight, each followed by the next
plain `dbt run`: one executor JVM killed, the Thrift Server killed, the dbt process killed. At the end both
tables equal the core over the period, with nothing lost or twice, and the run ledger agrees with them.

"In flight" means: the run's write job into ledger_left has begun, so its staging directory exists (a new one,
not one a killed run left behind); it stays until the job commits. (Watching for the staged data files instead
missed a day's write on a quiet host: its few small files were written and moved between two looks.) Everything
is read back from the files, with the pytest process's own Spark."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from dbt_inc_join import inc_join
from scripts import spark_cluster
from scripts.thrift_server import pid_alive

from ..integration.pipeline import DAYS, LAST_DAY, SETTINGS, rows
from ..integration.test_ledger import assert_ledger_agrees, ledger_rows
from ..thrift.conftest import ThriftDbt
from ..thrift.server import ThriftServer

pytestmark = pytest.mark.cluster

SEEDS = Path(__file__).resolve().parents[2] / "integration_tests" / "seeds"
MODELS = ["ledger_left", "ledger_left_py"]
SELECT = ["--select", "stg_gen_a", "stg_gen_b", *MODELS, "dbt_inc_join_runs"]


class Cluster:
    """The cluster, its Thrift Server and a dbt worker; each can be killed and started again on the same state."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.server: ThriftServer | None = None
        self.dbt: ThriftDbt | None = None
        self.info = spark_cluster.start(root / "cluster", workers=2, cores=1, memory="1g")
        try:
            self.start_server()
        except BaseException:
            self.close()
            raise

    @property
    def warehouse(self) -> Path:
        return self.root / "server" / "warehouse" / "inc_join_it.db"

    def start_server(self) -> None:
        self.server = ThriftServer(self.root / "server", master=self.info["master_url"]).launch().wait()
        self.new_dbt()

    def new_dbt(self) -> None:
        """A dbt worker process of its own for the current server."""
        state = self.root / f"dbt-{time.monotonic_ns()}"
        state.mkdir()
        self.dbt = ThriftDbt(self.server, state)

    def executors(self) -> list[int]:
        """The executor JVMs the workers started (their working directories are under the cluster's)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes()
                cwd = os.readlink(entry / "cwd")
            except OSError:
                continue
            if b"CoarseGrainedExecutorBackend" in cmdline and cwd.startswith(str(self.root / "cluster")):
                found.append(int(entry.name))
        return found

    def staging(self) -> set[Path]:
        """The staging directories of write jobs into ledger_left (a dynamic partition overwrite's
        .spark-staging-*, other writes' _temporary): from the job's start to its commit, and those killed jobs left."""
        return {
            Path(root) / name
            for root, directories, _ in os.walk(self.warehouse / "ledger_left")
            for name in directories
            if name.startswith(".spark-staging") or name == "_temporary"
        }

    def wait_until_writing(self, before: set[Path], timeout: float = 300.0) -> None:
        """Until the run just submitted has begun its write job (a staging directory that was not there before)."""
        began = time.monotonic()
        while not self.staging() - before:
            if time.monotonic() - began > timeout:
                raise AssertionError("the run never started writing ledger_left")
            time.sleep(0.005)

    def wait_for_log(self, dbt: ThriftDbt, pattern: str, after: int, timeout: float = 300.0) -> str:
        """The dbt worker's log from character ``after`` on, once a line there matches ``pattern`` (dbt's console
        output goes to that log)."""
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            text = dbt.log_path.read_text(errors="replace")[after:]
            if re.search(pattern, text):
                return text
            time.sleep(0.2)
        raise AssertionError(f"the dbt worker never logged {pattern!r}:\n{dbt.log_tail()}")

    def close(self) -> None:
        if self.dbt is not None:
            self.dbt.close()
        if self.server is not None:
            self.server.stop()
        spark_cluster.stop(self.root / "cluster")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    built = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield built
    finally:
        built.close()


def reference(spark, warehouse: Path):
    """The core over the period, on the inputs as dbt seeded them on the cluster."""
    a = spark.read.parquet(str(warehouse / "gen_a"))
    b = spark.read.parquet(str(warehouse / "gen_b")).where(f"RecDate <= DATE'{LAST_DAY}'")
    expected = inc_join(a, b, how="left", output_window_start=DAYS[0], **SETTINGS)
    return rows(expected, sorted(expected.columns))


def assert_tables_equal_the_core(spark, cluster, until):
    """Both tables equal the core over the period up to `until`, and the ledger's windows tile them."""
    expected = reference(spark, cluster.warehouse)
    ledger = spark.read.parquet(str(cluster.warehouse / "dbt_inc_join_runs"))
    for model in MODELS:
        table = spark.read.parquet(str(cluster.warehouse / model))
        columns = sorted(table.columns)
        arrival = columns.index("RecDate")
        assert rows(table, columns) == [r for r in expected if r[arrival] <= until], model
        assert_ledger_agrees(table, ledger_rows(ledger, f"inc_join_it.{model}"), DAYS[0], until)


def test_an_executor_killed_while_a_run_writes_is_replaced_and_the_run_succeeds(spark, cluster):
    """`make test` runs this one (the smaller version); `make test-cluster` both."""
    dbt = cluster.dbt
    if not (SEEDS.parent / "dbt_packages" / "dbt_inc_join").exists():
        dbt.invoke("deps")
    dbt.invoke("seed", "--select", "gen_a", "gen_b")
    assert len(cluster.executors()) == 2  # one executor JVM per worker
    dbt.invoke("run", *SELECT, today=DAYS[2])  # a first run over days 1-3
    executors = cluster.executors()
    before = cluster.staging()
    dbt.submit("run", *SELECT, today=DAYS[3])
    cluster.wait_until_writing(before)
    os.kill(executors[0], signal.SIGKILL)
    answer = dbt.collect(expect_success=False)
    assert answer["success"], answer["failure"]
    assert not pid_alive(executors[0])
    assert_tables_equal_the_core(spark, cluster, DAYS[3])


def test_the_server_or_dbt_killed_while_a_run_writes_then_the_next_plain_run(spark, cluster):
    """Continues the state of the test above (days 1-4 done)."""
    dbt = cluster.dbt
    # 2. the Thrift Server (the driver) killed while the run writes: the run fails; a new server on the same
    # warehouse and metastore, and the next plain run completes the day
    logged = len(dbt.log_path.read_text(errors="replace"))
    before = cluster.staging()
    dbt.submit("run", *SELECT, today=DAYS[4])
    cluster.wait_until_writing(before)
    os.killpg(cluster.server.pid, signal.SIGKILL)
    # dbt ends the run with errors; the worker's own answer would wait on Spark Connect's retries, so the
    # worker goes the way of its server
    assert re.search(r"Done\. PASS=\d+ WARN=\d+ ERROR=[1-9]", cluster.wait_for_log(dbt, r"Done\. PASS=", logged))
    dbt.process.kill()
    dbt.process.wait(30)
    dbt._log.close()
    cluster.start_server()
    cluster.dbt.invoke("run", *SELECT, today=DAYS[4])

    # 3. the dbt process killed while the run writes (the server may finish the statement on its own)
    before = cluster.staging()
    cluster.dbt.submit("run", *SELECT, today=DAYS[5])
    cluster.wait_until_writing(before)
    cluster.dbt.process.kill()
    cluster.dbt.process.wait(30)
    cluster.dbt._log.close()
    cluster.new_dbt()
    cluster.dbt.invoke("run", *SELECT, today=DAYS[5])
    cluster.dbt.invoke("run", *SELECT, today=LAST_DAY)

    assert_tables_equal_the_core(spark, cluster, LAST_DAY)
