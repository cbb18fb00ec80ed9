"""Pure functions on the histogram of Δ = b − a (partner pairs per whole-unit distance): quantiles by nearest
rank, the share a window covers, the minimal window for a coverage, late-match shares, the whole suggestion."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import accumulate
from math import ceil

from .results import (
    COVERAGE_TARGETS,
    QUANTILE_LEVELS,
    Histogram,
    LateMatchShare,
    WindowCandidate,
)


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


def better_window(candidate: tuple[int, int], best: tuple[int, int] | None) -> bool:
    """Whether the window ``(lb, mw)`` beats ``best``: the smaller ``lb + mw``; ties: the smaller ``mw``; any
    window beats none. The one tie rule of both minimal windows (nearest.py's too; the macro _better_window)."""
    if best is None:
        return True
    return (sum(candidate), candidate[1]) < (sum(best), best[1])


def minimal_window(histogram: Mapping[int, int], coverage: float) -> tuple[int, int]:
    """The ``(lb, mw)`` with ``covered(lb, mw) ≥ coverage``, ``lb`` in ``[0, max(0, −min)]`` and ``mw`` in
    ``[0, max(0, max)]``, the best by ``better_window`` (the smallest ``lb + mw``; ties: the smaller ``mw``).
    ``(0, 0)`` without pairs.

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
        if better_window((lb, mw), best):
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
