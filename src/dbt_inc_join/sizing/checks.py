"""The arguments only sizing takes (partner, the window in use, coverage), with inc_join's wording."""

from __future__ import annotations

from ..plan.validation import check_choice, check_window_length, type_failure
from ..tables.join_types import ROW_MODES


def check_partner(value: object) -> str:
    """The row mode: 'all' (pairs) or one row per A ('first', 'last', 'aggregate'); inc_join's message."""
    return check_choice("partner", value, ROW_MODES)


def current_window(look_back_time: object, max_waiting_time: object) -> tuple[int, int] | None:
    """The window in use, when given: both lengths, or neither."""
    if look_back_time is None and max_waiting_time is None:
        return None
    if look_back_time is None or max_waiting_time is None:
        raise ValueError(
            "inc_join: suggest_windows takes the window in use as look_back_time and max_waiting_time together "
            "(got only one of them)."
        )
    return check_window_length("look_back_time", look_back_time), check_window_length(
        "max_waiting_time", max_waiting_time
    )


def check_coverage(value: object) -> float:
    """A share of pairs in (0, 1]. Text and bool are refused like the window lengths of inc_join."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise type_failure("coverage", "a number in (0, 1], e.g. 0.999", value)
    if not 0 < value <= 1:  # also refuses NaN
        raise ValueError(
            f"inc_join: coverage must be in (0, 1], the share of partner pairs the window keeps (got {value!r})."
        )
    return float(value)


def check_complete_history(value: object) -> bool:
    """True or False: whether every partner of the history has arrived (no A row is censored)."""
    if not isinstance(value, bool):
        raise type_failure("complete_history", "True or False", value)
    return value
