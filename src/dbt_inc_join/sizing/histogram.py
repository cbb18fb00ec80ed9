"""The rules on the histogram of Δ = b − a (partner pairs per whole-unit distance): quantiles by nearest rank,
the share a window covers, the minimal window for a coverage, late-match shares. Each is a macro of
macros/sizing/_sizing_pairs.sql, rendered here (issue 41); what stays Python is the check of a histogram and
the conversion between its dict and the macros' ``[[delta, pairs], ...]`` ascending by Δ."""

from __future__ import annotations

from collections.abc import Mapping

from ..sql_text import render
from .results import Histogram, LateMatchShare


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


def histogram_rows(histogram: Mapping[int, int]) -> list[list[int]]:
    """The checked histogram as the macros take it: ``[[delta, pairs], ...]`` ascending by Δ."""
    return [[delta, pairs] for delta, pairs in normalise_histogram(histogram).items()]


def quantiles(histogram: Mapping[int, int]) -> dict[float, int]:
    """Nearest-rank quantiles of Δ at QUANTILE_LEVELS (``_quantiles``); empty for an empty histogram."""
    rows = histogram_rows(histogram)
    if not rows:
        return {}
    return {level: delta for level, delta in render("_quantiles", rows, sum(n for _, n in rows))}


def covered_pairs(histogram: Mapping[int, int], look_back_time: int, max_waiting_time: int) -> int:
    """Number of pairs with ``−look_back_time ≤ Δ ≤ max_waiting_time`` (``_covered_pairs``)."""
    return int(render("_covered_pairs", histogram_rows(histogram), look_back_time, max_waiting_time))


def covered_share(histogram: Mapping[int, int], look_back_time: int, max_waiting_time: int) -> float:
    """``covered(lb, mw)``: the share of pairs the window keeps (1.0 without pairs: nothing is lost)."""
    total = sum(normalise_histogram(histogram).values())
    return covered_pairs(histogram, look_back_time, max_waiting_time) / total if total else 1.0


def minimal_window(histogram: Mapping[int, int], coverage: float) -> tuple[int, int]:
    """The ``(lb, mw)`` with ``covered(lb, mw) ≥ coverage``, the smallest ``lb + mw``, ties to the smaller
    ``mw`` (``_minimal_window``, its tie rule ``_better_window``); ``(0, 0)`` without pairs."""
    rows = histogram_rows(histogram)
    lb, mw = render("_minimal_window", rows, sum(n for _, n in rows), coverage)
    return lb, mw


def late_match_values(max_waiting_time: int) -> tuple[int, ...]:
    """The late_match_time values the report shows: 1, half, one and two times max_waiting_time
    (``_late_match_values``)."""
    return tuple(render("_late_match_values", max_waiting_time))


def late_match_shares(histogram: Mapping[int, int], max_waiting_time: int) -> tuple[LateMatchShare, ...]:
    """Per late_match_time value: the pairs with ``mw < Δ ≤ mw + L`` and their share of all pairs
    (``_late_match_shares``; every share 0.0 without pairs)."""
    rows = histogram_rows(histogram)
    # without pairs every count is 0: any non-zero divisor gives the shares 0.0
    shares = render("_late_match_shares", rows, sum(n for _, n in rows) or 1, max_waiting_time)
    return tuple(LateMatchShare(**share) for share in shares)
