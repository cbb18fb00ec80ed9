"""SQL predicates written on the raw arrival column, in the shape Spark pushes into scans."""

from __future__ import annotations

from pyspark.sql.types import DataType, DateType, TimestampNTZType

from .time_units import TimeUnit, UnitValue, shift_value, sql_literal


def quote(name: str) -> str:
    """A column reference that survives spaces, dots and reserved words in the name."""
    return "`" + name.replace("`", "``") + "`"


def raw_type_name(data_type: DataType) -> str:
    """The SQL type of a raw arrival column: ``date``, ``timestamp`` or ``timestamp_ntz``."""
    if isinstance(data_type, DateType):
        return "date"
    return "timestamp_ntz" if isinstance(data_type, TimestampNTZType) else "timestamp"


def arrival_range_sql(
    column: str, data_type: DataType, lower: UnitValue | None, upper: UnitValue | None, unit: TimeUnit
) -> str:
    """SQL for ``lower ≤ trunc(column) ≤ upper`` (either bound may be None), written on the raw column
    against literals of its own type, so that Spark pushes it into the scan and prunes the partitions of a
    table partitioned by the arrival column. NULL arrivals never pass."""
    raw = quote(column)
    sql_type = raw_type_name(data_type)
    tests = [f"{raw} IS NOT NULL"]
    if lower is not None:
        tests.append(f"{raw} >= {sql_literal(lower, sql_type)}")
    if upper is not None:
        if sql_type == "date":  # only with unit = day: a date is its own unit
            tests.append(f"{raw} <= {sql_literal(upper, 'date')}")
        else:
            tests.append(f"{raw} < {sql_literal(shift_value(upper, 1, unit), sql_type)}")
    return " AND ".join(tests)
