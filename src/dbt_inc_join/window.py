"""Output windows: parsing bounds, the availability watermark, and the input slices a window needs (SPEC §2, §4, §6)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Optional, Tuple

from .time_units import TimeUnit, UnitValue, floor_value, shift_value

try:  # Python >= 3.9
    from zoneinfo import ZoneInfo
except ImportError:  # pragma: no cover
    ZoneInfo = None  # type: ignore[assignment]


def _zone(session_time_zone: str):
    if session_time_zone.upper() in ("UTC", "Z", "GMT"):
        return timezone.utc
    return ZoneInfo(session_time_zone)


def parse_bound(value: object, parameter: str, unit: TimeUnit, session_time_zone: str = "UTC") -> Optional[UnitValue]:
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

    start: Optional[UnitValue]
    end: Optional[UnitValue]

    @property
    def is_empty(self) -> bool:
        return self.end is None or (self.start is not None and self.start > self.end)


@dataclass(frozen=True)
class InputSlices:
    """The arrivals (inclusive, in the unit) of each input that a window needs: SPEC §4's read bounds.
    A lower bound of None reads from the beginning of the table."""

    a: Tuple[Optional[UnitValue], UnitValue]
    b: Tuple[Optional[UnitValue], UnitValue]


def input_slices(window: OutputWindow, *, how: str, look_back_time: int, max_waiting_time: int,
                 unit: TimeUnit) -> InputSlices:
    """A's rows can be placed up to ``max_waiting_time`` after they arrived; B's partners up to
    ``look_back_time + max_waiting_time`` before the window. With how = full an A row can still claim a
    B row placed at ``b + look_back_time``, so A needs the same look-back as B."""
    assert window.end is not None, "an empty window reads nothing"
    a_reach = max_waiting_time + (look_back_time if how == "full" else 0)
    b_reach = max_waiting_time + look_back_time
    start = window.start
    a_lower = None if start is None else shift_value(start, -a_reach, unit)
    b_lower = None if start is None else shift_value(start, -b_reach, unit)
    return InputSlices(a=(a_lower, window.end), b=(b_lower, window.end))
