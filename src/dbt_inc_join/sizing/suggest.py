"""The whole suggestion from a histogram: of Δ for pairs (histogram.py's rules), of the nearest partners for
one row per A (nearest.py's rules), each checked and assembled into what report.py prints."""

from __future__ import annotations

from collections.abc import Mapping

from ..plan.validation import type_failure
from .checks import check_coverage, check_partner
from .histogram import (
    candidate_windows,
    covered_share,
    late_match_shares,
    minimal_window,
    normalise_histogram,
    quantiles,
)
from .nearest import (
    candidate_a_row_windows,
    covered_a_row_share,
    minimal_a_row_window,
    normalise_nearest,
    side_histogram,
)
from .report import ARowWindowSuggestion, WindowSuggestion
from .results import NO_CENSORING, Censoring


def suggest_from_histogram(
    histogram: Mapping[int, int],
    coverage: float = 0.999,
    time_uom: str = "day",
    window: tuple[int, int] | None = None,
    censoring: Censoring = NO_CENSORING,
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
            censoring=censoring,
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
        censoring=censoring,
    )


def suggest_from_nearest(
    nearest: Mapping[tuple[int | None, int | None], int],
    coverage: float = 0.999,
    time_uom: str = "day",
    partner: str = "first",
    without_partner: int = 0,
    censoring: Censoring = NO_CENSORING,
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
        raise type_failure("without_partner", "a whole number ≥ 0", without_partner)
    points = normalise_nearest(nearest)
    count = sum(points.values())
    before, after = side_histogram(points, 0), side_histogram(points, 1)
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
        censoring=censoring,
    )
