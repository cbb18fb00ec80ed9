"""The benchmark on Delta Lake or Iceberg tables (``--format delta|iceberg``, issue 42 item 8): the few-rows and big
suites' inputs copied into the format, partitioned by the arrival column as the parquet tables are, and the
format's cells measured beside the same cells on parquet, in the same rounds of the same process (the session
has the format's jars, extension and catalog: harness/table_formats.py; parquet tables work in it as before).

Per table format: the SQL macro and the core on a daily run at the shortest and the longest history, and over the
whole history next to a plain equi-join of the same format's tables. The targets: a daily run 365 d / 30 d ≤ 1.3
and the whole history / the plain equi-join ≤ 1.15, each within one format; the format / parquet ratios are
reported."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from . import protocol
from .data import DATABASE
from .protocol import Cell, Ratio, Target, find, ratio_target
from .variants import Case

PARQUET = "parquet"
OURS = ("sql", "core")
WHOLE = (*OURS, "equi")


@dataclass(frozen=True)
class FormatCase(Case):
    """A case over the tables of one format: ``<base><format>_a_<n>d`` (parquet: ``<base>a_<n>d``)."""

    table_format: str = PARQUET
    base = ""  # the parquet tables' prefix (big_ for the big suite's)

    @property  # type: ignore[override]
    def prefix(self) -> str:
        return self.base + ("" if self.table_format == PARQUET else f"{self.table_format}_")

    @property
    def label(self) -> str:
        return f"{super().label} {self.table_format}"


@dataclass(frozen=True)
class BigFormatCase(FormatCase):
    base = "big_"


def compared(run) -> tuple[str, str]:
    """parquet and the run's format, in the order each round runs them."""
    return (PARQUET, run.config.table_format)


def copy_tables(spark, table_format: str, base: str, histories: Sequence[int], say=print) -> None:
    """``<base><format>_{a,b}_<n>d``: the rows of the parquet tables ``<base>{a,b}_<n>d`` in the format, partitioned
    by RecDate. Each parquet day is one file read by one task, so each day is again one file."""
    for n in histories:
        for side in ("a", "b"):
            source, target = f"{DATABASE}.{base}{side}_{n}d", f"{DATABASE}.{base}{table_format}_{side}_{n}d"
            spark.sql(f"DROP TABLE IF EXISTS {target}")
            spark.sql(f"CREATE TABLE {target} USING {table_format} PARTITIONED BY (RecDate) AS SELECT * FROM {source}")
            days = spark.table(target).select("RecDate").distinct().count()
            say(f"  {target}: {spark.table(target).count()} rows, {days} days in {data_files(spark, target)} files")


def data_files(spark, table: str) -> int:
    """The data files of a Delta or Iceberg table (its current version)."""
    if spark.sql(f"DESCRIBE TABLE EXTENDED {table}").where("col_name = 'Provider'").first()[1] == "delta":
        return int(spark.sql(f"DESCRIBE DETAIL {table}").first()["numFiles"])
    return int(spark.sql(f"SELECT count(*) FROM {table}.files").first()[0])


def cells(run, case_type: type, histories: Sequence[int]) -> list[Cell]:
    """Daily runs at each history and the whole longest history (with the equi-join), each on parquet and the
    format next to each other in a round."""
    config, last = run.config, run.spec.last_day
    join = dict(look_back_time=config.look_back_time, max_waiting_time=config.max_waiting_time)
    how, longest = config.hows[0], max(histories)
    found = []
    for history in histories:
        for variant in OURS:
            for fmt in compared(run):
                case = case_type(how, history, "daily", last, last, **join, table_format=fmt)
                found.append(Cell(case, variant, config.repeats))
    start = last - timedelta(days=longest - 1)
    for variant in WHOLE:
        for fmt in compared(run):
            case = case_type(how, longest, "whole", start, last, **join, table_format=fmt)
            found.append(Cell(case, variant, config.whole_repeats))
    return found


def targets(cells: Sequence[Cell], bounds, label: str = "") -> list[Target]:
    """Per format: the daily run's flatness in history and the whole history against the plain equi-join; the
    format / parquet ratio of each cell (reported, no goal); the partitions read where the plan shows them."""
    histories = sorted({c.case.history for c in cells})
    short, long = histories[0], histories[-1]
    formats = list(dict.fromkeys(c.case.table_format for c in cells))
    how = cells[0].case.how
    found: list[Target] = []
    for fmt in formats:
        for v in OURS:
            at = [find(cells, v, window="daily", history=h, table_format=fmt) for h in (long, short)]
            found += ratio_target(f"{label}{fmt}: {v} daily run, {how}: {long} d / {short} d", *at, "≤ 1.3")
            at = [find(cells, v, window="whole", table_format=fmt), find(cells, "equi", table_format=fmt)]
            name = f"{label}{fmt}: {v} whole history / plain equi-join on {fmt}, {how}"
            found += ratio_target(name, *at, "≤ 1.15")
    for fmt in formats[1:]:
        for c in cells:
            if c.case.table_format == fmt:
                base = find(cells, c.variant, window=c.case.window, history=c.case.history, table_format=PARQUET)
                name = f"{label}{fmt} / parquet: {c.variant}, {c.case.window} {c.case.history} d"
                found += ratio_target(name, c, base)
    ours = [c for c in cells if c.variant in OURS and c.plan and c.plan.scans]
    if ours:
        name = f"{label}partitions read by sql and core = spec §4 bounds, one scan per input ({scanned(cells)})"
        found += protocol.scans_target(name, ours, lambda c: protocol.reads_within(c, bounds(c.case), 1))
    return found


def scanned(cells: Sequence[Cell]) -> str:
    """The formats whose scans the executed plan shows (bench/metrics.py: Iceberg's as data files)."""
    seen = dict.fromkeys(c.case.table_format for c in cells if c.plan and c.plan.scans)
    return ", ".join(seen) or "none"


def agreement(cells: Sequence[Cell], suite: str) -> list[dict[str, object]]:
    """Per case: the SQL macro's rows are the core's; and the format's core rows are parquet's."""

    def parquet(reference, by_variant) -> str:
        case = by_variant["core"].case
        if case.table_format == PARQUET:
            return "(the reference)"
        same = find(cells, "core", window=case.window, history=case.history, table_format=PARQUET)
        return protocol.difference(same.check, reference) if same else "not run"

    def order(k):
        return (k.window, k.history, k.table_format != PARQUET)

    return protocol.agreement(cells, suite, ("sql",), order, parquet=parquet)


def agrees(agreed: Sequence[dict]) -> bool:
    return all(a["ours_agree"] and a["stable"] and a["parquet"] in ("(the reference)", "same rows") for a in agreed)


def sections(cells: Sequence[Cell], agreed: Sequence[dict], bounds, title: str) -> list[str]:
    """Per cell: median seconds, the load average at its runs' starts, × the same cell on parquet, rows and
    partitions read; then whether the variants and formats agree."""
    rows = []
    for c in cells:
        base = find(cells, c.variant, window=c.case.window, history=c.case.history, table_format=PARQUET)
        loads = [r.load for r in c.runs]
        ta, tb = bounds(c.case)
        reads = f"{c.plan.read(ta)} / {c.plan.read(tb)}" if c.plan and c.plan.scans else "not in the plan"
        versus = str(Ratio.of(c, base)) if base is not c else "—"
        row = [c.case.label, c.variant, protocol.times(c), f"{min(loads):.1f}–{max(loads):.1f}", versus]
        rows.append([*row, c.check.rows if c.check else "", reads])
    head = ["case", "variant", "median s (runs)", "load avg", "× parquet (per round)", "rows", "partitions A / B"]
    agree = [[r["case"].label, r["rows"], protocol.agreed_text(r), r["parquet"]] for r in agreed]
    lines = ["", f"## {title}", "", *protocol.table(head, rows), "", "## Do the variants and formats agree?", ""]
    lines += ["Rows, rows per JoinType and a fingerprint of each check run (the equi-join is not compared).", ""]
    return lines + protocol.table(("case", "rows", "sql = core", "core on the format vs parquet"), agree)
