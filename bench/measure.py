"""Timed executions, interleaved across variants and cases.

One execution = build the variant's DataFrame (planning included, as in a real run) and run its physical plan
to the end. ``QueryExecution.toRdd().count()`` produces every row and every column on the executors and
sends only a count to the driver, the same for every variant; unlike a ``noop`` write it keeps the executed
plan (and so the scan metrics) of the DataFrame itself. An ``observe`` on top counts the rows per JoinType and
sums a fingerprint of (key, output arrival, PaymentId, JoinType) in the same pass, so agreement between
variants is checked on the timed runs themselves.
"""
from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence

from .metrics import PlanSummary, summarize
from .variants import Case, join_types, label_sql

OBSERVATION = "inc_join_bench"


@dataclass(frozen=True)
class Run:
    seconds: float
    rows: int
    types: Dict[str, int]
    fingerprint: int


@dataclass
class Cell:
    """All runs of one variant on one case."""

    case: Case
    variant: str
    wanted: int
    runs: List[Run] = field(default_factory=list)
    warmups: int = 0
    plan: Optional[PlanSummary] = None

    @property
    def median(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    @property
    def result(self) -> Run:
        """The rows of the last run (every run of a cell gives the same rows; check_stable verifies it)."""
        return self.runs[-1]

    @property
    def stable(self) -> bool:
        return len({(r.rows, r.fingerprint) for r in self.runs}) == 1


def execute(spark, build: Callable, case: Case, variant: str):
    """One timed execution; returns the Run and the executed plan's summary."""
    from pyspark.sql import functions as F

    began = time.perf_counter()
    df = build(spark, case)
    label = label_sql(variant)
    row_hash = F.expr(f"pmod(xxhash64(TrxId, RecDate, PaymentId, {label}), 1000000007)")
    observed = df.observe(OBSERVATION, F.count(F.lit(1)).alias("rows"), F.sum(row_hash).alias("fingerprint"),
                          *[F.expr(f"count_if({label} = '{name}')").alias(name) for name in join_types()])
    execution = observed._jdf.queryExecution()
    rows = execution.toRdd().count()
    seconds = time.perf_counter() - began
    metrics = execution.observedMetrics().get(OBSERVATION).get()
    names = list(metrics.schema().fieldNames())
    values = {name: metrics.get(i) for i, name in enumerate(names)}
    types = {name: int(values[name]) for name in join_types() if values[name]}
    run = Run(seconds, int(rows), types, int(values["fingerprint"] or 0))
    return run, summarize(execution.executedPlan())


def settle(spark) -> None:
    """Start every timed run from the same state: collect garbage in Python and in the JVM, which also lets
    Spark's cleaner drop the shuffle files and broadcasts of earlier runs, instead of charging that work to
    whichever run happens to come next (a daily run right after a full recompute, say)."""
    gc.collect()
    spark.sparkContext._jvm.java.lang.System.gc()
    time.sleep(0.1)


def measure(spark, builders: Dict[str, Callable], cells: Sequence[Cell], warmup: int,
            progress: Callable[[str], None] = print) -> None:
    """Round-robin over ``cells`` until each has its ``wanted`` runs, after ``warmup`` discarded rounds.

    Each round starts one cell later than the previous, so no variant always runs right after the same
    neighbour (caches, JIT and background load then spread over all variants)."""
    round_number = 0
    while any(len(c.runs) < c.wanted for c in cells) or round_number < warmup:
        due = [c for c in cells if round_number < warmup or len(c.runs) < c.wanted]
        shift = round_number % len(due)
        for cell in due[shift:] + due[:shift]:
            settle(spark)
            run, plan = execute(spark, builders[cell.variant], cell.case, cell.variant)
            if round_number < warmup:
                cell.warmups += 1
            else:
                cell.runs.append(run)
                cell.plan = plan
            progress(f"  round {round_number + 1}{' (warm-up)' if round_number < warmup else ''}: "
                     f"{cell.case.label:<22} {cell.variant:<5} {run.seconds:7.2f} s  {run.rows} rows")
        round_number += 1
