"""The core of two revisions, interleaved in one run: its cost per call and per daily run, against the base.

Each revision runs in a worker process of its own (its own Spark, local[2]) with ``PYTHONPATH`` on that revision's
``src/`` (a detached git worktree under ``.pytest-tmp/``), and this checkout's ``bench`` for the data and the
cases. The parent alternates the workers, one round each at a time, so both see the same load; it reports the
medians, their ratio and the load average.

    python -m bench.revisions --base 7020500 --rounds 7 --out bench/results/core-call-cost.md
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path

from .protocol import long_running_jvm

REPO = Path(__file__).resolve().parent.parent
SPEC = dict(days=40, rows_per_day=20_000)
# (label, how, look_back_time, max_waiting_time, options): daily runs at the common settings and the default;
# options: inc_join's other arguments, and "whole" for a run over every day instead of the last
CASES = (
    ("left lb2 mw10", "left", 2, 10, {}),
    ("full lb2 mw10", "full", 2, 10, {}),
    ("left lb1 mw3", "left", 1, 3, {}),
    ("first lb2 mw10", "left", 2, 10, {"partner": "first"}),
    ("first whole, plain plan", "left", 2, 10, {"partner": "first", "many_rows_per_key": False, "whole": True}),
)


# ---------------------------------------------------------------------------------------------------------------
# The worker: one revision's core, timed case by case on request


def _worker(state_dir: Path) -> None:
    from harness.local_spark import local_spark_session

    from .data import COLUMNS, DataSpec, ensure_dataset, register_table

    spark = local_spark_session(state_dir)
    from dbt_inc_join import inc_join

    spec = DataSpec(**SPEC)
    dataset, _ = ensure_dataset(spark, spec, REPO / "bench" / ".cache")
    days = [spec.last_day - timedelta(days=i) for i in range(spec.days)]
    for side in ("a", "b"):
        register_table(spark, f"revisions_{side}", COLUMNS[side], dataset / side, days)
    a, b = spark.table("revisions_a"), spark.table("revisions_b")
    print(json.dumps({"ready": inc_join.__module__}), flush=True)
    for line in sys.stdin:
        label, how, lb, mw, options = json.loads(line)
        day: date = spec.last_day
        first = days[-1] if options.pop("whole", False) else day
        began = time.perf_counter()
        df = inc_join(
            a, b, join_cols="TrxId", inc_col="RecDate", how=how, look_back_time=lb, max_waiting_time=mw,
            output_window_start=first, output_window_end=day, **options,
        )  # fmt: skip
        called = time.perf_counter()
        df.write.format("noop").mode("overwrite").save()
        done = time.perf_counter()
        print(json.dumps({"call": called - began, "run": done - began}), flush=True)


# ---------------------------------------------------------------------------------------------------------------
# The parent


def worktree(revision: str) -> Path:
    """A detached worktree of ``revision`` under .pytest-tmp/ (made once, reused)."""
    sha = subprocess.run(["git", "rev-parse", "--short", revision], cwd=REPO, capture_output=True, text=True)
    path = REPO / ".pytest-tmp" / f"revision-{sha.stdout.strip()}"
    if not path.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(path), revision], cwd=REPO, check=True)
    return path


def start(source: Path, name: str, module: str = "bench.revisions") -> subprocess.Popen:
    """``module``'s worker (``--worker STATE``) on the revision checked out at ``source``, once it is ready."""
    state = REPO / ".pytest-tmp" / f"{module.split('.')[-1]}-{name}"
    state.mkdir(parents=True, exist_ok=True)
    long_running_jvm()  # both revisions' workers: a long-running job's JIT and heap
    env = dict(os.environ, PYTHONPATH=f"{source / 'src'}{os.pathsep}{REPO}")
    command = [sys.executable, "-m", module, "--worker", str(state)]
    worker = subprocess.Popen(command, cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    while True:  # Spark's and the data's start-up; the worker prints one JSON line when it is ready
        line = worker.stdout.readline() if worker.stdout else ""
        if not line:
            raise SystemExit(f"{module}: the worker of {name} ended before it was ready")
        if line.startswith('{"ready"'):
            return worker


def ask(worker: subprocess.Popen, case: Sequence) -> dict[str, float]:
    assert worker.stdin and worker.stdout
    worker.stdin.write(json.dumps(list(case)) + "\n")
    worker.stdin.flush()
    while not (line := worker.stdout.readline()).startswith("{"):
        if not line:
            raise SystemExit("bench.revisions: a worker ended")
    return json.loads(line)


def measure(base: str, rounds: int) -> dict:
    workers = {"base": start(worktree(base), "base"), "head": start(REPO, "head")}
    times: dict = {(name, case[0]): [] for name in workers for case in CASES}
    loads = []
    for round_ in range(rounds + 1):  # round 0 warms both up and is not counted
        for case in CASES:
            order = ("base", "head") if round_ % 2 else ("head", "base")
            for name in order:
                found = ask(workers[name], case)
                if round_:
                    times[(name, case[0])].append(found)
        loads.append(os.getloadavg()[0])
    for worker in workers.values():
        worker.stdin.close()  # type: ignore[union-attr]
        worker.wait()
    return {"times": times, "loads": loads}


def report(base: str, rounds: int, measured: dict) -> str:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    loads = measured["loads"]
    lines = [
        f"# The core's cost per call and per daily run: {head.stdout.strip()} against {base}",
        "",
        f"`python -m bench.revisions --base {base} --rounds {rounds}`: {SPEC['days']} days of "
        f"{SPEC['rows_per_day']:,} A rows, a daily window, parquet tables partitioned by day, local[2]; each "
        "revision in a worker of its own, the two interleaved (a warm-up round not counted); `whole`: a window "
        "over every day. `call`: inc_join's "
        "Python, returning the lazy DataFrame; `run`: the call and Spark's execution (a noop write). Medians in "
        f"seconds over {rounds} rounds; load average (1 min) {min(loads):.2f}-{max(loads):.2f} during the rounds.",
        "",
        "| case | call base | call head | ratio | run base | run head | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for case in CASES:
        med = {
            (name, part): statistics.median(t[part] for t in measured["times"][(name, case[0])])
            for name in ("base", "head")
            for part in ("call", "run")
        }
        cells = []
        for part in ("call", "run"):
            cells += [f"{med[('base', part)]:.3f}", f"{med[('head', part)]:.3f}"]
            cells.append(f"{med[('head', part)] / med[('base', part)]:.2f}")
        lines.append(f"| {case[0]} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.revisions", description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="HEAD~1", help="the revision to compare with (default HEAD~1)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", type=Path, help="write the Markdown report here (else print it)")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.worker)
        return 0
    text = report(args.base, args.rounds, measure(args.base, args.rounds))
    if args.out:
        args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
