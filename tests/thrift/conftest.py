"""The scale-out path: the integration project on a local Spark Thrift Server (dbt-spark ``method: thrift``),
Python models through Spark Connect on the same server.

The server is started once per test session from the pip pyspark jars (127.0.0.1 only, its own warehouse and
Derby metastore) and stopped at the end. dbt runs in a worker process of its own (see dbt_worker.py); tables
are read back over thrift with PyHive. Nothing here touches the pytest process's local SparkSession except
the reference computation, which uses it like the session suite does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from harness.table_formats import table_format
from scripts.thrift_server import pid_alive

from ..integration.pipeline import LAST_DAY
from .server import HOST, ThriftServer

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = "inc_join_it"
TIMINGS: dict[str, float] = {}
SEEDS = ROOT / "integration_tests" / "seeds"

RUN_DAYS = [date(2025, 1, 6), LAST_DAY]  # the first run covers Jan 1-6, the incremental one 2 days
SQL_MODELS = {"gen_left": "left", "gen_inner": "inner", "gen_full": "full"}
PYTHON_MODEL = "gen_left_py"  # through Spark Connect
MICROBATCH_DAYS = [LAST_DAY - timedelta(days=1), LAST_DAY]  # one batch per day, in the last run
MODELS = [*SQL_MODELS, "gen_left_append", PYTHON_MODEL, "gen_left_microbatch"]


@pytest.fixture(scope="session")
def pipeline(thrift_dbt):
    """Seed on the server, then run every model on each of RUN_DAYS (as loaded up to that day); once per session:
    test_thrift_pipeline.py compares the tables with the core, test_thrift_delta.py reads their Delta logs."""
    if not (SEEDS.parent / "dbt_packages" / "dbt_inc_join").exists():  # the session suite may have installed it
        thrift_dbt.invoke("deps")
    thrift_dbt.invoke("seed", "--select", "gen_a", "gen_b")
    daily = [m for m in MODELS if m != "gen_left_microbatch"]
    for day in RUN_DAYS:
        # the input views stg_gen_a/b are rebuilt first: they show the inputs as loaded up to `today`
        selection = ["--select", "stg_gen_a", "stg_gen_b", *daily]
        if day == LAST_DAY:
            selection += [
                "gen_left_microbatch",
                "--event-time-start",
                str(MICROBATCH_DAYS[0]),
                "--event-time-end",
                str(LAST_DAY + timedelta(days=1)),
            ]
        answer = thrift_dbt.invoke("run", *selection, today=day)
    thrift_dbt.last_answer = answer
    return thrift_dbt


# Delta's commit log (test_thrift_delta.py) exists in the Delta leg only (make test-thrift-delta)
collect_ignore = [] if table_format() == "delta" else ["test_thrift_delta.py"]


@pytest.fixture(scope="session")
def _thrift(tmp_path_factory):
    """The server (started and stopped with the shipped command, python -m scripts.thrift_server) and the dbt
    worker. The worker parses the project (about 8 s, no connection needed) while the server starts."""
    server = ThriftServer(tmp_path_factory.mktemp("thrift-server")).launch()
    dbt = ThriftDbt(server, tmp_path_factory.mktemp("thrift-dbt"))
    try:
        dbt.submit("parse")
        server.wait()
        TIMINGS["server start"] = server.started_in
        dbt.collect()
        yield server, dbt
    finally:
        dbt.close()
        began = time.monotonic()
        stopped = server.stop()
        TIMINGS["server stop"] = time.monotonic() - began
        if stopped.returncode != 0 or (server.pid is not None and pid_alive(server.pid)):
            raise RuntimeError(
                f"python -m scripts.thrift_server stop left the server (pid {server.pid}) running "
                f"or failed (exit code {stopped.returncode}):\n{stopped.stdout}{stopped.stderr}"
            )


@pytest.fixture(scope="session")
def thrift_server(_thrift):
    return _thrift[0]


@pytest.fixture(scope="session")
def thrift_dbt(_thrift):
    return _thrift[1]


class ThriftDbt:
    """The integration project on the thrift target, driven through dbt_worker.py."""

    def __init__(self, server: ThriftServer, state: Path) -> None:
        self.server, self.state = server, state
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_", "PYSPARK_", "INC_JOIN_"))}
        env.update(
            INC_JOIN_STATE_DIR=str(state),  # not used by the thrift target; keeps the session catalog out of reach
            INC_JOIN_THRIFT_HOST=HOST,
            INC_JOIN_THRIFT_PORT=str(server.thrift_port),
            INC_JOIN_SPARK_CONNECT_URL=server.connect_url,
            DBT_TARGET_PATH=str(state / "target"),
            DBT_LOG_PATH=str(state / "logs"),
            DBT_SEND_ANONYMOUS_USAGE_STATS="false",
            PYTHONUNBUFFERED="1",
        )
        # the project's seeds and models in the server's format (integration_tests/dbt_project.yml)
        chosen = table_format()
        if chosen is not None:
            env["INC_JOIN_TABLE_FORMAT"] = chosen
        self.log_path = state / "dbt_worker.log"
        self.pending: list[str] = []
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (the worker's stderr for its whole life; closed in stop)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.thrift.dbt_worker"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            bufsize=1,
        )

    def submit(self, *args: str, today: Any | None = None, vars: dict[str, Any] | None = None) -> None:
        """Send one dbt command; ``collect()`` reads its answer (the worker answers in order)."""
        request = {"args": list(args), "today": None if today is None else str(today), "vars": vars}
        self.process.stdin.write(json.dumps(request, default=str) + "\n")
        self.pending.append(("" if today is None else f"today {today}: ") + f"dbt {' '.join(args)}")

    def collect(self, expect_success: bool = True) -> dict[str, Any]:
        name = self.pending.pop(0)
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(
                f"the dbt worker died (exit code {self.process.poll()}); last lines of "
                f"{self.log_path}:\n{self.log_tail()}\nserver log:\n{self.server.log_tail()}"
            )
        answer = json.loads(line)
        TIMINGS[name if len(name) < 70 else name[:67] + "..."] = answer["seconds"]
        if expect_success and not answer["success"]:
            raise RuntimeError(
                f"{name} on thrift failed: {answer['failure']}\nlast lines of {self.log_path}:\n{self.log_tail()}"
            )
        return answer

    def invoke(
        self, *args: str, today: Any | None = None, vars: dict[str, Any] | None = None, expect_success: bool = True
    ) -> dict[str, Any]:
        while self.pending:
            self.collect()
        self.submit(*args, today=today, vars=vars)
        return self.collect(expect_success)

    def log_tail(self, lines: int = 30) -> str:
        self._log.flush()
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._log.close()


class ThriftSql:
    """Plain SQL over thrift (PyHive), the way a BI tool would read the tables."""

    def __init__(self, server: ThriftServer) -> None:
        from pyhive import hive

        self.connection = hive.connect(host=HOST, port=server.thrift_port, username="inc_join_tests")

    def query(self, sql: str) -> list[tuple]:
        cursor = self.connection.cursor()
        try:
            cursor.execute(sql)
            return cursor.fetchall()
        finally:
            cursor.close()

    def columns(self, table: str) -> list[tuple[str, str]]:
        """(name, type) of a table's columns, without the partition section of DESCRIBE."""
        found = []
        for name, data_type, _ in self.query(f"DESCRIBE {SCHEMA}.{table}"):
            if not name or name.startswith("#"):
                break
            found.append((name, data_type))
        return found

    def records(self, sql: str) -> list[dict[str, Any]]:
        """The rows of a statement as dicts by column name."""
        cursor = self.connection.cursor()
        try:
            cursor.execute(sql)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
        finally:
            cursor.close()

    def described(self, table: str) -> dict[str, str]:
        """The detailed table information of DESCRIBE TABLE EXTENDED (Provider, Type, Location, ...)."""
        rows = self.query(f"DESCRIBE TABLE EXTENDED {SCHEMA}.{table}")
        start = next(i for i, (name, _, _) in enumerate(rows) if name == "# Detailed Table Information")
        return {name: value for name, value, _ in rows[start + 1 :] if name}

    def rows(self, table: str, columns: Sequence[str]) -> list[tuple]:
        """A table's rows as text (Spark's own casts), sorted like pipeline.rows."""
        return sort_rows(self.query(f"SELECT {as_text(columns)} FROM {SCHEMA}.{table}"))

    def close(self) -> None:
        self.connection.close()


@pytest.fixture(scope="session")
def thrift_sql(thrift_server):
    sql = ThriftSql(thrift_server)
    yield sql
    sql.close()


def quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def as_text(columns: Sequence[str]) -> str:
    return ", ".join(f"CAST({quote(c)} AS STRING)" for c in columns)


def sort_rows(rows) -> list[tuple]:
    return sorted((tuple(r) for r in rows), key=lambda t: tuple((v is not None, str(v)) for v in t))


def text_rows(df, columns: Sequence[str]) -> list[tuple]:
    """A local DataFrame's rows as text, comparable with ThriftSql.rows."""
    return sort_rows(df.selectExpr(*[f"CAST({quote(c)} AS STRING)" for c in columns]).collect())


def pytest_terminal_summary(terminalreporter):
    if TIMINGS:
        terminalreporter.write_sep("-", "thrift path timings")
        for name, seconds in TIMINGS.items():
            terminalreporter.write_line(f"{seconds:7.1f} s  {name}")


def pytest_configure(config):
    config.addinivalue_line("markers", "thrift: runs dbt on a local Spark Thrift Server (tests/thrift)")
