"""Window sizing: which look_back_time and max_waiting_time would the history have needed?

One Spark job counts the partner pairs of the history (equal keys, both arrivals known, any distance) per
arrival distance Δ = b − a in whole units. It never forms the pairs: it counts the A rows per (keys, a) and the
B rows per (keys, b), joins those counts on the keys and sums count_a × count_b per Δ, so a hot key (thousands
of rows a day) costs its distinct arrivals, not its rows squared. Everything after that is pure Python on that
small histogram, so the numbers are easy to test and to reproduce in SQL (the dbt run-operation follows the
same rules):

* quantiles by nearest rank: the Δ at rank ``max(1, ceil(p · n))`` in ascending order;
* ``covered(lb, mw)``: the share of pairs with ``−lb ≤ Δ ≤ mw``;
* the suggestion for a coverage ``c``: the ``(lb, mw)`` with ``covered ≥ c`` and the smallest ``lb + mw``,
  ties going to the smaller ``mw`` (waiting delays every unmatched row; looking back costs only reads);
* late matches (spec §10) for the window ``(lb, mw)``, given or suggested: per ``late_match_time`` L in
  ``late_match_values(mw)``, the pairs with ``mw < Δ ≤ mw + L``. Each is a late match when its A row has no
  partner in the window (always, for keys with one row a side), so this is what L would bring back at most.

With one row per A (``partner`` = ``first``, ``last`` or ``aggregate``, spec §11) the question is another one:
an A row gets a row with its partner(s) exactly when at least one partner arrives in ``[a − lb, a + mw]``, else
it times out. The Spark job then gives, per (keys, a), the nearest partner at or before ``a`` (``a − b ≥ 0``,
the smallest) and at or after ``a`` (``b − a ≥ 0``, the smallest), weighted by the A rows with that (keys, a):
a histogram over (before, after). An A row is covered by ``(lb, mw)`` iff ``before ≤ lb`` or ``after ≤ mw``;
the shares, the suggestion and its ties are those above, counted in A rows (that have any partner) instead of
pairs.

Products and comparisons with ``p`` and ``c`` are exact on their decimal value as written (``0.999`` means
999/1000), as they are with SQL decimal literals; floating-point rounding never moves a rank or a boundary.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate
from math import ceil
from typing import Literal, NamedTuple, overload

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from .join import check_inputs
from .join_types import ROW_MODES
from .predicates import quote
from .time_units import TimeUnit, diff_units_sql, truncate_sql
from .validation import check_choice as _choice
from .validation import check_window_length as _window_length
from .validation import type_failure as _fail_type

Histogram = dict[int, int]
#: One row per A: (a − b of the nearest partner at or before a, b − a of the nearest at or after a) → A rows;
#: None where there is no partner on that side (never both).
NearestHistogram = dict[tuple[int | None, int | None], int]

QUANTILE_LEVELS: tuple[float, ...] = (0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999)
COVERAGE_TARGETS: tuple[float, ...] = (0.9, 0.99, 0.999, 1.0)

_DELTA = "_delta"


class LateMatchShare(NamedTuple):
    """The partner pairs a ``late_match_time`` would pair late: those with ``mw < Δ ≤ mw + L``."""

    late_match_time: int
    pairs: int
    share: float  #: of all partner pairs


class WindowCandidate(NamedTuple):
    """The smallest window that keeps at least ``target`` of the pairs, and the share it still loses."""

    target: float
    look_back_time: int
    max_waiting_time: int
    lost: float


@dataclass(frozen=True)
class WindowSuggestion:
    """What the history says about the arrival distance of partners, and the window it suggests."""

    count: int  #: number of partner pairs
    minimum: int | None  #: smallest Δ (None without pairs)
    maximum: int | None  #: largest Δ (None without pairs)
    quantiles: dict[float, int]  #: nearest-rank quantiles of Δ by level, empty without pairs
    look_back_time: int
    max_waiting_time: int
    coverage: float  #: the requested share of pairs to keep
    covered: float  #: the share of pairs the suggested window keeps
    candidates: tuple[WindowCandidate, ...]  #: one row per coverage target, ascending
    histogram: Histogram = field(repr=False)  #: number of pairs per Δ
    time_uom: str = "day"
    note: str = ""
    #: the window the late matches are counted for: the caller's (look_back_time, max_waiting_time), or the suggested
    late_window: tuple[int, int] = (0, 0)
    late_matches: tuple[LateMatchShare, ...] = ()  #: spec §10, one row per late_match_time value

    def report(self) -> str:
        """A few lines of text for a terminal: the distribution, the suggestion and its alternatives."""
        return format_report(self)


@dataclass(frozen=True)
class ARowWindowSuggestion:
    """One row per A (``partner`` = ``first``, ``last`` or ``aggregate``): which A rows have a partner in the
    window, and the window it suggests. Counts A rows, not pairs."""

    partner: str  #: the row mode asked for: "first", "last" or "aggregate"
    count: int  #: A rows with at least one partner (equal keys, both arrivals known)
    without_partner: int  #: A rows (arrival known) without any partner: no window gives them one
    before: int  #: A rows with a partner at or before a
    after: int  #: A rows with a partner at or after a
    before_quantiles: dict[float, int]  #: nearest-rank quantiles of a − b of the nearest partner at or before a
    after_quantiles: dict[float, int]  #: nearest-rank quantiles of b − a of the nearest partner at or after a
    look_back_time: int
    max_waiting_time: int
    coverage: float  #: the requested share of A rows (with a partner) to keep
    covered: float  #: the share of those A rows the suggested window keeps
    candidates: tuple[WindowCandidate, ...]  #: one row per coverage target, ascending
    nearest: NearestHistogram = field(repr=False)  #: A rows per (before, after)
    time_uom: str = "day"
    note: str = ""

    def report(self) -> str:
        """A few lines of text for a terminal: the nearest partners, the suggestion and its alternatives."""
        return format_a_row_report(self)


# --- validation ------------------------------------------------------------------------------------------


def check_partner(value: object) -> str:
    """The row mode: 'all' (pairs) or one row per A ('first', 'last', 'aggregate'); inc_join's message."""
    return _choice("partner", value, ROW_MODES)


def current_window(look_back_time: object, max_waiting_time: object) -> tuple[int, int] | None:
    """The window in use, when given: both lengths, or neither."""
    if look_back_time is None and max_waiting_time is None:
        return None
    if look_back_time is None or max_waiting_time is None:
        raise ValueError(
            "inc_join: suggest_windows takes the window in use as look_back_time and max_waiting_time together "
            "(got only one of them)."
        )
    return _window_length("look_back_time", look_back_time), _window_length("max_waiting_time", max_waiting_time)


def check_coverage(value: object) -> float:
    """A share of pairs in (0, 1]. Text and bool are refused like the window lengths of inc_join."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail_type("coverage", "a number in (0, 1], e.g. 0.999", value)
    if not 0 < value <= 1:  # also refuses NaN
        raise ValueError(
            f"inc_join: coverage must be in (0, 1], the share of partner pairs the window keeps (got {value!r})."
        )
    return float(value)


# --- pure functions on the histogram ---------------------------------------------------------------------


def normalise_histogram(histogram: Mapping[int, int]) -> Histogram:
    """The histogram sorted by Δ, without empty bins; Δ and counts must be whole numbers, counts ≥ 0."""
    cleaned = {}
    for delta, pairs in histogram.items():
        for name, value in (("arrival distance", delta), ("pair count", pairs)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"inc_join: histogram {name} must be a whole number (got {value!r}).")
        if pairs < 0:
            raise ValueError(f"inc_join: histogram pair count must not be negative (got {pairs} at Δ={delta}).")
        if pairs:
            cleaned[delta] = pairs
    return dict(sorted(cleaned.items()))


def _exact(share: float) -> Fraction:
    """The decimal value of a share as written (repr is the shortest text that reads back as the float)."""
    return Fraction(repr(float(share)))


def nearest_rank(level: float, count: int) -> int:
    """The 1-based rank of the ``level`` quantile among ``count`` ordered values: ``max(1, ceil(p · n))``."""
    return max(1, ceil(_exact(level) * count))


def quantiles(histogram: Mapping[int, int], levels: Sequence[float] = QUANTILE_LEVELS) -> dict[float, int]:
    """Nearest-rank quantiles of Δ; empty for an empty histogram."""
    bins = normalise_histogram(histogram)
    deltas = list(bins)
    ends = list(accumulate(bins.values()))  # the rank of the last pair in each bin
    if not ends:
        return {}
    return {level: deltas[bisect_left(ends, nearest_rank(level, ends[-1]))] for level in levels}


def covered_pairs(histogram: Mapping[int, int], look_back_time: int, max_waiting_time: int) -> int:
    """Number of pairs with ``−look_back_time ≤ Δ ≤ max_waiting_time``."""
    return sum(pairs for delta, pairs in histogram.items() if -look_back_time <= delta <= max_waiting_time)


def covered_share(histogram: Mapping[int, int], look_back_time: int, max_waiting_time: int) -> float:
    """``covered(lb, mw)``: the share of pairs the window keeps (1.0 without pairs: nothing is lost)."""
    total = sum(histogram.values())
    return covered_pairs(histogram, look_back_time, max_waiting_time) / total if total else 1.0


def required_pairs(coverage: float, count: int) -> int:
    """The fewest pairs ``k`` with ``k / count ≥ coverage``."""
    return ceil(_exact(coverage) * count)


def minimal_window(histogram: Mapping[int, int], coverage: float) -> tuple[int, int]:
    """The ``(lb, mw)`` with ``covered(lb, mw) ≥ coverage``, ``lb`` in ``[0, max(0, −min)]`` and ``mw`` in
    ``[0, max(0, max)]``, with the smallest ``lb + mw``; ties: the smaller ``mw``. ``(0, 0)`` without pairs.

    Only 0 and the distances that occur can be optimal (shrinking a bound to the nearest occurring distance
    keeps every pair and the sum does not grow), so two pointers over the distinct distances find the answer in
    O(k log k) for k distinct Δ, however wide their range.
    """
    bins = normalise_histogram(histogram)
    need = required_pairs(coverage, sum(bins.values()))
    if need == 0:
        return 0, 0
    # lb candidates ascending with the pairs in [−lb, −1]; mw candidates ascending with the pairs in [0, mw].
    back = [(0, 0)]
    for delta in sorted((d for d in bins if d < 0), reverse=True):
        back.append((-delta, back[-1][1] + bins[delta]))
    ahead = [(0, bins.get(0, 0))]
    for delta in (d for d in bins if d > 0):
        ahead.append((delta, ahead[-1][1] + bins[delta]))
    best: tuple[int, int] | None = None
    j = len(ahead) - 1
    for lb, behind in back:
        # As lb grows, fewer pairs are needed ahead: the smallest sufficient mw only moves down.
        if behind + ahead[j][1] < need:
            continue
        while j > 0 and behind + ahead[j - 1][1] >= need:
            j -= 1
        mw = ahead[j][0]
        if best is None or (lb + mw, mw) < (best[0] + best[1], best[1]):
            best = (lb, mw)
    assert best is not None  # the widest window keeps every pair, and need ≤ count
    return best


def coverage_targets(coverage: float) -> tuple[float, ...]:
    """The standard targets plus the requested coverage, ascending, without duplicates."""
    return tuple(sorted(set(COVERAGE_TARGETS) | {float(coverage)}))


def candidate_windows(histogram: Mapping[int, int], coverage: float) -> tuple[WindowCandidate, ...]:
    """The minimal window and the share of pairs it loses for each coverage target (none without pairs)."""
    if not sum(histogram.values()):
        return ()
    rows = []
    for target in coverage_targets(coverage):
        lb, mw = minimal_window(histogram, target)
        rows.append(WindowCandidate(target, lb, mw, 1.0 - covered_share(histogram, lb, mw)))
    return tuple(rows)


def late_match_values(max_waiting_time: int) -> tuple[int, ...]:
    """The late_match_time values the report shows: 1, half, one and two times max_waiting_time."""
    values = {1, max_waiting_time // 2, max_waiting_time, 2 * max_waiting_time}
    return tuple(sorted(v for v in values if v > 0))


def late_match_shares(histogram: Mapping[int, int], max_waiting_time: int) -> tuple[LateMatchShare, ...]:
    """Per late_match_time value: the pairs with ``mw < Δ ≤ mw + L`` and their share of all pairs."""
    count = sum(histogram.values())
    shares = []
    for late in late_match_values(max_waiting_time):
        pairs = sum(n for d, n in histogram.items() if max_waiting_time < d <= max_waiting_time + late)
        shares.append(LateMatchShare(late, pairs, pairs / count if count else 0.0))
    return tuple(shares)


def suggest_from_histogram(
    histogram: Mapping[int, int],
    coverage: float = 0.999,
    time_uom: str = "day",
    window: tuple[int, int] | None = None,
) -> WindowSuggestion:
    """The whole suggestion from a histogram of Δ (pairs per whole-unit distance). ``window``: the
    (look_back_time, max_waiting_time) in use, for the late matches (default: the suggested one)."""
    coverage = check_coverage(coverage)
    bins = normalise_histogram(histogram)
    count = sum(bins.values())
    if not count:
        return WindowSuggestion(
            count=0,
            minimum=None,
            maximum=None,
            quantiles={},
            look_back_time=0,
            max_waiting_time=0,
            coverage=coverage,
            covered=1.0,
            candidates=(),
            histogram={},
            time_uom=time_uom,
            note="no partner pairs: no key occurs in both inputs with both arrivals known, so the history "
            "says nothing about the window; lb = mw = 0 is a placeholder",
        )
    lb, mw = minimal_window(bins, coverage)
    late_window = window or (lb, mw)
    return WindowSuggestion(
        count=count,
        minimum=min(bins),
        maximum=max(bins),
        quantiles=quantiles(bins),
        look_back_time=lb,
        max_waiting_time=mw,
        coverage=coverage,
        covered=covered_share(bins, lb, mw),
        candidates=candidate_windows(bins, coverage),
        histogram=bins,
        time_uom=time_uom,
        late_window=late_window,
        late_matches=late_match_shares(bins, late_window[1]),
    )


# --- pure functions on the nearest partners (one row per A) -----------------------------------------------


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


def _side_histogram(nearest: Mapping[tuple[int | None, int | None], int], side: int) -> Histogram:
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
    in ``[0, max(0, max before)]`` and ``mw`` in ``[0, max(0, max after)]``, with the smallest ``lb + mw``;
    ties: the smaller ``mw``. ``(0, 0)`` without A rows.

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
        if best is None or (lb + mw, mw) < (best[0] + best[1], best[1]):
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


def suggest_from_nearest(
    nearest: Mapping[tuple[int | None, int | None], int],
    coverage: float = 0.999,
    time_uom: str = "day",
    partner: str = "first",
    without_partner: int = 0,
) -> ARowWindowSuggestion:
    """The whole one-row-per-A suggestion from the histogram of nearest partners (A rows per (before, after))
    and the number of A rows without any partner."""
    coverage = check_coverage(coverage)
    partner = check_partner(partner)
    if partner == "all":
        raise ValueError(
            "inc_join: suggest_from_nearest counts A rows; partner='all' counts pairs (use suggest_from_histogram)."
        )
    if isinstance(without_partner, bool) or not isinstance(without_partner, int) or without_partner < 0:
        raise _fail_type("without_partner", "a whole number ≥ 0", without_partner)
    points = normalise_nearest(nearest)
    count = sum(points.values())
    before, after = _side_histogram(points, 0), _side_histogram(points, 1)
    lb, mw = minimal_a_row_window(points, coverage)
    return ARowWindowSuggestion(
        partner=partner,
        count=count,
        without_partner=without_partner,
        before=sum(before.values()),
        after=sum(after.values()),
        before_quantiles=quantiles(before),
        after_quantiles=quantiles(after),
        look_back_time=lb,
        max_waiting_time=mw,
        coverage=coverage,
        covered=covered_a_row_share(points, lb, mw),
        candidates=candidate_a_row_windows(points, coverage),
        nearest=points,
        time_uom=time_uom,
        note=""
        if count
        else "no A row has a partner: no key occurs in both inputs with both arrivals known, so the history "
        "says nothing about the window; lb = mw = 0 is a placeholder",
    )


# --- the report ------------------------------------------------------------------------------------------


def percent(share: float) -> str:
    """``0.999`` → ``99.9%``. Two decimals, more when they would round a non-zero loss to 0% or a share
    that is not whole to 100%."""
    value, digits = share * 100, 2
    while digits < 8 and value not in (0, 100) and round(value, digits) in (0, 100):
        digits += 1
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return f"{text}%"


def window_text(look_back_time: int, max_waiting_time: int) -> str:
    """``[−3, +7]``; a zero bound is written ``0`` rather than ``−0`` or ``+0``."""
    low = f"−{look_back_time}" if look_back_time else "0"
    high = f"+{max_waiting_time}" if max_waiting_time else "0"
    return f"[{low}, {high}]"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    # The first column names the row and reads left-aligned; numbers align on the right.
    return [
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in [header, *rows]
    ]


def format_report(suggestion: WindowSuggestion) -> str:
    """The text of ``WindowSuggestion.report()``."""
    s, unit = suggestion, f"{suggestion.time_uom}s"
    lines = [f"inc_join window sizing: {s.count:,} partner pairs, Δ = b − a in {unit}"]
    if not s.count:
        lines += [f"  {s.note}", "  suggested: look_back_time=0, max_waiting_time=0"]
        return "\n".join(lines)
    lines.append(f"  Δ from {s.minimum} to {s.maximum} {unit}")
    levels = list(s.quantiles)
    lines += [
        "  " + line
        for line in _table(["quantile", *map(percent, levels)], [["Δ", *(str(s.quantiles[p]) for p in levels)]])
    ]
    lost = s.count - covered_pairs(s.histogram, s.look_back_time, s.max_waiting_time)
    window = window_text(s.look_back_time, s.max_waiting_time)
    lines.append(
        f"suggested for coverage {percent(s.coverage)}: look_back_time={s.look_back_time}, "
        f"max_waiting_time={s.max_waiting_time} (window {window} keeps {percent(s.covered)} of the "
        f"pairs, loses {lost:,})"
    )
    rows = [
        [
            percent(c.target),
            str(c.look_back_time),
            str(c.max_waiting_time),
            percent(c.lost),
            f"{s.count - covered_pairs(s.histogram, c.look_back_time, c.max_waiting_time):,}",
        ]
        for c in s.candidates
    ]
    lines += [
        "  " + line for line in _table(["coverage", "look_back_time", "max_waiting_time", "lost", "lost pairs"], rows)
    ]
    if s.late_matches:
        lb, mw = s.late_window
        lines.append(
            f"late matches with look_back_time={lb}, max_waiting_time={mw}: pairs with {mw} < Δ ≤ {mw} + "
            "late_match_time (late matches when their A row has no partner in the window)"
        )
        late_rows = [[str(m.late_match_time), f"{m.pairs:,}", percent(m.share)] for m in s.late_matches]
        lines += ["  " + line for line in _table(["late_match_time", "pairs", "share"], late_rows)]
    return "\n".join(lines)


def format_a_row_report(suggestion: ARowWindowSuggestion) -> str:
    """The text of ``ARowWindowSuggestion.report()``; the run-operation prints the same with ``-`` for ``−``."""
    s, unit = suggestion, f"{suggestion.time_uom}s"
    lines = [
        f"inc_join window sizing, partner='{s.partner}': {s.count:,} A rows with a partner, distances in {unit} "
        "(counts A rows, not pairs)",
        f"  {s.without_partner:,} A rows without any partner of equal keys are left out: no window gives them one",
    ]
    if not s.count:
        lines += [f"  {s.note}", "  suggested: look_back_time=0, max_waiting_time=0"]
        return "\n".join(lines)
    lines.append("  an A row is kept when at least one partner arrives in [a − lb, a + mw], else it times out")
    levels = list(QUANTILE_LEVELS)
    sides = []
    for label, side_rows, found in (
        ("at or before a: a − b", s.before, s.before_quantiles),
        ("at or after a: b − a", s.after, s.after_quantiles),
    ):
        cells = [str(found[p]) for p in levels] if side_rows else ["-"] * len(levels)
        sides.append([label, f"{side_rows:,}", *cells])
    lines += ["  " + line for line in _table(["nearest partner", "A rows", *map(percent, levels)], sides)]
    lost = s.count - covered_a_rows(s.nearest, s.look_back_time, s.max_waiting_time)
    window = window_text(s.look_back_time, s.max_waiting_time)
    lines.append(
        f"suggested for coverage {percent(s.coverage)}: look_back_time={s.look_back_time}, "
        f"max_waiting_time={s.max_waiting_time} (window {window} keeps {percent(s.covered)} of the "
        f"A rows, loses {lost:,})"
    )
    rows = [
        [
            percent(c.target),
            str(c.look_back_time),
            str(c.max_waiting_time),
            percent(c.lost),
            f"{s.count - covered_a_rows(s.nearest, c.look_back_time, c.max_waiting_time):,}",
        ]
        for c in s.candidates
    ]
    lines += [
        "  " + line for line in _table(["coverage", "look_back_time", "max_waiting_time", "lost", "lost A rows"], rows)
    ]
    return "\n".join(lines)


# --- Spark ---------------------------------------------------------------------------------------------


def _arrival_counts(
    df: DataFrame, side: str, index: int, keys: Sequence[tuple[str, str]], inc_cols: tuple[str, str], unit: TimeUnit
) -> DataFrame:
    """``_<side>k0.., _<side>_arrival, _<side>_rows``: the rows of one input per (keys, arrival truncated to the
    unit), arrival known. A key with thousands of rows a day gives one row per day here."""
    arrival = quote(inc_cols[index])
    keyed = df.where(f"{arrival} IS NOT NULL").selectExpr(
        *[f"{quote(k[index])} AS _{side}k{i}" for i, k in enumerate(keys)],
        f"{truncate_sql(arrival, unit)} AS _{side}_arrival",
    )
    return keyed.groupBy(*keyed.columns).agg(F.count(F.lit(1)).alias(f"_{side}_rows"))


def _key_condition(keys: Sequence[tuple[str, str]]):
    return F.expr(" AND ".join(f"_ak{i} = _bk{i}" for i in range(len(keys))))


def delta_histogram(
    df_a: DataFrame, df_b: DataFrame, keys: Sequence[tuple[str, str]], inc_cols: tuple[str, str], unit: TimeUnit
) -> Histogram:
    """Pairs per Δ over the whole history: equal keys (NULL never matches), both arrivals known. One job.

    The pairs are counted, never formed: A rows per (keys, a) and B rows per (keys, b), joined on the keys,
    ``count_a × count_b`` summed per Δ. The cost grows with the distinct arrivals per key, not its rows."""
    counts_a = _arrival_counts(df_a, "a", 0, keys, inc_cols, unit)
    counts_b = _arrival_counts(df_b, "b", 1, keys, inc_cols, unit)
    counts = (
        counts_a.join(counts_b, _key_condition(keys), "inner")
        .selectExpr(
            f"{diff_units_sql('_b_arrival', '_a_arrival', unit)} AS {_DELTA}",
            "_a_rows * _b_rows AS _pairs",
        )
        .groupBy(_DELTA)
        .agg(F.sum("_pairs").alias("_pairs"))
        .collect()
    )
    return {int(row[_DELTA]): int(row["_pairs"]) for row in counts}


def nearest_partners(
    df_a: DataFrame, df_b: DataFrame, keys: Sequence[tuple[str, str]], inc_cols: tuple[str, str], unit: TimeUnit
) -> tuple[NearestHistogram, int]:
    """A rows per (a − b of the nearest partner at or before a, b − a of the nearest at or after a), and the
    number of A rows without any partner (equal keys, NULL never matches, both arrivals known). One job.

    Computed per distinct (keys, a) of A against the distinct (keys, b) of B and weighted by the A rows of
    that (keys, a): no pair of rows is formed."""
    groups = _arrival_counts(df_a, "a", 0, keys, inc_cols, unit)
    arrivals_b = _arrival_counts(df_b, "b", 1, keys, inc_cols, unit).drop("_b_rows")
    delta = diff_units_sql("_b_arrival", "_a_arrival", unit)
    rows = (
        groups.join(arrivals_b, _key_condition(keys), "left")
        .selectExpr(*groups.columns, f"{delta} AS {_DELTA}")
        .groupBy(*groups.columns)
        .agg(
            F.expr(f"min(CASE WHEN {_DELTA} <= 0 THEN -{_DELTA} END)").alias("_before"),
            F.expr(f"min(CASE WHEN {_DELTA} >= 0 THEN {_DELTA} END)").alias("_after"),
        )
        .groupBy("_before", "_after")
        .agg(F.sum("_a_rows").alias("_a_rows"))
        .collect()
    )
    nearest: NearestHistogram = {}
    without_partner = 0
    for row in rows:
        before, after = (None if row[c] is None else int(row[c]) for c in ("_before", "_after"))
        if before is None and after is None:
            without_partner += int(row["_a_rows"])
        else:
            nearest[(before, after)] = int(row["_a_rows"])
    return normalise_nearest(nearest), without_partner


@overload
def suggest_windows(
    df_a: DataFrame,
    df_b: DataFrame,
    *,
    join_cols,
    inc_col: str = ...,
    time_uom: str = ...,
    coverage: float = ...,
    partner: Literal["all"] = ...,
    look_back_time: int | None = ...,
    max_waiting_time: int | None = ...,
) -> WindowSuggestion: ...


@overload
def suggest_windows(
    df_a: DataFrame,
    df_b: DataFrame,
    *,
    join_cols,
    inc_col: str = ...,
    time_uom: str = ...,
    coverage: float = ...,
    partner: str,
    look_back_time: int | None = ...,
    max_waiting_time: int | None = ...,
) -> WindowSuggestion | ARowWindowSuggestion: ...


def suggest_windows(
    df_a: DataFrame,
    df_b: DataFrame,
    *,
    join_cols,
    inc_col: str = "RecDate",
    time_uom: str = "day",
    coverage: float = 0.999,
    partner: str = "all",
    look_back_time: int | None = None,
    max_waiting_time: int | None = None,
) -> WindowSuggestion | ARowWindowSuggestion:
    """Suggest ``look_back_time`` and ``max_waiting_time`` from the history of A and B.

    With ``partner='all'`` (inc_join's default) the suggestion is the smallest window ``[−lb, +mw]`` that
    keeps at least ``coverage`` of the partner pairs; with one row per A (``'first'``, ``'last'``,
    ``'aggregate'``) the smallest window in which at least ``coverage`` of the A rows that have a partner find
    one, and the result is an ``ARowWindowSuggestion`` (see the module docstring for the exact rules). All
    arguments are checked before any data is read; then one Spark job computes the histogram from counts per
    (keys, arrival), never forming the pairs.

    ``look_back_time`` and ``max_waiting_time``: the window in use (both or neither); with ``partner='all'`` the
    report then counts, for a few values of ``late_match_time`` (spec §10), the pairs that window would pair
    late, else it counts them for the suggested window.
    """
    coverage = check_coverage(coverage)
    mode = check_partner(partner)
    window = current_window(look_back_time, max_waiting_time)
    # The same checks and messages as inc_join; the arguments that shape a join do not apply here.
    params, inputs, _ = check_inputs(
        df_a,
        df_b,
        join_cols=join_cols,
        inc_col=inc_col,
        how="inner",
        look_back_time=0,
        max_waiting_time=0,
        time_uom=time_uom,
        enforce_sliding_join_window=True,
        include_waiting=False,
        output_select=None,
        suffixes=("_A", "_B"),
    )
    if mode == "all":
        histogram = delta_histogram(df_a, df_b, inputs.keys, inputs.inc_col, params.time_uom)
        return suggest_from_histogram(histogram, coverage, params.time_uom.value, window)
    nearest, without_partner = nearest_partners(df_a, df_b, inputs.keys, inputs.inc_col, params.time_uom)
    return suggest_from_nearest(nearest, coverage, params.time_uom.value, mode, without_partner)


def suggest_windows_many(
    df_a: DataFrame,
    inputs,
    *,
    time_uom: str = "day",
    coverage: float = 0.999,
) -> dict[str, WindowSuggestion | ARowWindowSuggestion]:
    """Size each input of an inc_join_many call (spec §12) in one call: per input name, the one-row-per-A
    suggestion of ``suggest_windows`` with the input's own ``join_cols`` and ``inc_col`` (partner 'first' by
    default, its 'last', or 'aggregate' when it has an aggregate). The inputs are those of inc_join_many; their
    windows may be left out. The macro suggest_windows_many prints the same reports."""
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise TypeError("inc_join_many: suggest_windows_many: inputs must be a non-empty list of inputs.")
    suggestions: dict[str, WindowSuggestion | ARowWindowSuggestion] = {}
    for position, spec in enumerate(inputs):
        if not isinstance(spec, dict) or not spec.get("name") or "df" not in spec or "join_cols" not in spec:
            raise TypeError(
                f"inc_join_many: suggest_windows_many: inputs[{position}] needs df, name and join_cols (got {spec!r})."
            )
        mode = "aggregate" if spec.get("aggregate") else (spec.get("partner") or "first")
        suggestions[spec["name"]] = suggest_windows(
            df_a,
            spec["df"],
            join_cols=spec["join_cols"],
            inc_col=spec.get("inc_col", "RecDate"),
            time_uom=time_uom,
            coverage=coverage,
            partner=mode,
        )
    return suggestions
