"""dbt on the thrift target, in a process of its own: one JSON request per line in, one JSON answer per line out.

Why a separate process: Python models on the thrift target run through Spark Connect, and pyspark allows one
mode per process. The pytest process holds the classic local SparkSession of the session suite, next to which
``SparkSession.builder.remote(...)`` fails (SESSION_ALREADY_EXIST), and ``pyspark.sql.functions`` would build
classic Columns for Connect DataFrames. The dbt CLI would be a separate process too, but pays Python, dbt and
project loading on every call (10-13 s per `dbt run` here, against under 1 s for a dbtRunner call in this
worker); the worker pays them once and keeps one Connect session.

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


def spark_in_this_process() -> dict:
    """Which pyspark sessions this process holds: Spark Connect ones (Python models), never a local JVM."""
    classic = (
        "pyspark.core.context" in sys.modules
        and sys.modules["pyspark.core.context"].SparkContext._active_spark_context is not None
    )
    connect_port = None
    if "pyspark.sql.connect.session" in sys.modules:
        session = sys.modules["pyspark.sql.connect.session"].SparkSession._get_default_session()
        if session is not None:  # ask the server which Connect port it serves
            connect_port = int(session.conf.get("spark.connect.grpc.binding.port"))
    return {"classic": classic, "connect_port": connect_port}


def main() -> int:
    answers = os.fdopen(os.dup(1), "w", buffering=1)  # the protocol keeps the real stdout ...
    os.dup2(2, 1)  # ... and everything else written to fd 1 (dbt's console log) goes to stderr
    sys.stdout = sys.stderr

    from harness.local_dbt import LocalDbtProject, failure_text

    project = LocalDbtProject(PROJECT, Path(os.environ["INC_JOIN_STATE_DIR"]), target="thrift", write_json=False)
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
