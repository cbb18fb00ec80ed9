"""dbt on the thrift target, in a process of its own: one JSON request per line in, one JSON answer per line out.

Why a separate process: Python models on the thrift target run through Spark Connect, and pyspark allows one
mode per process. The pytest process holds the classic local SparkSession of the session suite, next to which
``SparkSession.builder.remote(...)`` fails (SESSION_ALREADY_EXIST), and ``pyspark.sql.functions`` would build
classic Columns for Connect DataFrames. The dbt CLI would be a separate process too, but pays Python, dbt and
project loading on every call (10-13 s per `dbt run` here, against under 1 s for a dbtRunner call in this
worker); the worker pays them once (each Python model run opens a Connect session of its own).

Request: ``{"args": ["run", "--select", "..."], "today": "2025-01-03", "vars": {...}}``.
Answer: ``{"success": true|false, "failure": "<dbt's message>", "seconds": 12.3, "spark": {...}}`` (``spark``:
whether this process holds a classic SparkContext, and the port of the server its Spark Connect session talks
to, if it has one).
dbt's own console output goes to this process's stderr (the caller's log file), never into the answers.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2] / "integration_tests"


CONNECT_PORTS: list[int] = []  # the server's Connect port, as each model run's session saw it


def watch_connect_sessions() -> None:
    """Record the port of the server behind each Spark Connect session a Python model's run opens (the helper
    releases the session when the run ends, so the port is asked while it is open)."""
    from dbt_inc_join.orchestration.python_models import connect

    opened = connect.connect_session

    def recorded(url: str):
        session = opened(url)
        CONNECT_PORTS.append(int(session.conf.get("spark.connect.grpc.binding.port")))
        return session

    connect.connect_session = recorded


def spark_in_this_process() -> dict:
    """Which pyspark sessions this process held in the last request: Spark Connect ones (Python models), never a
    local JVM."""
    classic = (
        "pyspark.core.context" in sys.modules
        and sys.modules["pyspark.core.context"].SparkContext._active_spark_context is not None
    )
    connect_port = CONNECT_PORTS[-1] if CONNECT_PORTS else None
    CONNECT_PORTS.clear()
    return {"classic": classic, "connect_port": connect_port}


def main() -> int:
    answers = os.fdopen(os.dup(1), "w", buffering=1)  # the protocol keeps the real stdout ...
    os.dup2(2, 1)  # ... and everything else written to fd 1 (dbt's console log) goes to stderr
    sys.stdout = sys.stderr

    from harness.local_dbt import LocalDbtProject, failure_text

    project = LocalDbtProject(PROJECT, Path(os.environ["INC_JOIN_STATE_DIR"]), target="thrift", write_json=False)
    watch_connect_sessions()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        began = time.monotonic()
        try:
            result = project.invoke(
                *request["args"], vars=request.get("vars"), today=request.get("today"), expect_success=False
            )
            answer = {"success": bool(result.success), "failure": "" if result.success else failure_text(result)}
        except Exception as error:  # the worker stays up; the test sees the error
            answer = {"success": False, "failure": f"{type(error).__name__}: {error}"}
        answer["seconds"] = round(time.monotonic() - began, 2)
        answer["spark"] = spark_in_this_process()
        print(f"[dbt_worker] {' '.join(request['args'])}: {answer}", file=sys.stderr, flush=True)
        answers.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
