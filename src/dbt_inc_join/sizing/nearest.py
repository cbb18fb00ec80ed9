"""The rules on the nearest partners, for one row per A (partner first, last or aggregate): an A row is covered
by (lb, mw) iff its nearest partner before a is within lb or the one after a within mw. Each is a macro of
macros/sizing/_sizing_a_rows.sql, rendered here (issue 41); what stays Python is the check of a histogram and
the conversion between its dict and the macros' points ``[[before, after, A rows], ...]``."""

from __future__ import annotations

from collections.abc import Mapping

from ..sql_text import render
from .results import NearestHistogram


def normalise_nearest(nearest: Mapping[tuple[int | None, int | None], int]) -> NearestHistogram:
    """The histogram sorted by (before, after) with None last, without empty bins. Distances are whole
    numbers ≥ 0 or None (not both), counts whole numbers ≥ 0."""
    cleaned = {}
    for point, rows in nearest.items():
        if not isinstance(point, tuple) or len(point) != 2:
            raise TypeError(f"inc_join: nearest-partner key must be a pair (before, after) (got {point!r}).")
        checked = [("distance", d) for d in point if d is not None] + [("A row count", rows)]
        for name, value in checked:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"inc_join: nearest-partner {name} must be a whole number (got {value!r}).")
            if value < 0:
                raise ValueError(f"inc_join: nearest-partner {name} must not be negative (got {value} at {point}).")
        if point == (None, None):
            raise ValueError(
                "inc_join: nearest-partner (None, None) is an A row without partner; count those apart "
                "(without_partner)."
            )
        if rows:
            cleaned[point] = rows
    return dict(sorted(cleaned.items(), key=lambda item: tuple((d is None, d or 0) for d in item[0])))


def nearest_points(nearest: Mapping[tuple[int | None, int | None], int]) -> list[list[int | None]]:
    """The checked histogram as the macros take it: ``[[before, after, A rows], ...]`` in its sorted order."""
    return [[before, after, rows] for (before, after), rows in normalise_nearest(nearest).items()]


def covered_a_rows(
    nearest: Mapping[tuple[int | None, int | None], int], look_back_time: int, max_waiting_time: int
) -> int:
    """Number of A rows with a partner in ``[a − lb, a + mw]``: ``before ≤ lb`` or ``after ≤ mw``
    (``_covered_a_rows``)."""
    return int(render("_covered_a_rows", nearest_points(nearest), look_back_time, max_waiting_time))


def covered_a_row_share(
    nearest: Mapping[tuple[int | None, int | None], int], look_back_time: int, max_waiting_time: int
) -> float:
    """The share of A rows (with a partner) the window keeps (1.0 without any: nothing is lost)."""
    total = sum(normalise_nearest(nearest).values())
    return covered_a_rows(nearest, look_back_time, max_waiting_time) / total if total else 1.0


def minimal_a_row_window(nearest: Mapping[tuple[int | None, int | None], int], coverage: float) -> tuple[int, int]:
    """The ``(lb, mw)`` keeping at least ``coverage`` of the A rows (``before ≤ lb`` or ``after ≤ mw``), the
    smallest ``lb + mw``, ties to the smaller ``mw`` (``_minimal_a_row_window``, its tie rule
    ``_better_window``); ``(0, 0)`` without A rows."""
    count = sum(normalise_nearest(nearest).values())
    lb, mw = render("_minimal_a_row_window", nearest_points(nearest), count, coverage)
    return lb, mw
