"""The small types of sizing: the histograms it works on, a candidate window, a late-match share, and the
quantile levels and coverage targets every report shows."""

from __future__ import annotations

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
