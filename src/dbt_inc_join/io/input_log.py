"""Restated units read from the inputs' own logs (docs/spec.md §17), for Python models: the macro _log_restated
(macros/io/_input_log.sql) rendered with this session's queries in place of dbt's run_query, so its SQL texts and
rules are the SQL models' own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..plan.fingerprints import Side
from ..sql_text import render
from ..sql_text.time_units import TimeUnit


@dataclass(frozen=True)
class QueryResult:
    """What the macros read of a query's result (as of dbt's run_query: rows and column names)."""

    rows: list[tuple[Any, ...]]
    column_names: list[str]


def query_runner(spark: Any) -> Any:
    """A function that runs a statement on ``spark`` and returns its rows, as the macros call run_query."""

    def run(statement: str) -> QueryResult:
        df = spark.sql(statement)
        return QueryResult([tuple(row) for row in df.collect()], list(df.columns))

    return run


def log_side(side: Side) -> dict[str, Any]:
    """An input as the macros' fingerprints read it: its columns as (name, type name), its arrival and its raw type."""
    columns = [(f.name, f.dataType.simpleString()) for f in side.df.schema.fields]
    return {"name": side.name, "columns": columns, "arrival": side.arrival,
            "raw_type": render("_raw_type_name", side.data_type.simpleString())}  # fmt: skip


def log_restated(spark: Any, target: str, unit: TimeUnit, sides: Sequence[Side], versions: Sequence[Mapping[str, Any]],
                 recorded: Sequence[Mapping[str, Any]], previous: Mapping[str, Any] | None,
                 queried: Mapping[str, Sequence[str | None]]) -> dict[str, Any]:  # fmt: skip
    """The restated units of every Delta and Iceberg input older than the run's read range, found from its log since
    the ``recorded`` versions and confirmed by fingerprints as of both (``{'found', 'notes'}``, the macro's)."""
    if not versions or not recorded or not previous:
        return {"found": [], "notes": [], "covered": []}
    window = {"time_uom": unit.value, "input_versions": [dict(v) for v in versions]}
    return dict(
        render(
            "_log_restated",
            query_runner(spark),
            target,
            window,
            [log_side(side) for side in sides],
            dict(previous),
            {k: list(v) for k, v in queried.items()},
            [dict(r) for r in recorded],
        )  # fmt: skip
    )
