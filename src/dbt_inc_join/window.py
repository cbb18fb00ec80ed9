"""Output windows: parsing bounds, the availability watermark, and the input slices a window needs (spec §2, §4, §6)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone, tzinfo
from zoneinfo import ZoneInfo

from .time_units import TimeUnit, UnitValue, floor_value, shift_value


def _zone(session_time_zone: str) -> tzinfo:
    if session_time_zone.upper() in ("UTC", "Z", "GMT"):
        return timezone.utc
    return ZoneInfo(session_time_zone)


def parse_bound(value: object, parameter: str, unit: TimeUnit, session_time_zone: str = "UTC") -> UnitValue | None:
    """A window bound as a unit value (the unit that contains it), or None.

    Accepts ``date``, ``datetime`` (naive ones are wall-clock time in the Spark session time zone; aware ones
    are converted to it) and ISO-8601 strings (``'2025-03-06'``, ``'2025-03-06 10:00'``, ``'2025-03-06T10:00Z'``).
    """
    if value is None:
        return None
    if isinstance(value, str):
        value = _parse_iso(value, parameter)
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(_zone(session_time_zone)).replace(tzinfo=None)
        return floor_value(value, unit)
    if isinstance(value, date):
        return floor_value(value, unit)
    raise TypeError(
        f"inc_join: {parameter} must be a date, a datetime or an ISO-8601 string such as '2025-03-06' or "
        f"'2025-03-06 10:00:00' (got {type(value).__name__} {value!r})."
    )


def _parse_iso(text: str, parameter: str) -> UnitValue:
    cleaned = text.strip()
    if cleaned.endswith(("Z", "z")):
        cleaned = cleaned[:-1] + "+00:00"
    try:
        if len(cleaned) == 10:
            return date.fromisoformat(cleaned)
        return datetime.fromisoformat(cleaned)
    except ValueError:
        raise ValueError(
            f"inc_join: {parameter}={text!r} is not an ISO-8601 date or timestamp; use e.g. '2025-03-06' or "
            "'2025-03-06 10:00:00'."
        ) from None


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
    """The arrivals (inclusive, in the unit) that a run over ``window`` reads of A and of B: docs/spec.md §4.
    A lower bound of None reads from the beginning of the table.

    An A row is placed at most ``max_waiting_time`` after it arrived; a B partner arrives at most
    ``look_back_time`` before its A row. With how = full a B row placed at ``b + look_back_time`` can still be
    claimed by an A row up to ``max_waiting_time`` before b, so A needs the same reach as B.

    Late matches (spec §10) reach ``late_match_time`` further: a late pair is placed at b, up to
    ``max_waiting_time + late_match_time`` after its A row, whose time-out is decided by B from ``a −
    look_back_time``. With how = full a B row placed at ``b + look_back_time`` is no ``b_timed_out`` when it is
    the late partner of a timed-out A row, so B reaches one more ``look_back_time`` back for that A row's
    window (spec §10 lists ``[s − mw − L − lb, e]``, which misses it; docs/spec.md §10 explains)."""
    assert window.end is not None, "an empty window reads nothing"
    full = how == "full"
    a_reach = max_waiting_time + late_match_time + (look_back_time if full else 0)
    b_reach = max_waiting_time + look_back_time + late_match_time + (look_back_time if full and late_match_time else 0)
    start = window.start
    a_lower = None if start is None else shift_value(start, -a_reach, unit)
    b_lower = None if start is None else shift_value(start, -b_reach, unit)
    return (a_lower, window.end), (b_lower, window.end)


def run_log_line(
    target: str, window: OutputWindow, start_reason: str, end_reason: str, ranges: tuple[ReadRange, ReadRange] | None
) -> str:
    """The one line a dbt run logs: the window, what decided each bound, and what it reads of each input.
    The SQL macro's _run_log_line writes the same text."""
    if window.is_empty:
        if window.end is None:
            shown = "empty (no end: no availability watermark)"
        else:
            shown = f"empty ({window.start} is after {window.end})"
        reads = "reads nothing"
    else:
        shown = f"{window.start or 'beginning'}..{window.end}"
        (a_lower, a_upper), (b_lower, b_upper) = ranges  # type: ignore[misc]
        reads = f"reads a {a_lower or 'beginning'}..{a_upper}, b {b_lower or 'beginning'}..{b_upper}"
    return f"inc_join {target}: window {shown}; start: {start_reason}; end: {end_reason}; {reads}"
