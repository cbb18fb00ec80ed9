"""Drive the integration dbt project in-process (one SparkSession for every invocation).

Used by the demo and the tests: ``dbt`` on the command line would pay 10-25 s of Spark start-up per call.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .table_formats import format_settings, table_format


class LocalDbtProject:
    """A dbt project run with dbtRunner against the embedded local Spark in ``state_dir``.

    ``target`` picks another output of the project's profiles.yml (e.g. ``thrift``); None: its default.
    ``parse_per_vars``: a target directory per set of vars (``target_path_for``), for the tests; the benchmark
    keeps one, as a project run from the command line has. ``write_json=False``: dbt's ``--no-write-json``, no
    manifest.json and run_results.json after each invocation (dbt still keeps its saved manifest for partial parsing):
    nothing in the tests reads them, and writing the manifest twice costs about a second per invocation on 2
    cores, a third of a small `dbt run`; the demo and the benchmark keep dbt's default, as a run from the command
    line has."""

    def __init__(
        self,
        project_dir: Path,
        state_dir: Path,
        target: str | None = None,
        parse_per_vars: bool = False,
        write_json: bool = True,
    ) -> None:
        self.project_dir = Path(project_dir).resolve()
        # a Delta or Iceberg run (INC_JOIN_TABLE_FORMAT): the profile's output of that name, given the jars
        chosen = table_format()
        if chosen is not None and target is None:
            target = chosen
            os.environ["INC_JOIN_FORMAT_JARS"] = format_settings(chosen)["spark.jars"]
        self.target = target
        self.parse_per_vars = parse_per_vars
        self.write_json = write_json
        self.state_dir = Path(state_dir).resolve()
        self.state_dir.mkdir(parents=True, exist_ok=True)
        os.environ["INC_JOIN_STATE_DIR"] = str(self.state_dir)
        # dbt's artefacts and logs beside the Spark state, not in the project: processes with their own state
        # can use one project at the same time (make test runs two test processes at once)
        self.target_path = self.state_dir / "dbt-target"
        self.log_path = self.state_dir / "dbt-logs"
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        os.environ.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")

    def invoke(
        self,
        *args: str,
        vars: dict[str, Any] | None = None,
        today: Any | None = None,
        expect_success: bool = True,
        callbacks: Sequence[Any] = (),
    ):
        """Run one dbt command; raise with dbt's own message when it fails unexpectedly.

        ``today`` is the simulated current day of the integration project's input views. It travels as the
        environment variable INC_JOIN_TODAY rather than a var: a changed var makes dbt re-parse the whole
        project, a changed environment variable only the files that read it. ``callbacks`` receive every dbt
        event of the invocation (dbtRunner's callbacks)."""
        import json

        from dbt.cli.main import dbtRunner

        os.environ["INC_JOIN_TODAY"] = str(today) if today is not None else "9999-12-31"
        os.environ["DBT_TARGET_PATH"] = str(self.target_path_for(vars))
        os.environ["DBT_LOG_PATH"] = str(self.log_path)
        command = [*args, "--project-dir", str(self.project_dir), "--profiles-dir", str(self.project_dir)]
        if self.target and args and args[0] not in ("deps", "clean"):
            command += ["--target", self.target]
        if vars:
            command += ["--vars", json.dumps(vars, default=str)]
        if not self.write_json:
            command.append("--no-write-json")
        result = dbtRunner(callbacks=list(callbacks)).invoke(command)
        if expect_success and not result.success:
            raise RuntimeError(f"dbt {' '.join(args)} failed: {result.exception or _failures(result)}")
        return result

    def target_path_for(self, vars: dict[str, Any] | None) -> Path:
        """The target directory of an invocation with these vars: ``target_path`` without vars (or without
        ``parse_per_vars``), a sibling per set of vars otherwise. dbt re-parses the whole project when the vars
        differ from those its saved manifest (``partial_parse.msgpack`` in the target directory) was parsed with,
        6-12 s on 2 cores; with a directory per set of vars, an invocation whose vars came before parses only what
        changed since, as one with the same vars as the last would (tests alternate between no vars and a few
        sets)."""
        if not vars or not self.parse_per_vars:
            return self.target_path
        import hashlib
        import json

        key = hashlib.sha256(json.dumps(vars, default=str, sort_keys=True).encode()).hexdigest()[:12]
        return self.target_path.with_name(f"{self.target_path.name}-vars-{key}")

    def spark(self):
        """The SparkSession dbt's session connection uses (started here if dbt has not yet)."""
        from .local_spark import local_spark_session

        return local_spark_session(self.state_dir)

    def table(self, name: str, schema: str = "inc_join_it"):
        return self.spark().table(f"{schema}.{name}")


def _failures(result: Any) -> Sequence[str]:
    results = getattr(result.result, "results", None) or []
    return [
        f"{getattr(getattr(r, 'node', None), 'name', 'operation')}: {r.message}"
        for r in results
        if str(r.status) in ("error", "fail")
    ]


def failure_text(result: Any) -> str:
    """Everything dbt said about why an invocation failed, as one string."""
    return " ".join([str(result.exception or "")] + list(_failures(result)))
