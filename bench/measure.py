"""Timed executions, interleaved across variants and cases.

One execution = build the variant's DataFrame (planning included, as in a real run) and run its physical plan
to the end. ``QueryExecution.toRdd().count()`` produces every row and every column on the executors and
sends only a count to the driver, the same for every variant; unlike a ``noop`` write it keeps the executed
plan (and so the scan metrics) of the DataFrame itself.

The first execution of each cell (the warm-up, when there is one) is the check run: an ``observe`` on top
counts the rows per JoinType and sums a fingerprint of the rows, so the variants can be compared row for row.
Timed runs carry nothing on top: the observation is evaluated row by row outside generated code and would
add the same fixed cost to every variant, flattening the differences the benchmark is after.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .metrics import PlanSummary, summarize
from .variants import Case, join_type_values

OBSERVATION = "inc_join_bench"


@dataclass(frozen=True)
class Run:
    seconds: float
    rows: int


@dataclass(frozen=True)
class Check:
    """What a check run saw: rows per JoinType name and the fingerprint of all rows."""

    rows: int
    types: dict[str, int]
    fingerprint: int


@dataclass
class Cell:
    """All runs of one variant on one case."""

    case: Case
    variant: str
    wanted: int
    runs: list[Run] = field(default_factory=list)
    warmups: int = 0
    # A slow cell (a hand-written baseline taking minutes) may skip the warm-up rounds: its first timed run is
    # then its check run, the observation costing little next to the run.
    skip_warmup: bool = False
    check: Check | None = None
    plan: PlanSummary | None = None

    @property
    def median(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    @property
    def stable(self) -> bool:
        """Every run returned as many rows as the check run."""
        return all(r.rows == self.check.rows for r in self.runs)


def execute(spark, build: Callable, case: Case, variant: str, check: bool):
    """One execution: (Run, Check or None, executed plan summary)."""
    from pyspark.sql import functions as F

    began = time.perf_counter()
    df = build(spark, case)
    if check:
        counts = [
            F.expr(f"count_if(JoinType = {value})").alias(name) for name, value in join_type_values(variant).items()
        ]
        fingerprint = F.expr(case.fingerprint).alias("fingerprint")
        df = df.observe(OBSERVATION, F.count(F.lit(1)).alias("rows"), fingerprint, *counts)
    execution = df._jdf.queryExecution()
    rows = execution.toRdd().count()
    run = Run(time.perf_counter() - began, int(rows))
    seen = None
    if check:
        metrics = execution.observedMetrics().get(OBSERVATION).get()
        values = {name: metrics.get(i) for i, name in enumerate(metrics.schema().fieldNames())}
        types = {name: int(values[name]) for name in join_type_values(variant) if values[name]}
        seen = Check(int(values["rows"]), types, int(values["fingerprint"] or 0))
    return run, seen, summarize(execution.executedPlan())


def settle(spark) -> None:
    """Start every timed run from the same state: collect garbage in Python and in the JVM, which also lets
    Spark's cleaner drop the shuffle files and broadcasts of earlier runs, instead of charging that work to
    whichever run happens to come next (a daily run right after a full recompute, say)."""
    gc.collect()
    spark.sparkContext._jvm.java.lang.System.gc()
    time.sleep(0.1)


def measure(
    spark,
    builders: dict[str, Callable],
    cells: Sequence[Cell],
    warmup: int,
    settle_first: bool = True,
    progress: Callable[[str], None] = print,
) -> None:
    """Round-robin over ``cells`` until each has its ``wanted`` runs, after ``warmup`` discarded rounds
    (``settle_first``: collect garbage before each run; quick mode skips it, its timings mean nothing).

    Each round starts one cell later than the previous, so no variant always runs right after the same
    neighbour (caches, JIT and background load then spread over all variants)."""
    round_number = 0
    while any(len(c.runs) < c.wanted for c in cells) or round_number < warmup:
        warming = round_number < warmup
        due = [c for c in cells if not c.skip_warmup] if warming else [c for c in cells if len(c.runs) < c.wanted]
        if not due:
            round_number += 1
            continue
        shift = round_number % len(due)
        for cell in due[shift:] + due[:shift]:
            if settle_first:
                settle(spark)
            checking = cell.check is None
            run, seen, plan = execute(spark, builders[cell.variant], cell.case, cell.variant, checking)
            if checking:
                cell.check = seen
            if warming:
                cell.warmups += 1
            else:
                cell.runs.append(run)
                cell.plan = plan
            progress(
                f"  round {round_number + 1}{' (warm-up)' if warming else ''}: {cell.case.label:<22} "
                f"{cell.variant:<5} {run.seconds:7.2f} s  {run.rows} rows{' (check run)' if checking else ''}"
            )
        round_number += 1
