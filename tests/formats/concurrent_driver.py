"""A dbt process of tests/formats/test_concurrent_runs.py (``python -m tests.formats.concurrent_driver``).

    concurrent_driver STATE_DIR NAME STEP...

    setup:DAY:NEXT  seed gen_a and gen_b and run ledger_left (with its inputs and the ledger) on DAY, then its input
                    views as of NEXT: the state both concurrent runs start from
    warm:DAY        start Spark and let dbt parse the project for DAY (while the other process sets up)
    arm             arm the barrier (tests/formats/barrier/BarrierFileSystem.java, this process's local file system):
                    the next write into ledger_left waits until the other process reaches the same point
    run:DAY         dbt run --select ledger_left on DAY (its post-hook records the run in the ledger)
    mark:FLAG       create the file FLAG in the barrier folder
    await:FLAG      wait until the file FLAG is in the barrier folder
    dump:FOLDER     write ledger_left, the ledger, gen_a, gen_b and the table's commits as parquet under FOLDER (read
                    by the test)

Every process has its own dbt target folder; the Spark state folder (warehouse) is shared, and so is the metastore
(a Derby network server: INC_JOIN_METASTORE_URL). Exit code 0 when every run step succeeded, 1 when one failed (the
line after FAILED_MARKER gives dbt's message; the later steps still run).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from harness.local_dbt import LocalDbtProject, failure_text
from harness.table_formats import table_format

from ..integration.conftest import PROJECT

# the model both processes run: ledger_left (insert_overwrite), or ledger_replace (merge) on Iceberg
MODEL = os.environ.get("INC_JOIN_CONCURRENT_MODEL", "ledger_left")
SUCCEEDED_MARKER = "concurrent_driver: the run succeeded: "
FAILED_MARKER = "concurrent_driver: the run failed: "
TABLES = {"table": f"inc_join_it.{MODEL}", "ledger": "inc_join_it.dbt_inc_join_runs",
          "gen_a": "inc_join_it.gen_a", "gen_b": "inc_join_it.gen_b"}  # fmt: skip


def barrier_folder() -> Path:
    return Path(os.environ["INC_JOIN_BARRIER_RULE"]).parent


def wait_for(flag: Path, seconds: float = 600) -> None:
    deadline = time.monotonic() + seconds
    while not flag.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"concurrent_driver: {flag} did not appear within {seconds} s")
        time.sleep(0.2)


def main(state_dir: str, name: str, *steps: str) -> int:
    project = LocalDbtProject(PROJECT, Path(state_dir), parse_per_vars=True, write_json=False)
    project.target_path = project.state_dir / f"dbt-target-{name}"  # two dbt processes, one state folder
    project.log_path = project.state_dir / f"dbt-logs-{name}"
    code = 0
    for step in steps:
        print(f"concurrent_driver: {time.strftime('%H:%M:%S')} {name} {step}", flush=True)
        kind, _, argument = step.partition(":")
        if kind == "setup":
            day, _, next_day = argument.partition(":")
            project.invoke("build", "--select", "gen_a", "gen_b", f"+{MODEL}", "dbt_inc_join_runs",
                           "--resource-type", "seed", "--resource-type", "model", "--quiet", today=day)  # fmt: skip
            project.invoke("run", "--select", "stg_gen_a", "stg_gen_b", "--quiet", today=next_day)
        elif kind == "warm":
            project.spark()
            project.invoke("parse", "--quiet", today=argument)
        elif kind == "arm":
            Path(os.environ["INC_JOIN_BARRIER_RULE"]).write_text(MODEL)
        elif kind == "mark":
            (barrier_folder() / argument).touch()
        elif kind == "await":
            wait_for(barrier_folder() / argument)
        elif kind == "run":
            result = project.invoke("run", "--select", MODEL, "--quiet", today=argument, expect_success=False)
            if result.success:
                print(SUCCEEDED_MARKER + step, flush=True)
            else:
                print(FAILED_MARKER + step + "\n" + failure_text(result), flush=True)
                code = 1
        elif kind == "dump":
            spark = project.spark()
            for key, table in TABLES.items():
                spark.table(table).write.parquet(str(Path(argument) / key))
            # the table's commits: Delta's log, Iceberg's snapshots
            table = TABLES["table"]
            if table_format() == "iceberg":
                history = spark.sql(f"SELECT committed_at, snapshot_id, parent_id, operation FROM {table}.snapshots")
            else:
                history = spark.sql(f"DESCRIBE HISTORY {table}").select("version", "timestamp", "operation")
            history.write.parquet(str(Path(argument) / "history"))
        else:
            raise ValueError(f"concurrent_driver: unknown step {step!r}")
    return code


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
