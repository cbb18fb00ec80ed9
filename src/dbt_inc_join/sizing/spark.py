"""The Spark side of sizing: one job counts the histogram (or the nearest partners) from counts per (keys,
arrival), never forming the pairs; ``suggest_windows`` and ``suggest_windows_many`` check the arguments first.

The query is the run-operation's: the macros _arrival_counts and _delta_histogram_sql (_nearest_partners_sql)
render it over placeholders that ``statement.run`` binds to the caller's DataFrames, and
_delta_histogram_counted (_nearest_partners_counted) read its rows, as dbt reads them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, overload

from pyspark.sql import DataFrame

from ..orchestration.join import check_inputs
from ..sql_text import render, statement
from ..sql_text.time_units import TimeUnit
from .checks import check_complete_history, check_coverage, check_partner, current_window
from .nearest import normalise_nearest
from .report import ARowWindowSuggestion, WindowSuggestion
from .results import NO_CENSORING, Censoring, Histogram, NearestHistogram
from .suggest import suggest_from_histogram, suggest_from_nearest


def _rows(
    query: str,
    df_a: DataFrame,
    df_b: DataFrame,
    keys: Sequence[tuple[str, str]],
    inc_cols: tuple[str, str],
    unit: TimeUnit,
    complete_history: bool,
) -> Any:
    """The rows of the macro ``query`` over the rows per (keys, arrival) of each input (``_arrival_counts``),
    read by its macro ``<query without _sql>_counted``. One job."""
    inputs = {"keys": [list(pair) for pair in keys], "inc_col": list(inc_cols)}
    counts = [
        render("_arrival_counts", statement.relation(side), side, index, inputs, unit.value)
        for index, side in enumerate(("a", "b"))
    ]
    text = str(render(query, counts, inputs, unit.value, complete_history))
    rows = statement.run(text, {"a": df_a, "b": df_b}).collect()
    return render(query.removesuffix("_sql") + "_counted", rows, complete_history)


def _censoring(found: Mapping[str, Any], complete_history: bool) -> Censoring:
    """The macro's censoring as the result object's; a complete history leaves nothing out (NO_CENSORING)."""
    return NO_CENSORING if complete_history else Censoring(**found)


def delta_histogram(
    df_a: DataFrame, df_b: DataFrame, keys: Sequence[tuple[str, str]], inc_cols: tuple[str, str], unit: TimeUnit
) -> Histogram:
    """Pairs per Δ over the whole history: equal keys (NULL never matches), both arrivals known. One job.

    The pairs are counted, never formed: A rows per (keys, a) and B rows per (keys, b), joined on the keys,
    ``count_a × count_b`` summed per Δ. The cost grows with the distinct arrivals per key, not its rows."""
    return censored_delta_histogram(df_a, df_b, keys, inc_cols, unit, complete_history=True)[0]


def censored_delta_histogram(
    df_a: DataFrame,
    df_b: DataFrame,
    keys: Sequence[tuple[str, str]],
    inc_cols: tuple[str, str],
    unit: TimeUnit,
    *,
    complete_history: bool = False,
) -> tuple[Histogram, Censoring]:
    """The pairs per Δ of the A rows whose whole candidate window ``[a − max lb, a + max mw]`` lies at or before
    the watermark (max mw: the largest Δ, at least 0), and what that left out. One collect.

    A recent A row's late partners have not arrived yet: counting its pairs would count the short Δ and miss
    the long ones, and bias the suggestion toward too short a window. ``complete_history=True`` counts every A
    row (a closed history, or one whose partners are all known to have arrived)."""
    found = _rows("_delta_histogram_sql", df_a, df_b, keys, inc_cols, unit, complete_history)
    histogram: Histogram = {delta: pairs for delta, pairs in found["histogram"]}
    return histogram, _censoring(found["censoring"], complete_history)


def nearest_partners(
    df_a: DataFrame, df_b: DataFrame, keys: Sequence[tuple[str, str]], inc_cols: tuple[str, str], unit: TimeUnit
) -> tuple[NearestHistogram, int]:
    """A rows per (a − b of the nearest partner at or before a, b − a of the nearest at or after a), and the
    number of A rows without any partner (equal keys, NULL never matches, both arrivals known). One job.

    Computed per distinct (keys, a) of A against the distinct (keys, b) of B and weighted by the A rows of
    that (keys, a): no pair of rows is formed."""
    nearest, without_partner, _ = censored_nearest_partners(df_a, df_b, keys, inc_cols, unit, complete_history=True)
    return nearest, without_partner


def censored_nearest_partners(
    df_a: DataFrame,
    df_b: DataFrame,
    keys: Sequence[tuple[str, str]],
    inc_cols: tuple[str, str],
    unit: TimeUnit,
    *,
    complete_history: bool = False,
) -> tuple[NearestHistogram, int, Censoring]:
    """``nearest_partners`` of the A rows whose whole candidate window ``[a − max lb, a + max mw]`` lies at or
    before the watermark (max mw: the largest nearest partner after a, at least 0), and what that left out. A
    recent A row whose partner has not arrived yet would count as timed out (or without partner)."""
    found = _rows("_nearest_partners_sql", df_a, df_b, keys, inc_cols, unit, complete_history)
    nearest = normalise_nearest({(before, after): rows for before, after, rows in found["points"]})
    return nearest, found["without_partner"], _censoring(found["censoring"], complete_history)


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
    complete_history: bool = ...,
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
    complete_history: bool = ...,
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
    complete_history: bool = False,
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

    Over a live history the A rows whose whole candidate window ``[a − max lb, a + max mw]`` (the largest the
    suggestion considers) does not lie at or before the watermark ``min(max a, max b)`` are left out, and the
    report says how many: their late partners may not have arrived yet. ``complete_history=True`` counts them.
    """
    coverage = check_coverage(coverage)
    mode = check_partner(partner)
    window = current_window(look_back_time, max_waiting_time)
    complete = check_complete_history(complete_history)
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
    unit = params.time_uom
    if mode == "all":
        histogram, censoring = censored_delta_histogram(
            df_a, df_b, inputs.keys, inputs.inc_col, unit, complete_history=complete
        )
        return suggest_from_histogram(histogram, coverage, unit.value, window, censoring)
    nearest, without_partner, censoring = censored_nearest_partners(
        df_a, df_b, inputs.keys, inputs.inc_col, unit, complete_history=complete
    )
    return suggest_from_nearest(nearest, coverage, unit.value, mode, without_partner, censoring)


def suggest_windows_many(
    df_a: DataFrame,
    inputs,
    *,
    time_uom: str = "day",
    coverage: float = 0.999,
    complete_history: bool = False,
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
            complete_history=complete_history,
        )
    return suggestions
