"""The small types of sizing: the histograms it works on, a candidate window, a late-match share, and the
quantile levels and coverage targets every report shows."""

from __future__ import annotations

from typing import NamedTuple

from ..sql_text import render

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


class Censoring(NamedTuple):
    """The A rows a sizing over a live history leaves out: those whose largest candidate window, up to ``a +
    reach``, ends after the watermark, so that partners of theirs may not have arrived yet."""

    watermark: str | None  #: min of the latest arrivals of a and b, as text; None when either has none
    reach: int  #: the largest max_waiting_time the suggestion considers (largest Δ, or nearest after, ≥ 0)
    left_out: int  #: A rows (arrival known) with a + reach after the watermark
    applied: bool = True  #: False with complete_history=True: every A row counted, none left out


#: What a complete history (complete_history=True) leaves out: nothing.
NO_CENSORING = Censoring(None, 0, 0, False)


def censoring_text(censoring: Censoring, unit: str) -> str:
    """The report's line on the censored A rows (``_censoring_text``), empty when the history was declared
    complete."""
    return str(render("_censoring_text", censoring._asdict(), unit))
