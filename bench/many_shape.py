"""The shapes suite (`--suite shapes`, beside `enrich`): inc_join_many over the whole history with default
arguments, on shapes the enrich suite's fixed inputs do not cover, against the query a user would write by hand,
interleaved, with what each plan did (scans, exchanges, joins). ``python -m bench.many_shape --shape <shape>`` runs
one shape on its own.

A: a year of days of orders. Two inputs on the order key:
- payments, 0 to 3 per order (5 % of orders none), 2 days before to 4 after the order: the first partner by
  ``pay_id`` (lb 2, mw 4);
- events, 1 to 9 per order, 1 day before to 2 after: ``count(*)`` and ``sum(val)`` (lb 1, mw 2).
The shapes (``--shape``), each with what its hand query assumes that the package cannot:
- ``orders``: one row per order key. The hand query assumes unique keys in A (it joins A's rows to the inputs
  and groups by key and day).
- ``several``: 1 to 3 rows per order key, the second on the order's day, the third five days later. The hand
  query takes A's distinct (key, day) first, as the package does: it assumes nothing about the keys.
- ``inner``: payments for 40 % of orders only, and the model keeps the paid orders (``JoinType_pay <> 4``):
  ``how = 'inner'`` for that input through ``partner = 'first'``; the events' aggregates with ``null_fill``
  0. The hand query assumes unique keys, as for ``orders``.
Every hand query places no row: it returns every A row, where the package keeps the rows settled by the end, so
the suite reports how their rows differ rather than asking them to agree. The suite also runs the hand queries of
``orders`` and ``inner`` over A's distinct (key, day) (``hand_distinct``): they then assume nothing about A's keys,
and do what inc_join_many must for an aggregate input (count a partner once per key and arrival).

    python -m bench.many_shape --shape orders --rows-per-day 3014 --rounds 5
    python -m bench.run --suite shapes
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from . import protocol
from .labels import LABELS
from .metrics import summarize
from .protocol import Cell, Suite, Target, publish, ratio_target, standalone_spark, types_text

DAYS = 365
FIRST = date(2025, 1, 1)
LAST = FIRST + timedelta(days=DAYS - 1)
DATABASE = "inc_join_many_shape"


def _uniform(column: str, salt: int) -> str:
    return f"(pmod(xxhash64({column}, {salt}), 1000000) / 1000000.0)"


SHAPES = {
    "orders": "one row per order key",
    "several": "1 to 3 rows per order key (two on the order's day, one five days later)",
    "inner": "payments for 40 % of orders, the paid orders kept, the events' aggregates filled with 0",
}
TARGET = 1.1  # inc_join_many / hand, every shape (issue 75)


def table_names(shape: str, per_day: int, days: int = DAYS) -> dict[str, str]:
    suffix = f"{per_day}" if days == DAYS else f"{per_day}_{days}d"
    return {side: f"{DATABASE}.{shape}_{side}_{suffix}" for side in ("a", "pay", "ev")}


def generate(spark, shape: str, per_day: int, days: int = DAYS) -> dict[str, str]:
    """The three tables of a shape, partitioned by RecDate (generated once per shape and size); their names."""
    names = table_names(shape, per_day, days)
    last = FIRST + timedelta(days=days - 1)
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {DATABASE}")
    if all(spark.catalog.tableExists(name) for name in names.values()):
        return names
    day = f"date_add(DATE'{FIRST}', CAST(id DIV {per_day} AS INT))"
    orders = spark.range(days * per_day)
    a = orders.selectExpr("id AS k", f"{day} AS RecDate", "id % 1000 AS amount")
    if shape == "several":
        copies = "explode(sequence(0, CAST(pmod(xxhash64(k, 4), 3) AS INT))) AS j"
        a = a.selectExpr("*", copies).selectExpr("k", "if(j = 2, date_add(RecDate, 5), RecDate) AS RecDate",
                                                 "amount + j AS amount")  # fmt: skip
    paid = 0.6 if shape == "inner" else 0.05
    pay = (
        orders.where(f"{_uniform('id', 1)} >= {paid}")
        .selectExpr("id AS k", "explode(sequence(1, 1 + CAST(id % 3 AS INT))) AS j", f"{day} AS d")
        .selectExpr(
            "k",
            "k * 10 + j AS pay_id",
            "j * 7 AS pay_amount",
            f"date_add(d, CAST(floor({_uniform('k * 10 + j', 2)} * 7) AS INT) - 2) AS RecDate",
        )
    )
    ev = orders.selectExpr("id AS k", "explode(sequence(0, CAST(id % 9 AS INT))) AS j", f"{day} AS d").selectExpr(
        "k", "j AS val", f"date_add(d, CAST(floor({_uniform('k * 10 + j', 3)} * 4) AS INT) - 1) AS RecDate"
    )
    for side, frame in (("a", a), ("pay", pay), ("ev", ev)):
        within = frame.where(f"RecDate BETWEEN DATE'{FIRST}' AND DATE'{last}'")
        within.write.partitionBy("RecDate").mode("overwrite").saveAsTable(names[side])
    return names


def ours(spark, shape: str, names: dict[str, str], last: date = LAST):
    from dbt_inc_join import inc_join_many

    payments = dict(df=spark.table(names["pay"]), name="pay", join_cols="k", look_back_time=2, max_waiting_time=4,
                    partner="first", partner_order_by="pay_id")  # fmt: skip
    events = dict(df=spark.table(names["ev"]), name="ev", join_cols="k", look_back_time=1, max_waiting_time=2,
                  aggregate={"n": "count(*)", "s": "sum(val)"})  # fmt: skip
    if shape == "inner":
        events["null_fill"] = {"n": 0, "s": 0}
    enriched = inc_join_many(spark.table(names["a"]), [payments, events], output_window_start=FIRST,
                             output_window_end=last)  # fmt: skip
    return enriched.where("JoinType_pay <> 4") if shape == "inner" else enriched


def hand(spark, shape: str, names: dict[str, str], distinct: bool = False):
    """The shape's query by hand: A's rows against each input, or (``several``, or ``distinct``) A's distinct key
    and day, which assumes nothing about A's keys."""
    a, pay, ev = names["a"], names["pay"], names["ev"]
    keys = f"(SELECT DISTINCT k, RecDate FROM {a})" if shape == "several" or distinct else a
    paid = "JOIN" if shape == "inner" else "LEFT JOIN"
    total = "coalesce(g.s, 0)" if shape == "inner" else "g.s"  # inner: the events' null_fill
    return spark.sql(f"""
        WITH first_pay AS (
          SELECT k, a_day, pay_id, pay_amount, pay_day FROM (
            SELECT a.k, a.RecDate AS a_day, p.pay_id, p.pay_amount, p.RecDate AS pay_day,
                   row_number() OVER (PARTITION BY a.k, a.RecDate ORDER BY p.pay_id) AS rn
            FROM {keys} a JOIN {pay} p
              ON a.k = p.k AND p.RecDate BETWEEN date_sub(a.RecDate, 2) AND date_add(a.RecDate, 4))
          WHERE rn = 1),
        events AS (
          SELECT a.k, a.RecDate AS a_day, count(*) AS n, sum(e.val) AS s
          FROM {keys} a JOIN {ev} e ON a.k = e.k AND e.RecDate BETWEEN date_sub(a.RecDate, 1) AND date_add(a.RecDate, 2)
          GROUP BY a.k, a.RecDate)
        SELECT a.*, f.pay_id, f.pay_amount, f.pay_day, coalesce(g.n, 0) AS n, {total} AS s
        FROM {a} a {paid} first_pay f ON a.k = f.k AND a.RecDate = f.a_day
        LEFT JOIN events g ON a.k = g.k AND a.RecDate = g.a_day""")


def _run(make) -> tuple[float, dict]:
    """One run, timed from building the query (the plan choice's queries included) to its last row."""
    began = time.perf_counter()
    execution = make()._jdf.queryExecution()
    execution.toRdd().count()
    seconds = time.perf_counter() - began
    summary = summarize(execution.executedPlan())
    scans: dict[str, int] = {}
    for scan in summary.scans:
        scans[scan.table] = scans.get(scan.table, 0) + 1
    shuffles, broadcasts, reused = summary.exchanges("Shuffle", "Broadcast", "Reused")
    return seconds, {"scans": scans, "shuffles": shuffles, "broadcasts": broadcasts, "reused": reused}


def measure(spark, shape: str, per_day: int, rounds: int, say) -> dict:
    names = generate(spark, shape, per_day)
    variants = {"inc_join_many": lambda: ours(spark, shape, names), "hand": lambda: hand(spark, shape, names)}
    times: dict[str, list[float]] = {name: [] for name in variants}
    plans, loads = {}, []
    for number in range(rounds + 1):  # the first round warms up
        loads.append(os.getloadavg()[0])
        for name in list(variants) if number % 2 else list(variants)[::-1]:
            seconds, plans[name] = _run(variants[name])
            if number:
                times[name].append(seconds)
            say(f"round {number} {name}: {seconds:.2f} s {plans[name]}")
    ratios = [ours_s / hand_s for ours_s, hand_s in zip(times["inc_join_many"], times["hand"], strict=True)]
    rows = {name: make().count() for name, make in variants.items()}
    return {"shape": shape, "per_day": per_day, "rows": rows, "a_rows": spark.table(names["a"]).count(),
            "times": {k: statistics.median(v) for k, v in times.items()}, "plans": plans,
            "ratio": (statistics.median(ratios), min(ratios), max(ratios)), "load": (min(loads), max(loads)),
            "rounds": rounds}  # fmt: skip


def report(result: dict, argv: Sequence[str]) -> str:
    low, high = result["load"]
    ratio, smallest, largest = result["ratio"]
    lines = [
        f"# inc_join_many on the shape `{result['shape']}` against the hand query",
        "",
        f"`python -m bench.many_shape {' '.join(argv)}` (bench/many_shape.py): {SHAPES[result['shape']]}; "
        f"{result['per_day']:,} orders a day over {DAYS} days ({result['a_rows']:,} A rows), the whole history, "
        f"medians of {result['rounds']} interleaved rounds, load {low:.1f}–{high:.1f}.",
        "",
        "| variant | time | rows | scans per table | shuffles | broadcasts | reused exchanges |",
        "|---|---:|---:|---|---:|---:|---:|",
    ]
    for name, seconds in result["times"].items():
        plan = result["plans"][name]
        scans = ", ".join(f"{table.split('_')[-2]} {n}" for table, n in sorted(plan["scans"].items()))
        lines.append(f"| {name} | {seconds:.2f} s | {result['rows'][name]:,} | {scans} | {plan['shuffles']} | "
                     f"{plan['broadcasts']} | {plan['reused']} |")  # fmt: skip
    verdict = "pass" if ratio <= TARGET else "miss"
    lines += ["", f"inc_join_many / hand: {ratio:.2f} ({smallest:.2f}–{largest:.2f}); goal ≤ {TARGET}: {verdict}."]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.many_shape")
    parser.add_argument("--shape", choices=SHAPES, default="orders")
    parser.add_argument("--rows-per-day", type=int, default=3014)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    spark, _ = standalone_spark("inc-join-many-shape-")
    publish(report(measure(spark, args.shape, args.rows_per_day, args.rounds, print), argv), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


@dataclass(frozen=True)
class ShapeCase:
    """One shape over its whole history."""

    shape: str
    per_day: int
    days: int
    window: str = "whole"
    fingerprint = "sum(pmod(xxhash64(k, amount), 1000000007))"  # columns both variants return

    @property
    def label(self) -> str:
        return f"shape {self.shape}"

    @property
    def names(self) -> dict[str, str]:
        return table_names(self.shape, self.per_day, self.days)

    @property
    def last(self) -> date:
        return FIRST + timedelta(days=self.days - 1)


VARIANTS = {
    "core": "inc_join_many with default arguments (payments: partner first by pay_id, lb 2, mw 4; events: count(*) "
    "and sum(val), lb 1, mw 2), the whole history",
    "hand": "the query by hand: row_number over the payments joined to A, a join and GROUP BY over the events, both "
    "joined back to A (what each shape's hand query assumes: bench/many_shape.py)",
    "hand_distinct": "the same with A's distinct (key, day) as the inputs' A side, as inc_join_many takes it for an "
    "aggregate: it assumes nothing about A's keys (`several`'s hand query already does this)",
}


def _more_rows(ours, hand: Cell | None) -> str:
    """How many rows more the hand query returned (it has no JoinType to compare)."""
    return "not run" if hand is None or hand.check is None else f"{hand.check.rows - ours.rows:+,} rows"


class Shapes(Suite):
    name = "shapes"
    phase = "shapes "
    builds = {
        "core": lambda spark, case: ours(spark, case.shape, case.names, case.last),
        "hand": lambda spark, case: hand(spark, case.shape, case.names),
        "hand_distinct": lambda spark, case: hand(spark, case.shape, case.names, distinct=True),
    }

    def per_day(self, config) -> int:
        """The issue's size (1.1 M orders a year) in a full run, the run's rows a day in quick mode."""
        return config.rows_per_day if config.quick else 3014

    def data(self, spark, run) -> None:
        for shape in SHAPES:
            generate(spark, shape, self.per_day(run.config), run.config.days)
        run.phases.done("data shapes", f" ({', '.join(SHAPES)})")

    def cells(self, run) -> list[Cell]:
        config = run.config
        cases = [ShapeCase(shape, self.per_day(config), config.days) for shape in SHAPES]
        return [Cell(case, v, config.whole_repeats) for case in cases for v in VARIANTS
                if not (v == "hand_distinct" and case.shape == "several")]  # fmt: skip

    def runs(self, config) -> list[str]:
        return [f"shapes suite: whole history, {config.whole_repeats} timed runs per cell, interleaved round-robin"]

    def types(self, variant: str) -> dict[str, str]:
        """Rows per JoinType of each input (ours; the hand queries have no JoinType)."""
        if variant.startswith("hand"):
            return {}
        return {f"{i} {label}": f"JoinType_{i} = {code}" for i in ("pay", "ev") for code, label in LABELS.items()}

    def bounds(self, case) -> dict[str, int]:
        return {}

    def targets(self, cells: Sequence[Cell]) -> list[Target]:
        found = []
        for shape in SHAPES:
            core, by_hand, distinct = (protocol.find(cells, v, shape=shape) for v in ("core", "hand", "hand_distinct"))
            found += ratio_target(f"shapes: inc_join_many / hand, {shape}, whole", core, by_hand, f"≤ {TARGET}")
            found += ratio_target(f"shapes: inc_join_many / hand over A's distinct (key, day), {shape}, whole", core,
                                  distinct)  # fmt: skip
        return found

    def agreement(self, cells: Sequence[Cell]) -> list[dict[str, object]]:
        """Per shape: how the hand query's rows differ from ours (it keeps every A row, ours the settled ones)."""
        return protocol.agreement(cells, self.name, ("core",), hand=lambda ours, by: _more_rows(ours, by.get("hand")))

    def sections(self, cells: Sequence[Cell], agreed: Sequence[dict], run) -> list[str]:
        rows = [[r["case"].label, r["rows"], types_text(r["types"]), r["hand"]] for r in agreed]
        per_day = self.per_day(run.config)
        return protocol.section(
            "shapes",
            data=f"{per_day:,} orders a day over {run.config.days} days",
            shapes=SHAPES,
            variants=VARIANTS,
            cells=protocol.variant_table(cells, (), lambda c: []),
            agreement=protocol.table(("case", "rows", "rows per JoinType", "the hand query's rows"), rows),
        )
