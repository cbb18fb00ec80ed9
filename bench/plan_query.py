"""The decision of ``many_rows_per_key='auto'`` (spec §15: the macro ``_pairs_query``, its queries over A's sample
and B's last join window) alone, this checkout's against a base revision's, on B windows of few and of many keys.

Each revision runs in a worker process of its own (its own Spark, local[2], bench.revisions' workers) with its own
macros, interleaved round by round, with the load. Each shape's A holds the days a whole-history run samples (A's
first join window) and its B the days the decision counts (B's last join window of 13 days, lb 2, mw 10):
- ``dense``: 20 keys, 400 rows a day on each side (every sampled key meets many B rows);
- ``unique``: 8,000 rows a day, keys never repeated (the sample meets nothing);
- ``wide``: 1,000,000 rows a day in B's window, keys never repeated (what a run at scale asks).

    python -m bench.plan_query --base c350a73 --rounds 9
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .protocol import publish
from .revisions import REPO, ask, start, worktree

DATABASE = "inc_join_plan_query"
SHAPES = {"dense": (400, 20), "unique": (8000, None), "wide": (1_000_000, None)}  # B rows a day, keys (None: unique)
A_WINDOW = "RecDate BETWEEN DATE'2023-12-22' AND DATE'2024-01-12'"
B_WINDOW = "RecDate BETWEEN DATE'2024-12-18' AND DATE'2024-12-30'"


def _worker(state_dir: Path) -> None:
    """One revision's decision, timed shape by shape on request (a JSON line each: its seconds and counts)."""
    from harness.local_spark import local_spark_session

    spark = local_spark_session(state_dir)
    from dbt_inc_join.sql_text.macros import port
    from dbt_inc_join.sql_text.statement import relation, run

    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        a, b = generate(spark, json.loads(line)[0])
        frames = {"a": spark.table(a), "b0": spark.table(b)}
        side = {"relation": relation("b0"), "a_keys": ["k"], "b_keys": ["k"], "range_sql": B_WINDOW}
        decide = port(lambda text, frames=frames: run(text, frames))
        began = time.perf_counter()
        found = decide("_pairs_query", relation("a"), A_WINDOW, [side], True)
        print(json.dumps({"seconds": time.perf_counter() - began, "counts": dict(found)}), flush=True)


def generate(spark, shape: str) -> tuple[str, str]:
    """A's 22 days and B's 13 days of a shape, partitioned by RecDate (generated once); their names."""
    per_day, keys = SHAPES[shape]
    names = (f"{DATABASE}.{shape}_a", f"{DATABASE}.{shape}_b")
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {DATABASE}")
    key = "id" if keys is None else f"id % {keys}"
    for name, first, days, salt in ((names[0], "2023-12-22", 22, 0), (names[1], "2024-12-18", 13, 10**9)):
        if spark.catalog.tableExists(name):
            continue
        day = f"date_add(DATE'{first}', CAST(id DIV {per_day} AS INT))"
        shift = salt if keys is None else 0  # B's unique keys are none of A's
        rows = spark.range(days * per_day).selectExpr(f"{key} + {shift} AS k", f"{day} AS RecDate")
        rows.write.partitionBy("RecDate").saveAsTable(name)
    return names


def measure(base: str, rounds: int, say) -> list[dict]:
    module = "bench.plan_query"
    workers = {"base": start(worktree(base), "base", module), "head": start(REPO, "head", module)}
    results = []
    for shape in SHAPES:
        times: dict[str, list[float]] = {name: [] for name in workers}
        counts, loads = {}, []
        for number in range(rounds + 1):  # the first round generates the data and warms up
            loads.append(os.getloadavg()[0])
            for name in list(workers) if number % 2 else list(workers)[::-1]:
                found = ask(workers[name], [shape])
                counts[name] = found["counts"]
                if number:
                    times[name].append(found["seconds"])
            say(f"{shape} round {number}: {counts}")
        estimates = {name: _per_row(found) for name, found in counts.items()}
        assert estimates["base"] == estimates["head"], f"{shape}: the two decisions estimate differently: {counts}"
        ratios = [h / b for b, h in zip(times["base"], times["head"], strict=True)]
        results.append({"shape": shape, "counts": counts["head"], "load": (min(loads), max(loads)),
                        "times": {name: statistics.median(v) for name, v in times.items()},
                        "ratio": (statistics.median(ratios), min(ratios), max(ratios))})  # fmt: skip
    for worker in workers.values():
        worker.stdin.close()  # type: ignore[union-attr]
        worker.wait()
    return results


def _per_row(counts: dict) -> float:
    """What a decision estimates, B rows per sampled A row (the two revisions may sample different numbers of
    rows), to one decimal."""
    rows = counts.get("sample_rows_0") or 0
    return round(counts.get("pairs_0", 0) / rows, 1) if rows else 0.0


def report(results: list[dict], base: str, rounds: int, argv: Sequence[str]) -> str:
    lines = [
        "# The decision of many_rows_per_key='auto' against the base's",
        "",
        f"`python -m bench.plan_query {' '.join(argv)}` (bench/plan_query.py): the decision alone (`_pairs_query`, "
        f"each revision in a worker of its own), {rounds} interleaved rounds after a warm-up round, medians in "
        f"seconds; base `{base}`.",
        "",
        "| shape | B rows in the window | base | head | head / base | load | counts |",
        "|---|---:|---:|---:|---|---|---|",
    ]
    for result in results:
        low, high = result["load"]
        ratio, smallest, largest = result["ratio"]
        per_day = SHAPES[result["shape"]][0]
        lines.append(
            f"| {result['shape']} | {13 * per_day:,} | {result['times']['base']:.3f} | {result['times']['head']:.3f} "
            f"| {ratio:.2f} ({smallest:.2f}–{largest:.2f}) | {low:.1f}–{high:.1f} | {result['counts']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.plan_query")
    parser.add_argument("--base", default="HEAD~1")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.worker)
        return 0
    publish(report(measure(args.base, args.rounds, print), args.base, args.rounds, argv), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
