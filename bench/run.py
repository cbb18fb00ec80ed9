"""`make bench` / `make bench-quick`: the benchmark's suites (bench/few.py, many.py, ledger.py, restated.py,
enrich.py; commit.py and restated_log.py only when named) in one process on one SparkSession, timed and reported
by bench/protocol.py; e.g. ``python -m bench.run --suite ledger`` or ``--quick`` (tiny data, one run each: CI).
Writes ``<out>/d<days>-r<rows>.md`` (or ``<suite>.md``, and ``.json``) and prints the Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from .data import DataSpec
from .protocol import long_running_jvm

BENCH = Path(__file__).resolve().parent
# quick mode checks rows and scans, never timings: one history is enough for that (the big suite keeps its two,
# this one and all 40 days)
QUICK = dict(days=40, rows_per_day=200, histories=(20,), repeats=1, whole_repeats=1, slow_repeats=1, warmup=0)
SUITES = ("few-rows", "big", "many-rows", "ledger", "restated", "enrich", "shapes")  # the report's order
# Run only when named (--suite commit), never by --suite all; with --format, the suites that have format cells.
EXTRA = ("commit", "restated-log")
# the order the suites run in
MEASURED = ("few-rows", "big", "many-rows", "enrich", "shapes", "ledger", "restated", "commit", "restated-log")
FORMATS = ("delta", "iceberg")
FORMAT_SUITES = ("few-rows", "big", "commit", "restated-log", "ledger")
FORMAT_OF_SUITE = {"ledger": ("delta",)}  # the formats a suite has cells of (the ledger: Delta's, dbt-databricks's)
FORMAT_ONLY = ("restated-log",)  # suites measured only on a table format (--format required)


@dataclass(frozen=True)
class Config:
    days: int = 365
    rows_per_day: int = 20_000
    rows_given: bool = False  # --rows-per-day given (restated-log keeps its own size otherwise)
    histories: Sequence[int] = (30, 120, 365)
    hows: Sequence[str] = ("left", "full")
    look_back_time: int = 2
    max_waiting_time: int = 10
    late_match_time: int = 3  # the late-match cases (spec §10), how = left; 0 leaves them out
    ledger_records: Sequence[int] = (365, 3650)  # the ledger suite's pre-filled ledgers (bench/ledger.py)
    repeats: int = 9
    whole_repeats: int = 5
    slow_repeats: int = 1
    warmup: int = 1
    suites: Sequence[str] = SUITES
    quick: bool = False
    out: Path = BENCH / "results"
    cache_dir: Path = BENCH / ".cache" / "data"
    driver_memory: str = "4g"
    table_format: str | None = None  # --format: inputs and outputs in Delta Lake or Iceberg beside parquet


def parse_args(argv: Sequence[str]) -> Config:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--quick", action="store_true", help="tiny data, one run per cell; results in bench/.cache/results")
    add(
        "--suite",
        default="all",
        help=f"suites, comma-separated ({', '.join(SUITES + EXTRA)}), or all (default: {', '.join(SUITES)})",
    )
    add(
        "--format",
        choices=FORMATS,
        help="inputs and outputs also in this table format, measured beside parquet in the same rounds "
        f"(suites {', '.join(FORMAT_SUITES)}; needs the .venv-formats venv and `make jars`)",
    )
    add("--days", type=int, help="days of generated history (default 365)")
    add("--rows-per-day", type=int, help="A rows per daily load; B gets about as many (default 20000)")
    add("--histories", help="history lengths in days for the daily run (default 30,120,<days>)")
    add("--how", default="left,full", help="join types, comma-separated (default left,full)")
    add("--look-back-time", type=int, default=2)
    add("--max-waiting-time", type=int, default=10)
    add("--late-match-time", type=int, default=3, help="of the late-match cases; 0 leaves them out (default 3)")
    add("--ledger-records", default="365,3650", help="the ledger suite's pre-filled ledgers; 0 leaves them out")
    add("--repeats", type=int, help="timed runs per daily-window cell (default 9)")
    add("--whole-repeats", type=int, help="timed runs per whole-history cell (default 5)")
    add("--slow-repeats", type=int, help="timed runs of the many-rows suite's slow baselines (default 1)")
    add("--warmup", type=int, help="discarded rounds over all cells of a phase first (default 1)")
    add("--out", type=Path, help="directory for the Markdown and JSON results (default bench/results)")
    add("--cache-dir", type=Path, help="where generated data is kept (default bench/.cache/data)")
    add("--driver-memory", default=None, help="Spark driver memory (default 4g; quick: 1g)")
    args = parser.parse_args(argv)

    config = (
        Config(quick=True, out=BENCH / ".cache" / "results", driver_memory="1g", **QUICK) if args.quick else Config()
    )
    days = args.days or config.days
    histories = (
        tuple(int(h) for h in args.histories.split(","))
        if args.histories
        else (config.histories if args.days is None else tuple(sorted({min(30, days), min(120, days), days})))
    )
    given = ("rows_per_day", "repeats", "whole_repeats", "slow_repeats", "out", "cache_dir", "driver_memory")
    config = replace(
        config,
        **{name: getattr(args, name) for name in given if getattr(args, name)},
        days=days,
        rows_given=args.rows_per_day is not None,
        histories=tuple(sorted(set(histories))),
        hows=tuple(h.strip() for h in args.how.split(",")),
        **{name: getattr(args, name) for name in ("look_back_time", "max_waiting_time", "late_match_time")},
        ledger_records=tuple(n for n in (int(r) for r in args.ledger_records.split(",")) if n > 0),
        suites=SUITES if args.suite == "all" else tuple(s.strip() for s in args.suite.split(",")),
        warmup=config.warmup if args.warmup is None else args.warmup,
        table_format=args.format,
    )
    if set(config.suites) - set(SUITES + EXTRA):
        parser.error(f"--suite accepts all or {', '.join(SUITES + EXTRA)} (got {args.suite})")
    if args.format and set(config.suites) - set(FORMAT_SUITES):
        parser.error(f"--format runs the suites {', '.join(FORMAT_SUITES)}; name them with --suite")
    for name, formats in FORMAT_OF_SUITE.items():
        if args.format and name in config.suites and args.format not in formats:
            parser.error(f"--suite {name} takes --format {' or '.join(formats)} only (got {args.format})")
    if not args.format and set(config.suites) & set(FORMAT_ONLY):
        parser.error(f"--suite {', '.join(FORMAT_ONLY)} needs --format delta or iceberg (it reads their logs)")
    if max(config.histories) > config.days or min(config.histories) < 1:
        parser.error(f"--histories must lie in 1..{config.days} (the generated days)")
    if set(config.hows) - {"left", "full", "inner"}:
        parser.error("--how accepts left, full and inner (the naive recompute has no left_anti)")
    return config


def start_spark(config: Config, state_dir: Path):
    """One local[2] SparkSession for everything (dbt's session connection reuses it).

    Unlike the test suite's short-lived sessions, a full benchmark uses the JVM's optimising JIT and a larger
    heap, held at its size (full_jvm_flags): those are the settings a long-running Spark job has."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
    os.environ["INC_JOIN_STATE_DIR"] = str(state_dir)
    if config.table_format:  # the session gets the format's jars, extension and catalog (harness/table_formats.py)
        os.environ["INC_JOIN_TABLE_FORMAT"] = config.table_format
    # the big suite's peak memory: Spark's executor metrics sampled every 100 ms (default: only at heartbeats)
    polling = " --conf spark.executor.metrics.pollingInterval=100ms" * ("big" in config.suites)
    long_running_jvm(config.driver_memory, polling, full_jit=not config.quick)  # quick: the CI-sized run
    from harness.local_spark import local_spark_session

    return local_spark_session(state_dir)


def context(run: Context, rows: dict[str, int], generated: bool, load: list[float], suites: Sequence) -> dict[str, str]:
    """What the numbers depend on: machine, versions, Spark settings, data, repetitions."""
    import dbt.version
    import pyspark

    from .protocol import LOAD, load_text

    config, spark, spec, sql_variant = run.config, run.spark, run.spec, run.sql
    jvm = spark.sparkContext._jvm
    cpu, memory = _proc("cpuinfo", "model name", platform.processor()), _proc("meminfo", "MemTotal", "")
    memory = f"{int(memory.split()[0]) / 1024**2:.0f} GB" if memory else ""
    conf = spark.conf.get
    few = "few-rows" in config.suites
    data = any(s.few_rows_data for s in suites)
    info = {
        "mode": "quick: tiny data, one run each; timings are not meaningful" if config.quick else "full",
        "suites": ", ".join(config.suites),
        "machine": f"{os.cpu_count()} cores ({cpu}), {memory} RAM, {platform.system()} {platform.release()}, "
        f"Java {jvm.java.lang.System.getProperty('java.version')}, Python {platform.python_version()}",
        "software": f"pyspark {pyspark.__version__}, dbt-core {dbt.version.__version__}"
        + (", inc-join 0.1.3 (peer)" if few and not config.table_format else "")
        + (f", {format_jars(config.table_format)}" if config.table_format else ""),
        "spark": f"{spark.sparkContext.master}, driver memory {config.driver_memory}, shuffle partitions "
        f"{conf('spark.sql.shuffle.partitions')}, AQE {conf('spark.sql.adaptive.enabled')}, broadcast "
        f"threshold {conf('spark.sql.autoBroadcastJoinThreshold')}, catalog tables in a Hive metastore "
        "(Derby), " + tables_text(config.table_format, data, config.suites),
        "data": data
        and f"{spec.days} days x {spec.rows_per_day} A rows per day ({spec.first_day} .. {spec.last_day}); "
        f"{rows['a']} A rows, {rows['b']} B rows in the longest history; one parquet file per daily "
        f"partition; {'generated by this run' if generated else 'generated earlier (cached)'}",
        "join": few
        and f"join_cols TrxId, look_back_time {config.look_back_time}, max_waiting_time "
        f"{config.max_waiting_time}, how {', '.join(config.hows)}",
        "runs": "; ".join(part for suite in suites for part in suite.runs(config)),
        "sql rendering": sql_variant is not None
        and f"one dbt compile --inline of all {len(sql_variant.compiled)} cases, "
        f"{sql_variant.compile_seconds:.1f} s (not timed: each case runs dbt's describe and "
        "watermark queries, which a real run also pays once)",
        "load average": f"{load[0]:.1f} at start, {load[1]:.1f} at end (1-minute averages; the end value includes "
        "the benchmark's own Spark, which keeps the cores busy; a start value near or above "
        f"{os.cpu_count()} means other processes competed for the CPU); at the start of each round: "
        f"{load_text(LOAD)}",
        "time": run.phases.summary(),
    }
    return {key: value for key, value in info.items() if value}


def tables_text(table_format: str | None, parquet: bool, suites: Sequence[str] = ()) -> str:
    """The tables' formats: parquet (the suites on the generated data) and the --format copies, or only the
    format's own tables (a suite measured only on a format, bench/restated_log.py), or only the run ledger in the
    format (the ledger suite alone)."""
    if table_format is None:
        return "parquet partitioned by RecDate"
    if not parquet:
        return f"{table_format} tables partitioned by RecDate"
    if tuple(suites) == ("ledger",):
        return f"parquet partitioned by RecDate; a {table_format} run ledger beside the parquet one"
    return f"parquet partitioned by RecDate; the same rows in {table_format} tables partitioned by RecDate"


class Phases:
    """Wall-clock seconds of each phase of the run, printed as it goes and kept for the report."""

    def __init__(self) -> None:
        self.began = self.last = time.perf_counter()
        self.seconds: dict[str, float] = {}

    def done(self, name: str, note: str = "") -> None:
        now = time.perf_counter()
        self.seconds[name] = now - self.last
        self.last = now
        print(f"bench: {name} {self.seconds[name]:.1f} s{note} ({now - self.began:.0f} s since start)", flush=True)

    def summary(self) -> str:
        parts = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in self.seconds.items())
        return f"{time.perf_counter() - self.began:.0f} s ({parts})"


@dataclass
class Context:
    """What the suites share in one run (bench/protocol.py's Suite methods take it as ``run``)."""

    config: Config
    spark: Any
    state_dir: Path
    phases: Phases
    spec: DataSpec
    dataset: Path | None = None  # the few-rows data, when a suite reads it
    sql: Any = None  # the SQL macro's variant (bench/variants.py: SqlMacro), when a suite has one

    @staticmethod
    def say(line: str) -> None:
        print(line, flush=True)


def main(argv: Sequence[str] = ()) -> int:
    config = parse_args(list(argv))
    phases = Phases()
    load = [os.getloadavg()[0]]
    state_dir = Path(tempfile.mkdtemp(prefix="inc_join_bench_"))
    spark = start_spark(config, state_dir)
    try:
        from .data import ensure_dataset, register_tables
        from .protocol import report
        from .variants import DATABASE, SqlMacro, load_peer

        suites = [suite() for suite in suite_types() if suite.name in config.suites]
        if "few-rows" in config.suites and not config.table_format:
            load_peer()  # fail early, before any data is generated, when the overlay is missing
        phases.done("spark start")
        run = Context(config, spark, state_dir, phases, DataSpec(config.days, config.rows_per_day))
        spec = run.spec
        rows: dict[str, int] = {}
        generated = False
        if any(s.few_rows_data for s in suites):
            run.dataset, generated = ensure_dataset(spark, spec, config.cache_dir)
            phases.done("data", f" ({'generated' if generated else 'cached'} in {run.dataset})")
            register_tables(spark, run.dataset, spec, config.histories)
            longest = max(config.histories)
            rows = {side: spark.table(f"{DATABASE}.{side}_{longest}d").count() for side in ("a", "b")}
            phases.done("catalog", f" ({len(config.histories)} histories, {rows['a']} A / {rows['b']} B rows)")
        for suite in suites:
            suite.data(spark, run)
        cells = {s.name: s.cells(run) for s in suites}
        if any(s.uses_sql for s in suites):
            run.sql = SqlMacro(state_dir)
            run.sql.compile([c.case for s in suites for c in cells[s.name] if c.variant == "sql"])
            phases.done("dbt compile", f" ({len(run.sql.compiled)} cases)")
        for suite in sorted(suites, key=lambda s: MEASURED.index(s.name)):
            suite.measure(spark, cells[suite.name], run)

        agreed = {s.name: s.agreement(cells[s.name]) for s in suites}
        found = [t for s in suites for t in s.targets(cells[s.name])]
        load.append(os.getloadavg()[0])
        info = context(run, rows, generated, load, suites)
        sections = [line for s in suites for line in s.sections(cells[s.name], agreed[s.name], run)]
        # the plans name the scanned files by absolute path: relative to the repository, as the results are committed
        repository = f"{BENCH.parent.resolve()}/"
        text = report(info, found, sections).replace(repository, "")
        out = Path(config.out)
        out.mkdir(parents=True, exist_ok=True)
        first = suites[0].name
        stem = out / (f"d{spec.days}-r{spec.rows_per_day}" if first == "few-rows" else first)
        if config.table_format:
            stem = out / f"{first}-{config.table_format}"
        stem.with_suffix(".md").write_text(text)
        result: dict[str, object] = {"config": {k: _portable(v) for k, v in asdict(config).items()}, "context": info}
        result.update(targets=[asdict(t) for t in found], cells=[], agreement=[])
        for suite in suites:
            for key, value in suite.as_json(cells[suite.name], agreed[suite.name]).items():
                result[key] = result[key] + value if isinstance(value, list) else value  # type: ignore[operator]
        stem.with_suffix(".json").write_text(json.dumps(result, indent=1, default=str).replace(repository, "") + "\n")
        print(f"\n{text}\nbench: wrote {stem.with_suffix('.md')} and .json")
        return 0 if all(s.agrees(agreed[s.name]) for s in suites) else 1
    finally:
        spark.stop()
        shutil.rmtree(state_dir, ignore_errors=True)


def suite_types() -> list:
    """The suites, in the report's order (bench/few.py, many.py, ledger.py, enrich.py)."""
    from .commit import Commit
    from .enrich import Enrich
    from .few import Big, FewRows
    from .ledger import Ledger
    from .many import ManyRows
    from .many_shape import Shapes
    from .restated import Restated
    from .restated_log import RestatedLog

    return [FewRows, Big, ManyRows, Ledger, Restated, Enrich, Shapes, Commit, RestatedLog]


def format_jars(table_format: str) -> str:
    """The format's jars the session loaded, by file name (harness/table_formats.py)."""
    from harness.table_formats import format_jars as jars
    from harness.table_formats import spark_line

    return "jars " + ", ".join(jar.name for jar in jars(table_format, spark_line()))


def _proc(name: str, key: str, otherwise: str) -> str:
    """A value of /proc/<name> ("" without /proc)."""
    path = Path("/proc") / name
    if not path.exists():
        return ""
    lines = path.read_text().splitlines()
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith(key)), otherwise)


OUTSIDE = "(a directory outside the repository)"


def _portable(value):
    """A config value as JSON: tuples as lists, paths inside the repository relative to it, any other path as
    OUTSIDE (results are committed, and no machine's paths belong in the repository)."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Path):
        resolved = value.resolve()
        return str(resolved.relative_to(BENCH.parent)) if resolved.is_relative_to(BENCH.parent) else OUTSIDE
    return value


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
