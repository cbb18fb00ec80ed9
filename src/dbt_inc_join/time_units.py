"""Time units (``time_uom``): truncation, arithmetic and literals, on Python values and as Spark SQL text.

A *unit value* is what an arrival becomes once truncated to the unit: a ``date`` for ``day``, a naive
``datetime`` (wall clock in the Spark session time zone) truncated to the hour or minute otherwise.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from enum import Enum

UnitValue = date | datetime


class TimeUnit(str, Enum):
    DAY = "day"
    HOUR = "hour"
    MINUTE = "minute"

    @property
    def step(self) -> timedelta:
        return {
            TimeUnit.DAY: timedelta(days=1),
            TimeUnit.HOUR: timedelta(hours=1),
            TimeUnit.MINUTE: timedelta(minutes=1),
        }[self]

    @property
    def spark_type(self) -> str:
        """The SQL type of a truncated arrival (and of the output ``inc_col``)."""
        return "date" if self is TimeUnit.DAY else "timestamp"


TIME_UOM_VALUES = tuple(unit.value for unit in TimeUnit)


def floor_value(value: UnitValue, unit: TimeUnit) -> UnitValue:
    """The unit containing ``value``: a date for ``day``, a datetime cut to the hour/minute otherwise."""
    if unit is TimeUnit.DAY:
        return value.date() if isinstance(value, datetime) else value
    if not isinstance(value, datetime):
        return datetime(value.year, value.month, value.day)
    if unit is TimeUnit.HOUR:
        return value.replace(minute=0, second=0, microsecond=0)
    return value.replace(second=0, microsecond=0)


def shift_value(value: UnitValue, units: int, unit: TimeUnit) -> UnitValue:
    """``value`` moved by a whole number of units (negative moves back)."""
    return value + units * unit.step


def units_text(units: int, unit: TimeUnit) -> str:
    """A number of units as a log line says it: ``1 day``, ``3 hours``."""
    return f"{units} {unit.value}{'' if units == 1 else 's'}"


def sql_literal(value: UnitValue, sql_type: str) -> str:
    """A typed SQL literal (``DATE'…'``, ``TIMESTAMP'…'``, ``TIMESTAMP_NTZ'…'``) read in the session time zone."""
    if sql_type == "date":
        day = value.date() if isinstance(value, datetime) else value
        return f"DATE'{day.isoformat()}'"
    moment = value if isinstance(value, datetime) else datetime(value.year, value.month, value.day)
    return f"{sql_type.upper()}'{moment.strftime('%Y-%m-%d %H:%M:%S')}'"


def truncate_sql(arrival: str, unit: TimeUnit) -> str:
    """SQL for an arrival truncated to the unit: DATE for ``day``, TIMESTAMP otherwise."""
    if unit is TimeUnit.DAY:
        return f"to_date({arrival})"
    return f"CAST(date_trunc('{unit.value.upper()}', {arrival}) AS TIMESTAMP)"


def add_units_sql(value: str, units: int, unit: TimeUnit) -> str:
    """SQL for a truncated arrival moved by a whole number of units."""
    if units == 0:
        return value
    if unit is TimeUnit.DAY:
        return f"date_add({value}, {units})"
    return f"({value} + INTERVAL {units} {unit.value.upper()}S)"


def diff_units_sql(later: str, earlier: str, unit: TimeUnit) -> str:
    """SQL for ``later − earlier`` in whole units, as INT, for two truncated arrivals."""
    if unit is TimeUnit.DAY:
        return f"datediff({later}, {earlier})"
    seconds = int(unit.step.total_seconds())
    return f"CAST((unix_timestamp({later}) - unix_timestamp({earlier})) DIV {seconds} AS INT)"


def unit_number_sql(arrival: str, unit: TimeUnit) -> str:
    """SQL for a truncated arrival as a whole number of units since 1970-01-01 (BIGINT): consecutive units get
    consecutive numbers, so ``add_units_sql`` by n adds n to it."""
    if unit is TimeUnit.DAY:
        return f"CAST(unix_date({arrival}) AS BIGINT)"
    seconds = int(unit.step.total_seconds())
    return f"CAST(floor(unix_seconds({arrival}) / {seconds}) AS BIGINT)"
