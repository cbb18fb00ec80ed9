"""The benchmark's one protocol (docs/performance.md, "The benchmark"): a suite declares its data, variants,
cases and targets; this module times them in interleaved rounds, checks that the variants agree and that the scans
read their ranges, and writes the report."""

from __future__ import annotations

import gc
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, astuple, dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from .labels import join_type_values
from .metrics import PlanSummary, case_bounds, summarize

OBSERVATION = "inc_join_bench"
# Spark's executor metrics a memory suite reports per run (in local mode the driver is the executor: one JVM)
MEMORY = ("JVMHeapMemory", "OnHeapExecutionMemory", "JVMOffHeapMemory")
LOAD: list[float] = []  # the load average at the start of every round of this run, all suites


@dataclass(frozen=True)
class Run:
    seconds: float
    rows: int
    memory: dict[str, int] = field(default_factory=dict)  # MEMORY's peaks, in a memory suite
    load: float = 0.0  # the 1-minute load average at the run's start
    build: float = 0.0  # of ``seconds``, those before the action: the DataFrame built (checks, plan choice, analysis)


@dataclass(frozen=True)
class Check:
    """What a check run saw: rows per JoinType name and the fingerprint of all rows."""

    rows: int
    types: dict[str, int]
    fingerprint: int


@dataclass
class Cell:
    """All runs of one variant on one case (``check`` and ``runs`` are a suite's own types where it needs)."""

    case: Any
    variant: str
    wanted: int
    runs: list = field(default_factory=list)
    # a slow cell (minutes) may skip warm-up: its first timed run is its check run, the observation costing little
    skip_warmup: bool = False
    check: Any = None
    plan: PlanSummary | None = None

    @property
    def median(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    def median_of(self, attribute: str) -> float:
        return statistics.median(getattr(r, attribute) for r in self.runs)

    @property
    def stable(self) -> bool:
        rows = self.check["rows"] if isinstance(self.check, dict) else getattr(self.check, "rows", None)
        return self.check is not None and all(r.rows == rows for r in self.runs)


def settle(spark) -> None:
    """Garbage collected in Python and the JVM, so Spark's cleaner drops earlier runs' shuffle files and broadcasts
    now, not in whichever run comes next (a daily run right after a full recompute, say)."""
    gc.collect()
    spark.sparkContext._jvm.java.lang.System.gc()
    time.sleep(0.1)


def execute(spark, build: Callable, case, types: dict[str, str] | None):
    """One execution, planning included: (Run, Check or None, plan summary). ``toRdd().count()`` produces every row
    and column and sends only a count to the driver; ``types`` (JoinType name -> condition) observes the check on
    top, in check runs only (the observation would flatten the timed differences)."""
    from pyspark.sql import functions as F

    load, began = os.getloadavg()[0], time.perf_counter()
    df = build(spark, case)
    built = time.perf_counter() - began
    if types is not None:
        counts = [F.expr(f"count_if({condition})").alias(name) for name, condition in types.items()]
        fingerprint = F.expr(case.fingerprint).alias("fingerprint")
        df = df.observe(OBSERVATION, F.count(F.lit(1)).alias("rows"), fingerprint, *counts)
    execution = df._jdf.queryExecution()
    rows = int(execution.toRdd().count())  # before the clock is read: the run is its execution
    run = Run(time.perf_counter() - began, rows, load=load, build=built)
    if types is None:
        return run, None, summarize(execution.executedPlan())
    metrics = execution.observedMetrics().get(OBSERVATION).get()
    values = {name: metrics.get(i) for i, name in enumerate(metrics.schema().fieldNames())}
    found = {name: int(values[name]) for name in types if values[name]}
    return run, Check(int(values["rows"]), found, int(values["fingerprint"] or 0)), summarize(execution.executedPlan())


def peak_memory(spark, group: str) -> dict[str, int]:
    """The highest value of each of MEMORY over the stages of the jobs of ``group`` (Spark's stage-level peak
    executor metrics, sampled every spark.executor.metrics.pollingInterval while a task runs)."""
    tracker, store = spark.sparkContext.statusTracker(), spark.sparkContext._jsc.sc().statusStore()
    stages = [s for job in tracker.getJobIdsForGroup(group) for s in tracker.getJobInfo(job).stageIds]
    peaks = [p.get() for p in (store.lastStageAttempt(s).peakExecutorMetrics() for s in stages) if p.isDefined()]
    return {name: max((p.getMetricValue(name) for p in peaks), default=0) for name in MEMORY}


def round_order(due: Sequence[Cell], round_number: int) -> list[Cell]:
    """The cells of one round: the cases in their order, each round starting one case later, and each case's
    variants each round starting one variant later, so that every variant comes first in its case as often as
    the others. The first run of a case after another case's pays 0.2-0.6 s on a whole-history run (cause not
    measured; 2026-12-01, inc_join_many on `recurring`: the first of `auto` and its forced grouped plan was
    4-6 % slower in either order), which a fixed order charged to one variant."""
    cases: dict[object, list[Cell]] = {}
    for cell in due:
        cases.setdefault(cell.case, []).append(cell)
    return [cell for group in _rotated(list(cases.values()), round_number) for cell in _rotated(group, round_number)]


def _rotated(items: list, by: int) -> list:
    return items[by % len(items) :] + items[: by % len(items)]


def rounds(cells: Sequence[Cell], warmup: int, run: Callable, progress: Callable[[str], None] = print) -> list[float]:
    """Round-robin over ``cells`` until each has its ``wanted`` runs, after ``warmup`` discarded rounds, in
    ``round_order``; ``run(cell, checking)`` gives (run, check, plan, text). Returns (and keeps in LOAD) the load
    average at each round's start."""
    load: list[float] = []
    round_number = 0
    while any(len(c.runs) < c.wanted for c in cells) or round_number < warmup:
        warming = round_number < warmup
        due = [c for c in cells if not c.skip_warmup] if warming else [c for c in cells if len(c.runs) < c.wanted]
        if not due:
            round_number += 1
            continue
        load.append(os.getloadavg()[0])
        for cell in round_order(due, round_number):
            checking = cell.check is None
            result, seen, plan, text = run(cell, checking)
            if checking:
                cell.check = seen
            if not warming:
                cell.runs.append(result)
                cell.plan = plan
            check = " (check run)" if checking else ""
            progress(f"  round {round_number + 1}{' (warm-up)' if warming else ''}: {text}{check}")
        round_number += 1
    LOAD.extend(load)
    return load


def find(cells: Iterable[Cell], variant: str | None = None, **case: object) -> Cell | None:
    """The first cell of ``variant`` whose case has the given attribute values."""
    matches = (
        c for c in cells if variant in (None, c.variant) and all(getattr(c.case, k) == v for k, v in case.items())
    )
    return next(matches, None)


@dataclass(frozen=True)
class Target:
    name: str
    goal: str
    measured: str
    passed: bool | None  #: None: a ratio the issue asks to report, without a goal


@dataclass(frozen=True)
class Ratio:
    """How much longer one cell took than another (or, ``difference``, how many seconds more), from runs paired
    by round: the median of the per-round values, ``low``/``high`` the smallest and largest."""

    median: float
    low: float
    high: float
    difference: bool = False

    @classmethod
    def of(cls, x: Cell, y: Cell, value: Callable = lambda r: r.seconds, difference: bool = False) -> Ratio:
        paired = zip(x.runs, y.runs, strict=False)
        return cls.over([value(a) - value(b) if difference else value(a) / value(b) for a, b in paired], difference)

    @classmethod
    def within(cls, cell: Cell, part: Callable) -> Ratio:
        """The share ``part`` (Run -> seconds) of each run of ``cell`` takes of that run: one run's own clock
        readings, no pairing of runs."""
        return cls.over([part(r) / r.seconds for r in cell.runs])

    @classmethod
    def over(cls, values: Sequence[float], difference: bool = False) -> Ratio:
        """The median of per-run ``values``, with the smallest and largest."""
        return cls(statistics.median(values), min(values), max(values), difference)

    def __str__(self) -> str:
        if self.difference:
            spread = "" if self.low == self.high else f" ({self.low:+.2f} to {self.high:+.2f})"
            return f"{self.median:+.2f} s{spread}"
        digits = 1 if self.median >= 10 else 2
        if self.low == self.high:
            return f"{self.median:.{digits}f}"
        return f"{self.median:.{digits}f} ({self.low:.{digits}f}–{self.high:.{digits}f})"


def meets(value: float, goal: str) -> bool:
    """``value`` against a goal written as the report shows it: '≤ 1.3', '≥ 10', '≤ 1 s'."""
    bound = float(goal[1:].strip().removesuffix(" s"))
    return value <= bound if goal.startswith("≤") else value >= bound


def ratio_target(name: str, x: Cell | None, y: Cell | None, goal: str | None = None, **how) -> list[Target]:
    """The target x / y (``how``: Ratio.of's) against ``goal``; a goal not '≤ …' or '≥ …' (or none) names a
    ratio reported; nothing when a cell is missing or has no runs."""
    if x is None or y is None or not x.runs or not y.runs:
        return []
    return [target(name, Ratio.of(x, y, **how), goal)]


def before_action_target(name: str, cell: Cell | None, goal: str | None = None) -> list[Target]:
    """The share of each run of ``cell`` spent before its action (Run.build / Run.seconds, the same run's two
    clock readings: no pairing of runs, so none of the noise between two runs) against ``goal``."""
    if cell is None or not cell.runs:
        return []
    return [target(name, Ratio.within(cell, lambda r: r.build), goal)]


def target(name: str, ratio: Ratio, goal: str | None = None) -> Target:
    """``ratio`` against ``goal`` (as ratio_target's)."""
    passed = meets(ratio.median, goal) if goal and goal[0] in "≤≥" else None
    return Target(name, goal or "none (reported)", str(ratio), passed)


def reads(cell: Cell, bounds: dict[str, int]) -> dict[str, list[int]]:
    """Per table of ``bounds``: the partitions each scan of it read (the timed runs' executed plan)."""
    scans = cell.plan.scans if cell.plan else []
    return {table: [s.partitions for s in scans if s.table == table] for table in bounds}


def reads_within(cell: Cell, bounds: dict[str, int], scans: int | None = None) -> bool:
    """Every table scanned (``scans`` times, when given), each scan reading exactly its bound."""
    return all(
        found and set(found) == {bounds[table]} and scans in (None, len(found))
        for table, found in reads(cell, bounds).items()
    )


def scans_target(name: str, cells: Sequence[Cell], within: Callable[[Cell], bool]) -> list[Target]:
    exact = [c for c in cells if within(c)]
    return [Target(name, "all cases", f"{len(exact)}/{len(cells)} cases", len(exact) == len(cells))]


def agreement(cells: Sequence[Cell], suite: str, agreeing=None, order=None, **compared: Callable) -> list[dict]:
    """Per case: do the ``agreeing`` variants (all when None) give the core's rows, every timed run as many as its
    check run? ``compared``: further columns from (the core's check, the case's cells by variant)."""
    rows = []
    cases = list(dict.fromkeys(c.case for c in cells))
    for case in sorted(cases, key=order) if order else cases:
        by_variant = {c.variant: c for c in cells if c.case == case}
        reference = by_variant["core"].check
        chosen = by_variant if agreeing is None else [v for v in agreeing if v in by_variant]
        row = {"suite": suite, "case": case, "variants": list(by_variant)}
        row["ours_agree"] = all(by_variant[v].check == reference for v in chosen)
        row.update(rows=reference.rows, types=reference.types, stable=all(c.stable for c in by_variant.values()))
        rows.append({**row, **{name: how(reference, by_variant) for name, how in compared.items()}})
    return rows


def difference(ours: Check, theirs: Check | None) -> str:
    """How another variant's check run differs from ours (rows, rows per JoinType), or 'same rows'."""
    if theirs is None:
        return "not run"
    if (ours.rows, ours.types, ours.fingerprint) == (theirs.rows, theirs.types, theirs.fingerprint):
        return "same rows"
    parts = [f"{theirs.rows - ours.rows:+d} rows"]
    for name in sorted(set(ours.types) | set(theirs.types)):
        mine, other = ours.types.get(name, 0), theirs.types.get(name, 0)
        if mine != other:
            parts.append(f"{name} {mine} → {other}")
    if ours.rows == theirs.rows and ours.types == theirs.types:
        parts.append("same counts, other rows")
    return ", ".join(parts)


def seconds(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    """A Markdown table."""
    lines = [f"| {' | '.join(header)} |", "|" + "---|" * len(header)]
    return lines + [f"| {' | '.join(str(v) for v in row)} |" for row in rows]


def agreed_text(row: dict) -> str:
    return f"{'yes' if row['ours_agree'] else '**NO**'}{'' if row['stable'] else ' (runs differ!)'}"


def types_text(types: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in sorted(types.items()))


def joins(cell: Cell) -> str:
    return ", ".join(f"{n}× {k}" for k, n in sorted(cell.plan.joins.items()))


def times(cell: Cell) -> str:
    """Median seconds (timed runs in brackets)."""
    return f"{seconds(cell.median)} ({len(cell.runs)})"


def variant_table(cells: Sequence[Cell], read_head: Sequence[str], read: Callable[[Cell], list]) -> list[str]:
    """One row per measured cell, case by case: time, × the case's core, rows, ``read(cell)``, plan operators."""
    rows = []
    for case in dict.fromkeys(c.case for c in cells):
        core = next(c for c in cells if c.case == case and c.variant == "core")
        rows += [
            [c.case.label, c.variant, times(c), f"{Ratio.of(c, core).median:.2f}", c.check.rows, *read(c)]
            + [*c.plan.exchanges("Shuffle", "Broadcast"), joins(c)]
            for c in cells
            if c.case == case and c.runs and c.plan and c.check
        ]
    head = ["case", "variant", "median s", "× core", "rows", *read_head]
    return table([*head, "shuffles", "broadcasts", "joins"], rows)


def cell_json(cell: Cell, suite: str, **extra: object) -> dict[str, object]:
    """A measured Spark cell, machine-readable (the quick-mode test reads it)."""
    found = {"suite": suite, "case": asdict(cell.case), "variant": cell.variant, "median": cell.median}
    found["seconds"] = [r.seconds for r in cell.runs]
    found["build_seconds"] = [r.build for r in cell.runs]
    found.update({key: getattr(cell.check, key) if cell.check else None for key in ("rows", "types", "fingerprint")})
    plan = cell.plan
    scans = {"scans": [asdict(s) for s in plan.scans] if plan else [], "nodes": dict(plan.nodes) if plan else {}}
    return {**found, "stable": cell.stable, **extra, **scans}


def load_text(load: Sequence[float]) -> str:
    if not load:
        return "not measured"
    return f"median {statistics.median(load):.1f} ({min(load):.1f}–{max(load):.1f}, {len(load)} rounds)"


def report(context: dict[str, str], found: Sequence[Target], sections: Sequence[str]) -> str:
    """The report: the set-up, one table of every suite's targets, then the suites' sections."""
    result = {None: "—", True: "PASS", False: "MISS"}
    lines = [f"# inc_join benchmark ({context['mode']})", ""]
    lines += [f"- {key}: {value}" for key, value in context.items() if key != "mode"]
    intro = "Each ratio is the median over rounds of the ratio of two runs taken in the same round (seconds apart), "
    lines += ["", "## Targets", "", intro + "with the smallest and largest per-round ratio in brackets.", ""]
    lines += table(("target", "goal", "measured", "result"), ((*astuple(t)[:3], result[t.passed]) for t in found))
    return "\n".join([*lines, *sections]) + "\n"


@cache
def _templates():
    import jinja2

    loader = jinja2.FileSystemLoader(Path(__file__).resolve().parent)
    return jinja2.Environment(loader=loader, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def render(name: str, **values: object) -> str:
    """A Jinja template under bench/ (sql/: the hand-written baselines, templates/: generated files)."""
    return _templates().get_template(name).render(**values)


def section(name: str, **values: object) -> list[str]:
    """A suite's part of the report (bench/templates/report/<name>.md), as lines; list values are tables."""
    tables = {key: "\n".join(value) if isinstance(value, list) else value for key, value in values.items()}
    return render(f"templates/report/{name}.md", **tables).removesuffix("\n").split("\n")


class Suite:
    """One suite: its data, variants, cases, targets and sections of the report. ``run`` is bench/run.py's
    Context."""

    name = ""
    phase = ""  # the prefix of its phases' names in the timings
    few_rows_data = False  # reads the few-rows suite's data (bench/data.py), which run.py prepares once
    uses_sql = False  # has a `sql` variant (the macro rendered by dbt, bench/variants.py)
    check_first = False  # each cell's check run untimed before the rounds, as the first warm-up round (full mode)
    memory = False  # each run's peak memory (peak_memory) kept in its Run
    builds: dict[str, Callable] = {}  # variant name -> function(spark, case) returning the lazy DataFrame

    # What every suite declares: its cells (cases x variants, in the order a round runs them), its targets, per
    # case whether its variants agree, its sections of the report, and how its cells are run (the report's set-up).
    def cells(self, run) -> list: ...
    def targets(self, cells: Sequence[Cell]) -> list[Target]: ...
    def agreement(self, cells: Sequence[Cell]) -> list[dict[str, object]]: ...
    def sections(self, cells: Sequence[Cell], agreed: Sequence[dict], run) -> list[str]: ...
    def runs(self, config) -> list[str]: ...

    def data(self, spark, run) -> None:
        """Generate (or find cached) and register the suite's own data."""

    def builders(self, run) -> dict[str, Callable]:
        """Variant name -> function(spark, case) returning the lazy DataFrame: the suite's own and the SQL macro."""
        return {**self.builds, "sql": run.sql} if self.uses_sql else dict(self.builds)

    def types(self, variant: str) -> dict[str, str]:
        """JoinType name -> its condition on ``variant``'s output (for the check run's counts)."""
        return join_type_values(variant)

    def measure(self, spark, cells: Sequence[Cell], run) -> None:
        """Daily windows first, then whole-history windows, each phase interleaved on its own (a daily run is
        compared with daily runs measured under the same conditions)."""
        builders, config = self.builders(run), run.config

        def one(cell: Cell, checking: bool):
            if not config.quick:
                settle(spark)
            types = self.types(cell.variant) if checking else None
            group = f"{cell.case.label} {cell.variant} {time.time()}"
            if self.memory:
                spark.sparkContext.setJobGroup(group, group)
            result, seen, plan = execute(spark, builders[cell.variant], cell.case, types)
            result = replace(result, memory=peak_memory(spark, group)) if self.memory else result
            text = f"{cell.case.label:<22} {cell.variant:<5} {result.seconds:7.2f} s  {result.rows} rows"
            return result, seen, plan, text

        for window in ("daily", "whole"):
            chosen = [c for c in cells if c.case.window == window]
            if not chosen:
                continue
            # quick mode (rows, never timings): the first round's run is the check run
            for cell in chosen if self.check_first and not config.quick else ():
                cell.check = execute(spark, builders[cell.variant], cell.case, self.types(cell.variant))[1]
                run.say(f"  check run: {cell.case.label:<22} {cell.variant:<5} {cell.check.rows} rows")
            warmup = max(config.warmup - 1, 0) if self.check_first else config.warmup
            rounds(chosen, warmup, one, run.say)
            run.phases.done(f"{self.phase}{window} runs")

    def bounds(self, case) -> dict[str, int]:
        """Table -> the partitions spec §4 allows a run of this package to read of it (a two-table case)."""
        return case_bounds(case)

    def agrees(self, agreed: Sequence[dict]) -> bool:
        return all(a["ours_agree"] and a["stable"] for a in agreed)

    def cell_json(self, cell: Cell) -> dict[str, object]:
        return cell_json(cell, self.name, bounds=self.bounds(cell.case))

    def as_json(self, cells: Sequence[Cell], agreed: Sequence[dict]) -> dict[str, list | dict]:
        """What the suite adds to the run's JSON: its cells and agreement rows (the cases as dicts)."""
        cases = [{**row, "case": asdict(row["case"])} for row in agreed]
        return {"cells": [self.cell_json(c) for c in cells], "agreement": cases}


DRIVER_MEMORY = "4g"


def full_jvm_flags(driver_memory: str) -> str:
    """The benchmarks' driver JVM flags: the optimising JIT, and the heap held at its size from the start.
    `settle` forces a full GC before every run, after which G1 may shrink the heap for the next run to grow again
    (the mechanism is a guess; the effect was measured on 2026-12-01, inc_join_many on `recurring` in the suite's
    order: auto / grouped 1.10 without -Xms, 1.01 with it, every whole-history run about a third faster)."""
    return f"-XX:ReservedCodeCacheSize=256m -Xms{driver_memory}"


def long_running_jvm(driver_memory: str = DRIVER_MEMORY, extra: str = "", full_jit: bool = True) -> None:
    """The settings of a long-running Spark job for the sessions this process starts (and its workers inherit):
    the driver's memory (with ``extra`` submit arguments) and, with full_jit, full_jvm_flags unless
    INC_JOIN_JVM_FLAGS is set. Without it (``bench.run --quick``) and in the test suite the sessions keep
    harness/local_spark.py's flags (no optimising JIT)."""
    if full_jit:
        os.environ.setdefault("INC_JOIN_JVM_FLAGS", full_jvm_flags(driver_memory))
    os.environ["PYSPARK_SUBMIT_ARGS"] = f"--driver-memory {driver_memory}{extra} pyspark-shell"


def standalone_spark(prefix: str):
    """A benchmark run on its own (``python -m bench.<name>``): its SparkSession, with a long-running job's JVM
    settings (as ``bench.run``'s), its state in INC_JOIN_BENCH_STATE or a new temporary directory, and that
    directory."""
    from harness.local_spark import local_spark_session

    long_running_jvm()
    state_dir = Path(os.environ.get("INC_JOIN_BENCH_STATE") or tempfile.mkdtemp(prefix=prefix))
    return local_spark_session(state_dir), state_dir


def publish(text: str, out: Path | None) -> None:
    """A standalone benchmark's report: printed, and written to ``out`` when given."""
    print(text)
    if out:
        out.write_text(text, encoding="utf-8")
