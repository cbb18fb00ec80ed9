"""The cost of a run's commit (`--suite commit --format delta|iceberg`, issue 42 item 8): the write step of one
daily run, the ``insert overwrite table … select …`` of one window's rows that dbt-spark's ``insert_overwrite``
strategy runs, into an output table partitioned by the output's arrival column, on the format and on parquet
(where Spark's dynamic partition overwrite writes into a staging folder and renames its files into place).

The rows are those of a daily run of the core on the few-rows data (the last day, the shortest history), kept in a
parquet table so that each timed statement only writes. Each output table holds the whole shortest history's
output first, so a timed statement replaces one partition among many, as a daily run does."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from . import protocol
from .data import DATABASE
from .protocol import Cell, Ratio, Run, Target, ratio_target, settle
from .variants import core

ROWS = f"{DATABASE}.commit_window_rows"
PARQUET = "parquet"


@dataclass(frozen=True)
class CommitCase:
    table_format: str
    window: str = "daily"  # the measured phase (protocol.Suite.measure)

    @property
    def label(self) -> str:
        return f"insert overwrite {self.table_format}"

    @property
    def table(self) -> str:
        return f"{DATABASE}.commit_out_{self.table_format}"


class Commit(protocol.Suite):
    name, phase, few_rows_data = "commit", "commit ", True

    def data(self, spark, run) -> None:
        """The window's rows and one output table per format, each holding the shortest history's output."""
        from .formats import FormatCase

        config, last = run.config, run.spec.last_day
        history = min(config.histories)
        join = dict(look_back_time=config.look_back_time, max_waiting_time=config.max_waiting_time)
        how = config.hows[0]
        whole = FormatCase(how, history, "whole", last - timedelta(days=history - 1), last, **join)
        daily = FormatCase(how, history, "daily", last, last, **join)
        spark.sql(f"DROP TABLE IF EXISTS {ROWS}")
        core(spark, daily).write.format("parquet").saveAsTable(ROWS)
        self.arrival = "RecDate"
        self.window_rows = spark.table(ROWS).count()
        core(spark, whole).createOrReplaceTempView("commit_history")
        for fmt in self.formats(run):
            case = CommitCase(fmt)
            spark.sql(f"DROP TABLE IF EXISTS {case.table}")
            spark.sql(
                f"CREATE TABLE {case.table} USING {fmt} PARTITIONED BY ({self.arrival}) AS SELECT * FROM commit_history"
            )
        self.history_rows = spark.table(CommitCase(PARQUET).table).count()
        run.phases.done("commit tables", f" ({self.window_rows} rows a window, {self.history_rows} in each table)")

    @staticmethod
    def formats(run) -> tuple[str, ...]:
        return (PARQUET, run.config.table_format) if run.config.table_format else (PARQUET,)

    def cells(self, run) -> list[Cell]:
        return [Cell(CommitCase(fmt), "insert", run.config.repeats) for fmt in self.formats(run)]

    def runs(self, config) -> list[str]:
        return [
            f"commit: {config.warmup} warm-up round(s), then {config.repeats} timed statements per format, "
            "interleaved round-robin, garbage collected before each; medians"
        ]

    def measure(self, spark, cells: Sequence[Cell], run) -> None:
        # dbt-spark's insert_overwrite sets dynamic partition overwrite for its statement
        spark.conf.set("spark.sql.sources.partitionOverwriteMode", "dynamic")
        # by name, in each table's order (a partitioned parquet table keeps its partition column last)
        columns = {c.case: ", ".join(spark.table(c.case.table).columns) for c in cells}

        def one(cell: Cell, checking: bool):
            settle(spark)
            load, began = os.getloadavg()[0], time.perf_counter()
            spark.sql(f"INSERT OVERWRITE TABLE {cell.case.table} SELECT {columns[cell.case]} FROM {ROWS}")
            result = Run(time.perf_counter() - began, self.window_rows, load=load)
            seen = None
            if checking:
                table = spark.table(cell.case.table)
                seen = {"rows": table.count(), "days": table.select(self.arrival).distinct().count()}
            text = f"{cell.case.label:<28} {result.seconds:7.2f} s  {self.window_rows} rows"
            return result, seen, None, text

        protocol.rounds(cells, run.config.warmup, one, run.say)
        run.phases.done(f"{self.phase}runs")
        spark.conf.unset("spark.sql.sources.partitionOverwriteMode")

    def targets(self, cells: Sequence[Cell]) -> list[Target]:
        parquet = next(c for c in cells if c.case.table_format == PARQUET)
        found = []
        for c in cells:
            if c is not parquet:
                found += ratio_target(f"commit of one daily window: {c.case.table_format} / parquet", c, parquet)
        return found

    def agreement(self, cells: Sequence[Cell]) -> list[dict[str, object]]:
        """Per format: the table still holds the history's rows after the check run's overwrite of one window."""
        return [
            {
                "suite": self.name,
                "case": c.case,
                "rows": c.check["rows"],
                "ours_agree": c.check["rows"] == self.history_rows,
                "stable": all(r.rows == self.window_rows for r in c.runs),
            }
            for c in cells
        ]

    def sections(self, cells: Sequence[Cell], agreed: Sequence[dict], run) -> list[str]:
        parquet = next(c for c in cells if c.case.table_format == PARQUET)
        rows = []
        for c, a in zip(cells, agreed, strict=True):
            loads = [r.load for r in c.runs]
            versus = str(Ratio.of(c, parquet)) if c is not parquet else "—"
            low, high = min(r.seconds for r in c.runs), max(r.seconds for r in c.runs)
            rows.append(
                [c.case.table_format, protocol.times(c), f"{low:.2f}–{high:.2f}", f"{min(loads):.1f}–{max(loads):.1f}"]
                + [versus, f"{a['rows']} {'(unchanged)' if a['ours_agree'] else '**changed**'}"]
            )
        head = ["format", "median s (runs)", "range s", "load avg", "× parquet (per round)", "table rows after"]
        intro = (
            f"One `INSERT OVERWRITE TABLE … SELECT …` of a daily run's {self.window_rows} output rows (one partition "
            f"of the output's arrival column) into a table of {self.history_rows} rows over "
            f"{min(run.config.histories)} days, dynamic partition overwrite; median "
            f"{statistics.median(r.seconds for r in parquet.runs):.2f} s on parquet."
        )
        return ["", "## The cost of a run's commit", "", intro, "", *protocol.table(head, rows)]

    def as_json(self, cells: Sequence[Cell], agreed: Sequence[dict]) -> dict[str, list | dict]:
        from dataclasses import asdict

        found = [
            {"suite": self.name, "case": asdict(c.case), "variant": c.variant, "median": c.median}
            | {"seconds": [r.seconds for r in c.runs], "load": [r.load for r in c.runs], "check": c.check}
            for c in cells
        ]
        return {"cells": found, "agreement": [{**a, "case": asdict(a["case"])} for a in agreed]}
