"""The arguments only sizing takes (partner, the window in use, coverage), checked by the macros that check
them for the run-operation (macros/sizing/), in Python's spelling (plan/validation.py)."""

from __future__ import annotations

from ..plan.validation import check_choice, checked
from ..tables.join_types import ROW_MODES


def check_partner(value: object) -> str:
    """The row mode: 'all' (pairs) or one row per A ('first', 'last', 'aggregate'); inc_join's message."""
    return check_choice("partner", value, ROW_MODES)


def current_window(look_back_time: object, max_waiting_time: object) -> tuple[int, int] | None:
    """The window in use, when given: both lengths, or neither."""
    window = checked("_current_window", look_back_time, max_waiting_time)
    return None if window is None else (window[0], window[1])


def check_coverage(value: object) -> float:
    """A share of pairs in (0, 1]. Text and bool are refused like the window lengths of inc_join."""
    return float(checked("_check_coverage", value))


def check_complete_history(value: object) -> bool:
    """True or False: whether every partner of the history has arrived (no A row is censored)."""
    return bool(checked("_flag", "complete_history", value))
