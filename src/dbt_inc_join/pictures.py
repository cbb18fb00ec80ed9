"""Pictures for sizing and monitoring: the lateness histogram with its window, and JoinType counts over time.

matplotlib is imported only when a picture is drawn, so the package does not need it otherwise. Figures are
built on the Agg canvas directly, never through pyplot: nothing global (the user's backend, pyplot's list
of open figures) changes, and drawing works on a machine without a display.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from math import ceil
from pathlib import Path
from typing import TYPE_CHECKING

from pyspark.sql import DataFrame

from .sizing import (
    WindowSuggestion,
    covered_pairs,
    normalise_histogram,
    percent_text,
    suggest_from_histogram,
    window_text,
)
from .sql_text import render
from .sql_text.fragments import quote
from .tables.join_types import JoinType

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FIGURE_SIZE = (9.0, 4.5)  # inches; 1080 x 540 pixels at the default 120 dpi of save_png
INSIDE_COLOUR, OUTSIDE_COLOUR, WINDOW_COLOUR = "#4e79a7", "#e15759", "#59a14f"
LATE_COLOUR = "#f28e2b"  # the late-match band (spec §10)
#: One colour per JoinType, the same in every picture.
JOIN_TYPE_COLOURS: dict[JoinType, str] = {
    JoinType.SAME_TIME: "#59a14f",
    JoinType.A_LATE: "#4e79a7",
    JoinType.B_LATE: "#76b7b2",
    JoinType.A_TIMED_OUT: "#e15759",
    JoinType.A_WAITING: "#edc948",
    JoinType.B_TIMED_OUT: "#b07aa1",
}
PERIODS = {
    "day": ("yyyy-MM-dd", "%Y-%m-%d", timedelta(days=1)),
    "hour": ("yyyy-MM-dd HH:00", "%Y-%m-%d %H:00", timedelta(hours=1)),
}
MAX_TICK_LABELS = 16  # rotated ISO dates stay apart at this many on a 9-inch axis


def new_figure(size: tuple[float, float] = FIGURE_SIZE) -> Figure:
    """A figure on its own Agg canvas (no pyplot), with a layout that keeps labels and legend inside."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def save_png(figure: Figure, path: str | Path, dpi: int = 120) -> Path:
    """Write the figure as a PNG file (parent directories are created) and return its path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target, format="png", dpi=dpi, facecolor="white")
    return target


def _message(axes: Axes, text: str) -> None:
    axes.text(0.5, 0.5, text, transform=axes.transAxes, ha="center", va="center", fontsize=12, color="0.4")


# --- lateness --------------------------------------------------------------------------------------------


def _window_of(
    source: WindowSuggestion | Mapping[int, int],
    look_back_time: int | None,
    max_waiting_time: int | None,
    time_uom: str,
) -> tuple[dict[int, int], int, int, str]:
    """Histogram, window and unit to draw: a suggestion's own, unless overridden; a plain histogram gets the
    window suggested for the default coverage."""
    if isinstance(source, WindowSuggestion):
        histogram, suggested, time_uom = source.histogram, source, source.time_uom
    elif isinstance(source, Mapping):
        histogram = normalise_histogram(source)
        suggested = suggest_from_histogram(histogram, time_uom=time_uom)
    else:
        raise TypeError(
            "inc_join: lateness_figure needs a WindowSuggestion or a histogram {Δ: pairs} "
            f"(got {type(source).__name__})."
        )
    for name, value in (("look_back_time", look_back_time), ("max_waiting_time", max_waiting_time)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValueError(f"inc_join: {name} must be a non-negative whole number of time_uom units (got {value!r}).")
    lb = suggested.look_back_time if look_back_time is None else look_back_time
    mw = suggested.max_waiting_time if max_waiting_time is None else max_waiting_time
    return dict(histogram), lb, mw, time_uom


def lateness_figure(
    suggestion_or_histogram: WindowSuggestion | Mapping[int, int],
    *,
    look_back_time: int | None = None,
    max_waiting_time: int | None = None,
    time_uom: str = "day",
    late_match_time: int = 0,
) -> Figure:
    """Bar chart of partner pairs per arrival distance Δ = b − a, with the window [−lb, +mw] shaded.

    Bars inside the window and bars outside it (the pairs the window would lose) have different colours;
    dashed lines mark −lb and +mw. ``late_match_time`` > 0 shades the late-match band ``(mw, mw + L]``
    (spec §10): its pairs are lost to the window but come back as late matches when their A row timed out.
    ``time_uom`` only labels the axis of a plain histogram.
    """
    histogram, lb, mw, unit = _window_of(suggestion_or_histogram, look_back_time, max_waiting_time, time_uom)
    figure = new_figure()
    axes = figure.add_subplot()
    axes.set_xlabel(f"Δ = b − a: arrival of B minus arrival of A ({unit}s)")
    axes.set_ylabel("partner pairs")
    _window_bars(axes, histogram, lb, mw, late_match_time)
    _lateness_scales(axes, histogram, lb, mw, late_match_time)
    if not histogram:
        axes.set_title("Arrival distance of partner pairs")
        _message(axes, "no partner pairs")
        return figure
    target = ""
    if isinstance(suggestion_or_histogram, WindowSuggestion) and look_back_time is None and max_waiting_time is None:
        target = f" (target {percent_text(suggestion_or_histogram.coverage)})"
    _lateness_legend(axes, histogram, lb, mw, late_match_time, target)
    return figure


def _window_bars(axes: Axes, histogram: Mapping[int, int], lb: int, mw: int, late_match_time: int) -> None:
    """The bars inside and outside the window, the shaded window (and late-match band), its two dashed lines."""
    inside = {d: n for d, n in histogram.items() if -lb <= d <= mw}
    outside = {d: n for d, n in histogram.items() if not -lb <= d <= mw}
    # The shaded span covers whole bars: Δ = −lb and Δ = +mw are inside the window.
    axes.axvspan(-lb - 0.5, mw + 0.5, color=WINDOW_COLOUR, alpha=0.12, zorder=0, linewidth=0)
    if late_match_time > 0:
        axes.axvspan(mw + 0.5, mw + late_match_time + 0.5, color=LATE_COLOUR, alpha=0.15, zorder=0, linewidth=0)
    axes.bar(list(inside), list(inside.values()), width=0.8, color=INSIDE_COLOUR, zorder=2)
    axes.bar(list(outside), list(outside.values()), width=0.8, color=OUTSIDE_COLOUR, zorder=2)
    # Each label sits inside the window next to its line, at its own height: they never collide with each
    # other, whatever the width of the window, nor with the tick labels outside the axes.
    for x, text, align, height in (
        (-lb, f" look_back_time = {lb}", "left", 0.97),
        (mw, f"max_waiting_time = {mw} ", "right", 0.90),
    ):
        axes.axvline(x, color=WINDOW_COLOUR, linestyle="--", linewidth=1.5, zorder=3)
        axes.text(
            x,
            height,
            text,
            transform=axes.get_xaxis_transform(),
            ha=align,
            va="top",
            fontsize=9,
            color="#2e6b26",
            zorder=4,
            bbox=dict(facecolor="white", edgecolor="none", alpha=0.7, pad=1),
        )


def _lateness_scales(axes: Axes, histogram: Mapping[int, int], lb: int, mw: int, late_match_time: int) -> None:
    """Both axes' limits and ticks: every bar, the window and the late-match band in view."""
    from matplotlib.ticker import MaxNLocator

    low, high = min([*histogram, -lb]) - 1, max([*histogram, mw + late_match_time]) + 1
    axes.set_xlim(low, high)
    if high - low <= 26:  # a tick per unit while they fit
        axes.set_xticks(range(low + 1, high))
    else:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylim(0, max(histogram.values(), default=1) * 1.3)  # head room for the line labels
    axes.grid(axis="y", color="0.9", zorder=1)


def _lateness_legend(
    axes: Axes, histogram: Mapping[int, int], lb: int, mw: int, late_match_time: int, target: str
) -> None:
    """The title (what the window keeps) and the legend with the pairs inside, outside and in the late band."""
    from matplotlib.patches import Patch

    total = sum(histogram.values())
    kept = covered_pairs(histogram, lb, mw)
    late_pairs = sum(n for d, n in histogram.items() if mw < d <= mw + late_match_time)
    axes.set_title(
        f"Arrival distance of partner pairs: window {window_text(lb, mw)} keeps "
        f"{percent_text(kept / total)}{target} of {total:,} pairs"
    )
    handles = [
        Patch(color=INSIDE_COLOUR, label=f"inside the window\n{kept:,} pairs"),
        Patch(color=OUTSIDE_COLOUR, label=f"outside (lost)\n{total - kept:,} pairs"),
        Patch(color=WINDOW_COLOUR, alpha=0.25, label=f"window {window_text(lb, mw)}"),
    ]
    if late_match_time > 0:
        band = f"late matches ({mw}, {mw + late_match_time}]\n{late_pairs:,} pairs"
        handles.append(Patch(color=LATE_COLOUR, alpha=0.3, label=band))
    axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)


# --- JoinType counts over time ---------------------------------------------------------------------------


def period_axis(first: str, last: str, period: str) -> list[str]:
    """Every period label from ``first`` to ``last`` (inclusive), so that empty periods show as gaps."""
    _, python_format, step = PERIODS[period]
    moment, end, labels = datetime.strptime(first, python_format), datetime.strptime(last, python_format), []
    while moment <= end:
        labels.append(moment.strftime(python_format))
        moment += step
    return labels


def join_type_counts(output_df: DataFrame, inc_col: str = "RecDate", period: str = "day") -> dict[tuple[str, int], int]:
    """Rows per (period label, JoinType code) of an inc_join output. One Spark job, a small result."""
    if not isinstance(output_df, DataFrame):
        raise TypeError(f"inc_join: output_df must be a pyspark DataFrame (got {type(output_df).__name__}).")
    if period not in PERIODS:
        raise ValueError(f"inc_join: period={period!r} is not supported; accepted values: 'day', 'hour'.")
    columns = []
    for name in (inc_col, "JoinType"):
        found = render("_find_column", [{"name": column} for column in output_df.columns], name)
        if found is None:
            available = ", ".join(repr(c) for c in output_df.columns)
            raise ValueError(
                f"inc_join: output_df has no column {name!r} (an inc_join output with the JoinType "
                f"column is expected); its columns are {available}."
            )
        columns.append(quote(found["name"]))
    arrival, code = columns
    label = f"date_format(date_trunc('{period.upper()}', {arrival}), '{PERIODS[period][0]}')"
    rows = (
        output_df.where(f"{arrival} IS NOT NULL")
        .selectExpr(f"{label} AS _period", f"CAST({code} AS INT) AS _code")
        .groupBy("_period", "_code")
        .count()
        .collect()
    )
    return {(row["_period"], row["_code"]): int(row["count"]) for row in rows}


def _tick_positions(count: int, limit: int = MAX_TICK_LABELS) -> list[int]:
    """Every k-th period, k chosen so that at most ``limit`` labels are drawn."""
    return list(range(0, count, max(1, ceil(count / limit))))


def _stacked_bars(axes: Axes, periods: Sequence[str], counts: Mapping[tuple[str, int], int]) -> None:
    bottoms = [0] * len(periods)
    positions = list(range(len(periods)))
    codes = sorted({code for _, code in counts})
    for code in codes:
        heights = [counts.get((p, code), 0) for p in periods]
        known = code in JoinType._value2member_map_
        name = f"{code} {JoinType(code).label}" if known else f"{code} (unknown)"
        axes.bar(
            positions,
            heights,
            bottom=bottoms,
            width=0.8,
            label=name,
            zorder=2,
            color=JOIN_TYPE_COLOURS.get(JoinType(code), "0.6") if known else "0.6",
        )
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]


def join_type_figure(output_df: DataFrame, *, inc_col: str = "RecDate", period: str = "day") -> Figure:
    """Stacked bars of output rows per day (or hour) by JoinType, in code order, from an inc_join output."""
    from matplotlib.ticker import MaxNLocator

    counts = join_type_counts(output_df, inc_col, period)
    figure = new_figure()
    axes = figure.add_subplot()
    axes.set_xlabel(f"output arrival ({inc_col}), per {period}")
    axes.set_ylabel("output rows")
    total = sum(counts.values())
    axes.set_title(f"inc_join output: {total:,} rows by JoinType and {period}")
    if not counts:
        _message(axes, "no output rows")
        return figure
    labels = sorted({p for p, _ in counts})
    periods = period_axis(labels[0], labels[-1], period)
    _stacked_bars(axes, periods, counts)
    ticks = _tick_positions(len(periods))
    axes.set_xticks(ticks, [periods[i] for i in ticks], rotation=45, ha="right", rotation_mode="anchor")
    axes.set_xlim(-0.6, len(periods) - 0.4)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(axis="y", color="0.9", zorder=1)
    axes.legend(title="JoinType", loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    return figure


__all__ = ["lateness_figure", "join_type_figure", "join_type_counts", "save_png"]
