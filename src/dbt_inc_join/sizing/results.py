"""What a sizing run returns: the histograms it works on, the suggestions with their candidates and late-match
shares, and the quantile levels and coverage targets every report shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

Histogram = dict[int, int]
#: One row per A: (a − b of the nearest partner at or before a, b − a of the nearest at or after a) → A rows;
#: None where there is no partner on that side (never both).
NearestHistogram = dict[tuple[int | None, int | None], int]

QUANTILE_LEVELS: tuple[float, ...] = (0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999)
COVERAGE_TARGETS: tuple[float, ...] = (0.9, 0.99, 0.999, 1.0)


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
        from .report import window_report  # here, not at the top: report.py reads these classes

        return window_report(self)


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
        from .report import a_row_report  # here, not at the top: report.py reads these classes

        return a_row_report(self)
