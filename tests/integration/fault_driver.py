"""A dbt process for the fault tests, on its own Spark state (run as ``python -m tests.integration.fault_driver``).

    fault_driver STATE_DIR kill DAY...   run gen_left day by day; on the last DAY, SIGKILL this very process as
                                         soon as Spark has written a data file of the new output (mid-write)
    fault_driver STATE_DIR run DAY...    run gen_left day by day

A separate process group because the kill must take the JVM with it, and because Derby allows one JVM per
metastore. Exit codes: 0 done, 3 the write finished before the kill could happen (the test then fails).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

from harness.local_dbt import LocalDbtProject

from .conftest import PROJECT

MODEL = "gen_left"
KILLED_MARKER = "fault_driver: SIGKILL during the write of "


def staged_data_files(table_dir: Path) -> set[Path]:
    """The parquet files Spark is writing for uncommitted jobs (dynamic partition overwrite stages its output
    under ``.spark-staging-*``, other writes under ``_temporary``), and those a killed job left there."""
    return {
        Path(root) / name
        for root, _, files in os.walk(table_dir)
        if ".spark-staging" in root or "_temporary" in root
        for name in files
        if name.startswith("part-")
    }


def kill_when_writing(table_dir: Path) -> None:
    """Watch the table's directory and SIGKILL this process group once a staged file appears: Python and its
    Spark JVM die together, as when a container or the OOM killer stops a dbt run. (Killing only Python would
    let the JVM, which exits when its parent's pipe closes, finish the write on its way out.)"""

    def watch() -> None:
        while True:
            found = next(iter(staged_data_files(table_dir)), None)
            if found is not None:
                print(KILLED_MARKER + str(found.relative_to(table_dir)), flush=True)
                os.killpg(os.getpgid(0), signal.SIGKILL)
            time.sleep(0.001)

    threading.Thread(target=watch, daemon=True).start()


def main(state_dir: str, mode: str, *days: str) -> int:
    project = LocalDbtProject(PROJECT, Path(state_dir), write_json=False)
    schema_dir = Path(state_dir) / "warehouse" / "inc_join_it.db"
    if not (schema_dir / "gen_a").exists():  # the first process builds the inputs (the tests ran `dbt deps`)
        project.invoke("seed", "--select", "gen_a", "gen_b", "--quiet")
    table_dir = schema_dir / MODEL
    for index, day in enumerate(days):
        if mode == "kill" and index == len(days) - 1:
            kill_when_writing(table_dir)
        project.invoke("run", "--select", f"+{MODEL}", "--quiet", today=day)
    return 3 if mode == "kill" else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
