"""The query of ``many_rows_per_key='auto'`` (spec §15) alone, this checkout's against a base revision's, on B
windows of few and of many keys, interleaved in one process, with the load.

Each shape's A holds the days a whole-history run samples (A's first join window) and its B the days the query
counts (B's last join window of 13 days, lb 2, mw 10):
- ``dense``: 20 keys, 400 rows a day on each side (every sampled key meets many B rows);
- ``unique``: 8,000 rows a day, keys never repeated (the sample meets nothing);
- ``wide``: 1,000,000 rows a day in B's window, keys never repeated (what a run at scale asks).
The base's text is rendered by its own macros (a detached worktree under .pytest-tmp/, as bench.revisions).

    python -m bench.plan_query --base HEAD~1 --rounds 9
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .protocol import publish, standalone_spark
from .revisions import REPO, worktree

DATABASE = "inc_join_plan_query"
SHAPES = {"dense": (400, 20), "unique": (8000, None), "wide": (1_000_000, None)}  # B rows a day, keys (None: unique)
A_WINDOW = "RecDate BETWEEN DATE'2023-12-22' AND DATE'2024-01-12'"
B_WINDOW = "RecDate BETWEEN DATE'2024-12-18' AND DATE'2024-12-30'"
RENDER = (
    "from dbt_inc_join.sql_text.statement import relation, rendered\n"
    "side = {'relation': relation('b0'), 'a_keys': ['k'], 'b_keys': ['k'], 'range_sql': %r}\n"
    "print(rendered('_pairs_sample_sql', relation('a'), %r, [side], False))\n"
)


def query_text(root: Path) -> str:
    """The query over A's sample window and B's window, rendered by the macros of the checkout at ``root``."""
    env = dict(os.environ, PYTHONPATH=str(root / "src"))
    code = RENDER % (B_WINDOW, A_WINDOW)
    return subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout


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


def measure(spark, texts: dict[str, str], rounds: int, say) -> list[dict]:
    results = []
    for shape in SHAPES:
        a, b = generate(spark, shape)
        spark.table(a).createOrReplaceTempView("__inc_join_input_a__")
        spark.table(b).createOrReplaceTempView("__inc_join_input_b0__")
        times: dict[str, list[float]] = {name: [] for name in texts}
        counts, loads = {}, []
        for number in range(rounds + 1):  # the first round warms up
            loads.append(os.getloadavg()[0])
            for name in list(texts) if number % 2 else list(texts)[::-1]:
                began = time.perf_counter()
                counts[name] = spark.sql(texts[name]).collect()[0].asDict()
                if number:
                    times[name].append(time.perf_counter() - began)
            say(f"{shape} round {number}: {counts}")
        assert counts["base"] == counts["head"], f"{shape}: the two queries count differently: {counts}"
        ratios = [h / b for b, h in zip(times["base"], times["head"], strict=True)]
        results.append({"shape": shape, "counts": counts["head"], "load": (min(loads), max(loads)),
                        "times": {name: statistics.median(v) for name, v in times.items()},
                        "ratio": (statistics.median(ratios), min(ratios), max(ratios))})  # fmt: skip
    return results


def report(results: list[dict], base: str, rounds: int, argv: Sequence[str]) -> str:
    lines = [
        "# The query of many_rows_per_key='auto' against the base's",
        "",
        f"`python -m bench.plan_query {' '.join(argv)}` (bench/plan_query.py): the query alone, {rounds} interleaved "
        f"rounds after a warm-up round, medians in seconds; base `{base}`.",
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
    args = parser.parse_args(argv)
    texts = {"base": query_text(worktree(args.base)), "head": query_text(REPO)}
    spark, _ = standalone_spark("inc-join-plan-query-")
    publish(report(measure(spark, texts, args.rounds, print), args.base, args.rounds, argv), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
