"""Output windows: parsing bounds, the availability watermark, and the input slices a window needs (spec §2, §4, §6)."""

from __future__ import annotations

from dataclasses import dataclass

from ..sql_text import render
from ..sql_text.time_units import TimeUnit, UnitValue
from .validation import checked


def parse_bound(value: object, parameter: str, unit: TimeUnit, session_time_zone: str = "UTC") -> UnitValue | None:
    """A window bound as a unit value (the unit that contains it), or None: the macro ``_parse_bound`` in
    Python's spelling. Accepts ``date``, ``datetime`` (naive ones are wall-clock time in the Spark session time
    zone; aware ones are converted to it) and ISO-8601 strings (``'2025-03-06'``, ``'2025-03-06 10:00'``,
    ``'2025-03-06T10:00Z'``)."""
    return checked("_parse_bound", value, parameter, unit.value, zone=session_time_zone)


@dataclass(frozen=True)
class OutputWindow:
    """Inclusive bounds ``[start, end]`` in the unit. ``start=None``: no lower bound. ``end=None`` (no data yet)
    or ``start > end`` is an empty window: a valid run with nothing to do."""

    start: UnitValue | None
    end: UnitValue | None

    @property
    def is_empty(self) -> bool:
        return self.end is None or (self.start is not None and self.start > self.end)


ReadRange = tuple[UnitValue | None, UnitValue]


def read_ranges(
    window: OutputWindow,
    *,
    how: str,
    look_back_time: int,
    max_waiting_time: int,
    unit: TimeUnit,
    late_match_time: int = 0,
) -> tuple[ReadRange, ReadRange]:
    """The arrivals (inclusive, in the unit) that a run over ``window`` reads of A and of B: docs/spec.md §4 (the
    macro ``_read_ranges``). A lower bound of None reads from the beginning of the table."""
    assert window.end is not None, "an empty window reads nothing"
    args = (window.start, window.end, how, look_back_time, max_waiting_time, unit.value, late_match_time)
    a_range, b_range = render("_read_ranges", *args)
    return tuple(a_range), tuple(b_range)
