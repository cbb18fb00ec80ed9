"""The macros' fragments that the core's own queries use (the watermark, the plan's samples, fingerprints,
sizing), typed: each renders its macro, none writes SQL text of its own."""

from __future__ import annotations

from pyspark.sql.types import DataType, DateType, TimestampNTZType

from .macros import render
from .time_units import TimeUnit, UnitValue


def raw_type(data_type: DataType) -> str:
    """An arrival column's type as the macros name it: ``date``, ``timestamp`` or ``timestamp_ntz``."""
    if isinstance(data_type, DateType):
        return "date"
    return "timestamp_ntz" if isinstance(data_type, TimestampNTZType) else "timestamp"


def quote(name: str) -> str:
    """A column reference that survives spaces, dots and reserved words (``_quote``)."""
    return str(render("_quote", name))


def arrival_range_sql(
    column: str, data_type: DataType, lower: UnitValue | None, upper: UnitValue | None, unit: TimeUnit
) -> str:
    """``lower <= trunc(column) <= upper`` on the raw column, in the shape Spark prunes partitions by
    (``_arrival_range_sql``)."""
    return str(render("_arrival_range_sql", column, raw_type(data_type), lower, upper, unit.value))
