"""The daily run with the open state (spec §18, issue 74) against today's read, in one process, interleaved.

A and B are generated here, partitioned by day: every A row has one partner in B except 1 %; 90 % of partners
arrive the same day, the rest 2 days before to 10 days after (uniform). The daily run is over the last day, at
look_back_time 2 and max_waiting_time 10; the state it reads is the one a run over the days before leaves.
With ``--partner many``: inc_join_many of A and two such inputs (B, and C drawn the same way), each taking its
first partner at the same windows. Per (table format, partner): the rows each scan read (Spark's scan metrics,
numOutputRows of every file scan of the executed plans, the cached relation's own scans included once) against the
day's new rows of the inputs, and the wall time of the run (both statements of a model that keeps the state: the
output and the state written to the noop sink from one cached relation) against today's single statement; and, as
the floor of that ratio, the output's statement alone (reading the state, without the cache or the state's
statement).

    python -m bench.open_state --rows 20000 --rounds 5 [--format delta] --out bench/results/open-state.md
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path

from .metrics import summarize
from .protocol import publish, standalone_spark

LOOK_BACK, MAX_WAIT, DAYS = 2, 10, 16
LAST_DAY = date(2025, 6, 30)
NEVER, SAME_DAY = 0.01, 0.90  # shares of A rows: no partner; the partner the same day
DATABASE = "inc_join_open_bench"


def _uniform(column: str, salt: int) -> str:
    """A number in [0, 1) from a hash of the column: deterministic data."""
    return f"(pmod(xxhash64({column}, {salt}), 1000000) / 1000000.0)"


def generate(spark, rows: int, table_format: str) -> tuple[str, str, str]:
    """A, B and a second input C (for inc_join_many: the same shape, other draws) as tables of the format,
    partitioned by RecDate; their names."""
    first = LAST_DAY - timedelta(days=DAYS - 1)
    names = tuple(f"{DATABASE}.{side}_{table_format}_{rows}" for side in ("a", "b", "c"))
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {DATABASE}")
    if all(spark.catalog.tableExists(name) for name in names):
        return names  # type: ignore[return-value]
    a = spark.range(0, DAYS * rows).selectExpr(
        "id AS k", f"date_add(DATE'{first}', CAST(id DIV {rows} AS INT)) AS RecDate", "id % 97 AS v"
    )
    frames = [a]
    for salt in (1, 4):
        late = f"CAST(floor({_uniform('id', salt + 2)} * 12) AS INT) - 2"  # -2 .. 9, then 0 moved to 10
        delta = (
            f"CASE WHEN {_uniform('id', salt + 1)} < {SAME_DAY / (1 - NEVER)} THEN 0 "
            f"ELSE IF({late} >= 0, {late} + 1, {late}) END"
        )
        frames.append(
            spark.range(0, DAYS * rows)
            .where(f"{_uniform('id', salt)} >= {NEVER}")
            .selectExpr(
                "id AS k", f"date_add(DATE'{first}', CAST(id DIV {rows} AS INT) + {delta}) AS RecDate", "id % 89 AS w"
            )
            .where(f"RecDate <= DATE'{LAST_DAY}'")
        )
    for name, frame in zip(names, frames, strict=True):
        frame.write.format(table_format).partitionBy("RecDate").mode("overwrite").saveAsTable(name)
    return names  # type: ignore[return-value]


class _Join:
    """The runs of one case, inc_join (``partner`` all or first) or inc_join_many ('many': two inputs, each its
    first partner): the run over a window without the state, with it (the three lazy frames of one rendering),
    and the output's statement alone."""

    def __init__(self, spark, names: Sequence[str], partner: str):
        from dbt_inc_join.orchestration.join import prepare_join
        from dbt_inc_join.orchestration.many import input_plans, many_open_state_kind, prepare_many
        from dbt_inc_join.orchestration.render import open_state_kind
        from dbt_inc_join.plan.plan_choice import choose_join_plan
        from dbt_inc_join.plan.window import OutputWindow

        a, b, c = (spark.table(name) for name in names)
        self.window = OutputWindow(LAST_DAY, LAST_DAY)
        if partner == "many":
            inputs = [dict(df=frame, name=name, join_cols="k", look_back_time=LOOK_BACK, max_waiting_time=MAX_WAIT,
                           many_rows_per_key=False) for frame, name in ((b, "pay"), (c, "ship"))]  # fmt: skip
            self.many = prepare_many(a, inputs)
            self.kind = many_open_state_kind(self.many)[0]
            self.plans = input_plans(self.many, LAST_DAY, LAST_DAY)  # forced plans: no query
            self.inputs = {"a": names[0], "b": names[1], "c": names[2]}
            return
        extra = {} if partner == "all" else {"partner": "first"}
        self.many = None
        self.prepared = prepare_join(a, b, join_cols="k", look_back_time=LOOK_BACK, max_waiting_time=MAX_WAIT,
                                     many_rows_per_key=False, **extra)  # fmt: skip
        self.kind = open_state_kind(self.prepared)[0]
        self.choice = choose_join_plan(self.prepared, self.window)  # many_rows_per_key=False: no query
        self.inputs = {"a": names[0], "b": names[1]}

    def state_before(self):
        """The state a run over the days before the last leaves (lazy)."""
        from dbt_inc_join.orchestration.many import render_many
        from dbt_inc_join.orchestration.render import OpenState, render_join
        from dbt_inc_join.plan.window import OutputWindow

        first, before = LAST_DAY - timedelta(days=DAYS - 1), LAST_DAY - timedelta(days=1)
        if self.many is not None:
            return render_many(self.many, first, before, open_state=OpenState(self.kind), output="state")
        return render_join(self.prepared, OutputWindow(first, before), open_state=OpenState(self.kind),
                           output="state")  # fmt: skip

    def today(self):
        from dbt_inc_join.orchestration.many import render_many
        from dbt_inc_join.orchestration.render import render_join

        if self.many is not None:
            return render_many(self.many, LAST_DAY, LAST_DAY, self.plans)
        return render_join(self.prepared, self.window, self.choice)

    def with_state(self, state_rows) -> dict:
        from dbt_inc_join.orchestration.many import render_many_with_state
        from dbt_inc_join.orchestration.render import OpenState, render_with_state

        given = OpenState(self.kind, state_rows)
        if self.many is not None:
            return render_many_with_state(self.many, LAST_DAY, LAST_DAY, given, self.plans)
        return render_with_state(self.prepared, self.window, given, self.choice)

    def output_alone(self, state_rows):
        from dbt_inc_join.orchestration.many import render_many
        from dbt_inc_join.orchestration.render import OpenState, render_join

        given = OpenState(self.kind, state_rows)
        if self.many is not None:
            return render_many(self.many, LAST_DAY, LAST_DAY, self.plans, open_state=given)
        return render_join(self.prepared, self.window, self.choice, given)


def _scanned(summary, tables: dict[str, str]) -> dict[str, int]:
    """Rows read per input (by its table's short name)."""
    found = {role: 0 for role in tables}
    for scan in summary.scans:
        for role, table in tables.items():
            if scan.table == table.split(".")[-1]:
                found[role] += scan.rows
    return found


def _run(join: _Join, state_rows, with_state: bool) -> tuple[float, dict]:
    """One daily run, timed from its rendering on; the rows its scans read."""
    began = time.perf_counter()
    if not with_state:
        execution = join.today()._jdf.queryExecution()
        execution.toRdd().count()
        return time.perf_counter() - began, summarize(execution.executedPlan(), into_cache=True)
    frames = join.with_state(state_rows)
    kept = frames["kept"].persist()
    try:
        output = frames["rows"]._jdf.queryExecution()
        output.toRdd().count()
        state = frames["state"]._jdf.queryExecution()
        state.toRdd().count()
        seconds = time.perf_counter() - began
    finally:
        kept.unpersist()
    # the cached relation's scans once (through the output's plan), the state's own statement reads the cache
    summary = summarize(output.executedPlan(), into_cache=True)
    extra = summarize(state.executedPlan(), into_cache=False)
    summary.scans.extend(extra.scans)
    return seconds, summary


def _output_alone(join: _Join, state_rows) -> float:
    """The output's statement of a run with the state, alone: what the state's run costs without its cache and
    its second statement."""
    began = time.perf_counter()
    join.output_alone(state_rows)._jdf.queryExecution().toRdd().count()
    return time.perf_counter() - began


def measure(spark, rows: int, table_format: str, partner: str, rounds: int, say) -> dict:
    names = generate(spark, rows, table_format)
    join = _Join(spark, names, partner)
    state_name = f"{DATABASE}.state_{table_format}_{rows}_{partner}"
    join.state_before().write.format(table_format).mode("overwrite").saveAsTable(state_name)
    state_rows = spark.table(state_name)
    new_rows = sum(spark.table(table).where(f"RecDate = DATE'{LAST_DAY}'").count() for table in join.inputs.values())
    tables = {**join.inputs, "state": state_name}
    times: dict[str, list[float]] = {"today": [], "state": [], "output": []}
    loads, scans = [], {}
    for number in range(rounds + 1):  # the first round warms up
        order = ["today", "state", "output"] if number % 2 == 0 else ["output", "state", "today"]
        for variant in order:
            loads.append(os.getloadavg()[0])
            if variant == "output":
                seconds = _output_alone(join, state_rows)
            else:
                seconds, summary = _run(join, state_rows, variant == "state")
                scans[variant] = _scanned(summary, tables)
            if number:
                times[variant].append(seconds)
            say(f"{table_format} {rows}/day partner={partner} {variant}: {seconds:.2f} s {scans.get(variant, '')}")
    return {"format": table_format, "rows": rows, "partner": partner, "new_rows": new_rows, "scans": scans,
            "times": {k: statistics.median(v) for k, v in times.items()}, "load": (min(loads), max(loads))}  # fmt: skip


def report(results: Sequence[dict], argv: Sequence[str]) -> str:
    lines = [
        "# The daily run with the open state against today's read",
        "",
        f"`python -m bench.open_state {' '.join(argv)}`: lb {LOOK_BACK}, mw {MAX_WAIT}, {DAYS} days of history, "
        f"the run over the last day; {int(SAME_DAY * 100)} % of partners the same day, {int(NEVER * 100)} % never. "
        "Rows read are Spark's scan metrics; times the median of the rounds, interleaved (bench/open_state.py).",
        "",
        "| format | A rows/day | partner | read today ÷ new | read with state ÷ new (A + B [+ C] + state) | "
        "time state ÷ today | today | with state | its output alone ÷ today | load |",
        "|---|---:|---|---:|---|---:|---:|---:|---:|---|",
    ]
    for r in results:
        today, state = r["scans"]["today"], r["scans"]["state"]
        new = r["new_rows"]
        ratio = sum(state.values()) / new
        parts = " + ".join(f"{value / new:.2f}" for value in state.values())
        lines.append(
            f"| {r['format']} | {r['rows']:,} | {r['partner']} | {sum(today.values()) / new:.2f} | {ratio:.2f} "
            f"({parts}) | {r['times']['state'] / r['times']['today']:.2f} | {r['times']['today']:.2f} s | "
            f"{r['times']['state']:.2f} s | {r['times']['output'] / r['times']['today']:.2f} | "
            f"{r['load'][0]:.1f}–{r['load'][1]:.1f} |"
        )
    return "\n".join(lines) + "\n"


def add_partner_option(parser: argparse.ArgumentParser) -> None:
    """--partner, of this benchmark and bench/open_state_dbt.py."""
    many = "inc_join_many of two inputs, each its first partner"
    parser.add_argument("--partner", nargs="+", default=["all", "first"], choices=("all", "first", "many"),
                        help=f"inc_join's partner, or 'many': {many}")  # fmt: skip


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.open_state")
    parser.add_argument("--rows", type=int, nargs="+", default=[20000], help="A rows per day (one or more sizes)")
    parser.add_argument("--format", default="parquet", choices=("parquet", "delta"))
    add_partner_option(parser)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.format != "parquet":
        os.environ["INC_JOIN_TABLE_FORMAT"] = args.format
    spark, _ = standalone_spark("inc-join-open-bench-")
    results = [measure(spark, rows, args.format, partner, args.rounds, print) for rows in args.rows
               for partner in args.partner]  # fmt: skip
    publish(report(results, argv), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
