"""Time units (``time_uom``): the unit, and truncation and arithmetic on Python values, rendered from
macros/sql_text/_time_units.sql like the SQL text of the same steps (sql_text.fragments).

A *unit value* is what an arrival becomes once truncated to the unit: a ``date`` for ``day``, a naive
``datetime`` (wall clock in the Spark session time zone) truncated to the hour or minute otherwise.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from enum import Enum

from .macros import render

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


TIME_UOM_VALUES = tuple(unit.value for unit in TimeUnit)


def shift_value(value: UnitValue, units: int, unit: TimeUnit) -> UnitValue:
    """``value`` moved by a whole number of units, negative moves back (``_shift_value``)."""
    return render("_shift_value", value, units, unit.value)
