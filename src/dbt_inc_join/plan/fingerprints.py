"""What a run reads of its inputs to know whether they were rewritten (docs/spec.md §14): the fingerprint of each
arrival unit (rows and an order-free hash of every whole row), taken with the SQL of the macros
(sql_text/_restated.sql). A dbt run's fingerprints are the macros' own queries (macros/io/_restated_run.sql).

A fingerprint record is plain JSON, the same in both languages:
``{"ranges": {input: [lower, upper]}, "units": {input: {unit: "rows:hash"}}}``, units and bounds as
``'yyyy-MM-dd HH:mm:ss'`` text (so text order is time order), a bound ``None`` for "from the beginning".
"""

from __future__ import annotations

from collections.abc import Sequence

from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import DataType

from ..sql_text import render
from ..sql_text.fragments import arrival_range_sql
from ..sql_text.time_units import TimeUnit, UnitValue
from .validation import check_choice
from .window import parse_bound


def fingerprint_sql(columns: Sequence[tuple[str, str]], arrival: str,
                    unit: TimeUnit) -> tuple[list[str], list[str], list[str]]:  # fmt: skip
    """A unit's fingerprint in three projections (per row, per unit, the result): the macro _fingerprint_sql's."""
    per_row, per_unit, result = render("_fingerprint_sql", [list(column) for column in columns], arrival, unit.value)
    return per_row, per_unit, result


def unit_fingerprints(df: DataFrame, inc_col: str = "RecDate", time_uom: str = "day", start=None,
                      end=None) -> DataFrame:  # fmt: skip
    """The fingerprint of each arrival unit of ``df`` in ``[start, end]`` (inclusive; either may be None):
    columns ``unit`` (text ``'yyyy-MM-dd HH:mm:ss'``), ``rows`` and ``hash`` (the sum of a 64-bit hash of every
    whole row, as text). Store them beside what you computed from ``df``: a unit whose fingerprint differs later
    was rewritten (rows added, removed or changed); the same rows in another order or other files give the same
    fingerprint. dbt models that record their runs store and compare them for you (docs/spec.md §14)."""
    unit = TimeUnit(check_choice("time_uom", time_uom, tuple(u.value for u in TimeUnit)))
    field = next((f for f in df.schema.fields if f.name.lower() == str(inc_col).lower()), None)
    if field is None:
        raise ValueError(f"inc_join: inc_col={inc_col!r} is not a column of df (columns: {', '.join(df.columns)}).")
    lower, upper = parse_bound(start, "start", unit), parse_bound(end, "end", unit)
    return fingerprint_rows(df, field.name, field.dataType, lower, upper, unit)


def fingerprint_rows(df: DataFrame, arrival: str, data_type: DataType, lower: UnitValue | None,
                     upper: UnitValue | None, unit: TimeUnit) -> DataFrame:  # fmt: skip
    """(unit, rows, hash) per unit of ``df`` with rows in [lower, upper]: the SQL of _fingerprint_query."""
    columns = [(f.name, f.dataType.simpleString()) for f in df.schema.fields]
    per_row, per_unit, result = fingerprint_sql(columns, arrival, unit)
    found = df.where(arrival_range_sql(arrival, data_type, lower, upper, unit)).selectExpr(*per_row)
    return found.groupBy("unit_start").agg(*(F.expr(e) for e in per_unit)).selectExpr(*result)
