"""A dbt process for the run-ledger fault tests, on its own Spark state (``python -m tests.integration.ledger_driver``).

    ledger_driver STATE_DIR STEP...

    run:DAY            dbt run --select MODEL on the simulated DAY
    full:DAY           the same with --full-refresh
    redo:DAY:FROM      the same with --vars '{inc_join_redo_from: FROM}' (spec §14: the table redone from FROM on)
    halt:TABLE:K       arm the fault injector: the JVM halts when about to move the (K+1)-th staged partition
                       into TABLE (tests/integration/faults/HaltingFileSystem.java; test_ledger.py starts this
                       process with it as Spark's local file system); halt:TABLE:data:K and halt:TABLE:commit:K
                       halt a Delta or Iceberg write before its (K+1)-th data file or commit
    model:NAME         the model the later steps run (default ledger_left)

A separate process because a halted JVM cannot be used again, and because Derby allows one JVM per metastore.
Exit codes: 0 every step done; 1 a run failed without a halt; 137 the JVM halted in the step after halt (the
marker line says which step).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from harness.local_dbt import LocalDbtProject

from .conftest import PROJECT

MODEL = "ledger_left"
HALTED_MARKER = "ledger_driver: the JVM halted during "


def main(state_dir: str, *steps: str) -> int:
    project = LocalDbtProject(PROJECT, Path(state_dir), parse_per_vars=True, write_json=False)
    schema_dir = Path(state_dir) / "warehouse" / "inc_join_it.db"
    if not (schema_dir / "gen_a").exists():  # the first process builds the inputs (the tests ran `dbt deps`)
        project.invoke("seed", "--select", "gen_a", "gen_b", "--quiet")
    armed = False
    model = MODEL
    for step in steps:
        kind, _, argument = step.partition(":")
        if kind == "model":
            model = argument
            continue
        if kind == "halt":
            Path(os.environ["INC_JOIN_HALT_RULE"]).write_text(argument)
            armed = True
            continue
        extra = ["--full-refresh"] if kind == "full" else []
        variables = None
        if kind == "redo":
            argument, _, redo_from = argument.partition(":")
            variables = {"inc_join_redo_from": redo_from}
        result = project.invoke(
            "run",
            "--select",
            f"+{model}",
            "dbt_inc_join_runs",
            *extra,
            "--quiet",
            vars=variables,
            today=argument,
            expect_success=False,
        )
        if not result.success:
            if armed:
                print(HALTED_MARKER + step, flush=True)
                os._exit(137)  # what is left of this process is a dbt without its JVM
            print(f"ledger_driver: {step} failed: {result.exception}", flush=True)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
