"""The whole suggestion from a histogram: of Δ for pairs (the macro _suggest_from_histogram), of the nearest
partners for one row per A (_suggest_from_nearest), each rendered once over the checked histogram and read back
into the result objects of report.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..sql_text import render
from .checks import check_coverage, check_partner
from .histogram import histogram_rows, normalise_histogram
from .nearest import nearest_points, normalise_nearest
from .report import ARowWindowSuggestion, WindowSuggestion
from .results import NO_CENSORING, Censoring, LateMatchShare, WindowCandidate


def _candidates(rows: Sequence[Mapping[str, Any]]) -> tuple[WindowCandidate, ...]:
    """The macros' candidates (their lost pairs or A rows aside) as WindowCandidate rows."""
    return tuple(WindowCandidate(c["target"], c["look_back_time"], c["max_waiting_time"], c["lost"]) for c in rows)


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
    s = render("_suggest_from_histogram", histogram_rows(bins), coverage, window)
    late_window = s.get("late_window", (0, 0))  # none without pairs
    return WindowSuggestion(
        count=s["count"],
        minimum=s["minimum"],
        maximum=s["maximum"],
        quantiles=dict(s["quantiles"]),
        look_back_time=s["look_back_time"],
        max_waiting_time=s["max_waiting_time"],
        coverage=coverage,
        covered=s["covered"],
        candidates=_candidates(s["candidates"]),
        histogram=bins,
        time_uom=time_uom,
        note=""
        if s["count"]
        else "no partner pairs: no key occurs in both inputs with both arrivals known, so the history "
        "says nothing about the window; lb = mw = 0 is a placeholder",
        late_window=(late_window[0], late_window[1]),
        late_matches=tuple(LateMatchShare(**share) for share in s.get("late_matches", ())),
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
        value = f"{type(without_partner).__name__} {without_partner!r}"
        raise TypeError(f"inc_join: without_partner must be a whole number ≥ 0 (got {value}).")
    points = normalise_nearest(nearest)
    s = render("_suggest_from_nearest", nearest_points(points), without_partner, coverage, partner)
    return ARowWindowSuggestion(
        partner=partner,
        count=s["count"],
        without_partner=without_partner,
        before=s["before"],
        after=s["after"],
        before_quantiles=dict(s["before_quantiles"]),
        after_quantiles=dict(s["after_quantiles"]),
        look_back_time=s["look_back_time"],
        max_waiting_time=s["max_waiting_time"],
        coverage=coverage,
        covered=s["covered"],
        candidates=_candidates(s["candidates"]),
        nearest=points,
        time_uom=time_uom,
        note=""
        if s["count"]
        else "no A row has a partner: no key occurs in both inputs with both arrivals known, so the history "
        "says nothing about the window; lb = mw = 0 is a placeholder",
        censoring=censoring,
    )
