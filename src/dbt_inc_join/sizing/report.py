"""What a sizing returns, and how it reads: the two suggestions (pairs; one row per A) and the text of their
``report()`` for a terminal: the distribution, the suggestion and its alternatives. The report of one row per A
is the macro _format_a_row_report (with '−' for its minus sign); the report of pairs is Python's own layout (the
run-operation prints a shorter one, _format_report) over the macros' cells: _percent_text, _text_table,
_censoring_text, _covered_pairs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..sql_text import render
from .histogram import covered_pairs
from .nearest import covered_a_rows
from .results import (
    NO_CENSORING,
    QUANTILE_LEVELS,
    Censoring,
    Histogram,
    LateMatchShare,
    NearestHistogram,
    WindowCandidate,
    censoring_text,
)


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
    censoring: Censoring = NO_CENSORING  #: the A rows left out because partners may not have arrived yet

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
    censoring: Censoring = NO_CENSORING  #: the A rows left out because partners may not have arrived yet

    def report(self) -> str:
        """A few lines of text for a terminal: the nearest partners, the suggestion and its alternatives."""
        return format_a_row_report(self)


def percent_text(share: float) -> str:
    """``0.999`` → ``99.9%``. Two decimals, more when they would round a non-zero loss to 0% or a share
    that is not whole to 100% (``_percent_text``)."""
    return str(render("_percent_text", share))


def window_text(look_back_time: int, max_waiting_time: int) -> str:
    """``[−3, +7]``; a zero bound is written ``0`` rather than ``−0`` or ``+0``."""
    low = f"−{look_back_time}" if look_back_time else "0"
    high = f"+{max_waiting_time}" if max_waiting_time else "0"
    return f"[{low}, {high}]"


def _text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The first column left-aligned, the others right-aligned, two spaces apart (``_text_table``)."""
    return list(render("_text_table", list(header), [list(row) for row in rows]))


def format_report(suggestion: WindowSuggestion) -> str:
    """The text of ``WindowSuggestion.report()``."""
    s, unit = suggestion, f"{suggestion.time_uom}s"
    lines = [f"inc_join window sizing: {s.count:,} partner pairs, Δ = b − a in {unit}"]
    lines += [line for line in [censoring_text(s.censoring, s.time_uom)] if line]
    if not s.count:
        lines += [f"  {s.note}", "  suggested: look_back_time=0, max_waiting_time=0"]
        return "\n".join(lines)
    lines.append(f"  Δ from {s.minimum} to {s.maximum} {unit}")
    levels = list(s.quantiles)
    lines += [
        "  " + line
        for line in _text_table(
            ["quantile", *map(percent_text, levels)], [["Δ", *(str(s.quantiles[p]) for p in levels)]]
        )
    ]
    lost = s.count - covered_pairs(s.histogram, s.look_back_time, s.max_waiting_time)
    window = window_text(s.look_back_time, s.max_waiting_time)
    lines.append(
        f"suggested for coverage {percent_text(s.coverage)}: look_back_time={s.look_back_time}, "
        f"max_waiting_time={s.max_waiting_time} (window {window} keeps {percent_text(s.covered)} of the "
        f"pairs, loses {lost:,})"
    )
    rows = [
        [
            percent_text(c.target),
            str(c.look_back_time),
            str(c.max_waiting_time),
            percent_text(c.lost),
            f"{s.count - covered_pairs(s.histogram, c.look_back_time, c.max_waiting_time):,}",
        ]
        for c in s.candidates
    ]
    lines += [
        "  " + line
        for line in _text_table(["coverage", "look_back_time", "max_waiting_time", "lost", "lost pairs"], rows)
    ]
    if s.late_matches:
        lb, mw = s.late_window
        lines.append(
            f"late matches with look_back_time={lb}, max_waiting_time={mw}: pairs with {mw} < Δ ≤ {mw} + "
            "late_match_time (late matches when their A row has no partner in the window)"
        )
        late_rows = [[str(m.late_match_time), f"{m.pairs:,}", percent_text(m.share)] for m in s.late_matches]
        lines += ["  " + line for line in _text_table(["late_match_time", "pairs", "share"], late_rows)]
    return "\n".join(lines)


def format_a_row_report(suggestion: ARowWindowSuggestion) -> str:
    """The text of ``ARowWindowSuggestion.report()``: ``_format_a_row_report`` with ``−`` for its minus sign
    (the run-operation prints ``-``)."""
    return str(render("_format_a_row_report", _a_row_report_values(suggestion), suggestion.time_uom, "−"))


def _a_row_report_values(s: ARowWindowSuggestion) -> dict[str, Any]:
    """The suggestion as the macro's dict (the one _suggest_from_nearest returns), with the A rows each window
    loses."""

    def lost(look_back_time: int, max_waiting_time: int) -> int:
        return s.count - covered_a_rows(s.nearest, look_back_time, max_waiting_time) if s.count else 0

    return {
        "partner": s.partner,
        "count": s.count,
        "without_partner": s.without_partner,
        "censoring": s.censoring._asdict(),
        "before": s.before,
        "after": s.after,
        "before_quantiles": [[p, s.before_quantiles[p]] for p in QUANTILE_LEVELS] if s.before else [],
        "after_quantiles": [[p, s.after_quantiles[p]] for p in QUANTILE_LEVELS] if s.after else [],
        "look_back_time": s.look_back_time,
        "max_waiting_time": s.max_waiting_time,
        "coverage": s.coverage,
        "covered": s.covered,
        "lost_rows": lost(s.look_back_time, s.max_waiting_time),
        "candidates": [{**c._asdict(), "lost_rows": lost(c.look_back_time, c.max_waiting_time)} for c in s.candidates],
    }
