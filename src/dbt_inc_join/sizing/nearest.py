"""Pure functions on the nearest partners, for one row per A (partner first, last or aggregate): an A row is
covered by (lb, mw) iff its nearest partner before a is within lb or the one after a within mw."""

from __future__ import annotations

from collections.abc import Mapping

from .histogram import better_window, coverage_targets, required_pairs
from .results import Histogram, NearestHistogram, WindowCandidate


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


def side_histogram(nearest: Mapping[tuple[int | None, int | None], int], side: int) -> Histogram:
    """A rows per distance to the nearest partner on one side (0: at or before a, 1: at or after a)."""
    histogram: Histogram = {}
    for point, rows in nearest.items():
        distance = point[side]
        if distance is not None:
            histogram[distance] = histogram.get(distance, 0) + rows
    return dict(sorted(histogram.items()))


def covered_a_rows(
    nearest: Mapping[tuple[int | None, int | None], int], look_back_time: int, max_waiting_time: int
) -> int:
    """Number of A rows with a partner in ``[a − lb, a + mw]``: ``before ≤ lb`` or ``after ≤ mw``."""
    return sum(
        rows
        for (before, after), rows in nearest.items()
        if (before is not None and before <= look_back_time) or (after is not None and after <= max_waiting_time)
    )


def covered_a_row_share(
    nearest: Mapping[tuple[int | None, int | None], int], look_back_time: int, max_waiting_time: int
) -> float:
    """The share of A rows (with a partner) the window keeps (1.0 without any: nothing is lost)."""
    total = sum(nearest.values())
    return covered_a_rows(nearest, look_back_time, max_waiting_time) / total if total else 1.0


def minimal_a_row_window(nearest: Mapping[tuple[int | None, int | None], int], coverage: float) -> tuple[int, int]:
    """The ``(lb, mw)`` keeping at least ``coverage`` of the A rows (``before ≤ lb`` or ``after ≤ mw``), ``lb``
    in ``[0, max(0, max before)]`` and ``mw`` in ``[0, max(0, max after)]``, the best by ``better_window`` (the
    smallest ``lb + mw``; ties: the smaller ``mw``). ``(0, 0)`` without A rows.

    As for pairs, only 0 and the distances that occur can be optimal, and the smallest sufficient ``mw`` only
    moves down as ``lb`` grows. The A rows not yet covered by ``lb`` are kept per ``after``; raising ``lb``
    takes each A row out of them once, so the search is O(k log k) for k distinct (before, after).
    """
    points = normalise_nearest(nearest)
    need = required_pairs(coverage, sum(points.values()))
    if need == 0:
        return 0, 0
    backs = [0, *sorted({b for b, _ in points if b is not None and b > 0})]
    aheads = [0, *sorted({a for _, a in points if a is not None and a > 0})]
    by_before: dict[int, list[tuple[int | None, int]]] = {}
    uncovered: dict[int, int] = {}  # A rows with before > lb (or no partner before), per after
    for (before, after), rows in points.items():
        if before is not None:
            by_before.setdefault(before, []).append((after, rows))
        if after is not None:
            uncovered[after] = uncovered.get(after, 0) + rows
    j = len(aheads) - 1
    kept = sum(uncovered.values())  # covered(lb below 0, mw = the largest after)
    best: tuple[int, int] | None = None
    for lb in backs:
        for after, rows in by_before.get(lb, ()):
            if after is not None:
                uncovered[after] -= rows
            if after is None or after > aheads[j]:
                kept += rows  # newly covered by lb
        if kept < need:
            continue
        while j > 0 and kept - uncovered.get(aheads[j], 0) >= need:
            kept -= uncovered.get(aheads[j], 0)
            j -= 1
        mw = aheads[j]
        if better_window((lb, mw), best):
            best = (lb, mw)
    assert best is not None  # the widest window keeps every A row with a partner, and need ≤ count
    return best


def candidate_a_row_windows(
    nearest: Mapping[tuple[int | None, int | None], int], coverage: float
) -> tuple[WindowCandidate, ...]:
    """The minimal window and the share of A rows it loses for each coverage target (none without A rows)."""
    if not sum(nearest.values()):
        return ()
    rows = []
    for target in coverage_targets(coverage):
        lb, mw = minimal_a_row_window(nearest, target)
        rows.append(WindowCandidate(target, lb, mw, 1.0 - covered_a_row_share(nearest, lb, mw)))
    return tuple(rows)
