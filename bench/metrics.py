"""What an executed query did, from its physical plan (walked through py4j, adaptive wrappers unwrapped): the
partitions and files each scan read (of an Iceberg batch scan, its data files, counted as its partitions: the
benchmark's Iceberg tables have one file per day, bench/formats.py), scans per input, shuffles, broadcasts and
reused exchanges (a reuse reads nothing itself, so the walk does not descend into it)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta


@dataclass(frozen=True)
class Scan:
    """One file scan of the executed plan."""

    table: str
    partitions: int
    files: int
    rows: int


@dataclass
class PlanSummary:
    """The parts of an executed plan the benchmark reports."""

    scans: list[Scan] = field(default_factory=list)
    nodes: Counter = field(default_factory=Counter)
    text: str = ""  # the executed plan as Spark prints it

    def read(self, table: str, what: str = "partitions") -> int:
        """``what`` (partitions, files or scans) of ``table`` over all its scans (a re-scan counts again)."""
        return sum(1 if what == "scans" else getattr(s, what) for s in self.scans if s.table == table)

    def exchanges(self, *kinds: str) -> list[int]:
        """Exchange nodes of each kind (Shuffle, Broadcast, Reused)."""
        return [self.nodes[f"{kind}ExchangeExec"] for kind in kinds]

    @property
    def joins(self) -> dict[str, int]:
        return {name.replace("Exec", ""): n for name, n in self.nodes.items() if name.endswith("JoinExec")}


def _seq(scala_seq) -> Iterator:
    for i in range(scala_seq.size()):
        yield scala_seq.apply(i)


def _metric(node, name: str) -> int:
    option = node.metrics().get(name)
    return int(option.get().value()) if option.isDefined() else 0


def _unwrap(node):
    """The plan behind adaptive-execution wrappers (the final plan once the query ran)."""
    while True:
        kind = node.getClass().getSimpleName()
        if kind == "AdaptiveSparkPlanExec":
            node = node.executedPlan()
        elif kind.endswith("QueryStageExec"):
            node = node.plan()
        else:
            return node


def summarize(plan, into_cache: bool = False) -> PlanSummary:
    """Walk an executed physical plan (a py4j ``SparkPlan``), subqueries included; ``into_cache``: the plan that
    filled a cached relation too (once: a later plan that reads the cache reads no file)."""
    summary = PlanSummary(text=_unwrap(plan).toString())  # adaptive execution's final plan
    pending = [plan]
    while pending:
        node = _unwrap(pending.pop())
        kind = node.getClass().getSimpleName()
        summary.nodes[kind] += 1
        if kind == "ReusedExchangeExec":
            continue
        if kind == "InMemoryTableScanExec" and into_cache:
            pending.append(node.relation().cachedPlan())
        if kind == "FileSourceScanExec":
            identifier = node.tableIdentifier()
            table = identifier.get().table() if identifier.isDefined() else str(node.relation().location())
            summary.scans.append(
                Scan(table, _metric(node, "numPartitions"), _metric(node, "numFiles"), _metric(node, "numOutputRows"))
            )
        elif kind == "BatchScanExec":  # a data source v2 scan (Iceberg): its data files, one per day in the benchmark
            table = str(node.table().name()).split(".")[-1]
            files = _metric(node, "resultDataFiles")
            summary.scans.append(Scan(table, files, files, _metric(node, "numOutputRows")))
        pending.extend(_seq(node.children()))
        pending.extend(_seq(node.subqueries()))
    return summary


def read_from(case) -> tuple[date, date]:
    """The first day spec §4 allows a run over ``[start, end]`` to read of A and of B (written from the spec text,
    independently of the code under test): A where a ∈ [s − mw, e] ([s − mw − lb, e] for how = full), B where
    b ∈ [s − mw − lb, e]. Late matches (spec §10) reach ``late_match_time`` further back on both sides (with how =
    full, B one more ``look_back_time``: docs/spec.md §10)."""
    lb, mw, late = case.look_back_time, case.max_waiting_time, getattr(case, "late_match_time", 0)
    full = case.how == "full"
    a_from = case.start - timedelta(days=mw + late + (lb if full else 0))
    return a_from, case.start - timedelta(days=mw + lb + late + (lb if full and late else 0))


def case_bounds(case) -> dict[str, int]:
    """Per table of a two-table case: the partitions from ``read_from`` to the window's end (its last day) it holds."""
    first = case.end - timedelta(days=case.history - 1)
    tables = (case.table_a.split(".")[1], case.table_b.split(".")[1])
    return {
        table: (case.end - max(lower, first)).days + 1 for table, lower in zip(tables, read_from(case), strict=True)
    }
