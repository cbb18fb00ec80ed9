"""The Spark side of sizing: one job counts the histogram (or the nearest partners) from counts per (keys,
arrival), never forming the pairs; ``suggest_windows`` and ``suggest_windows_many`` check the arguments first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, overload

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from ..join import check_inputs
from ..predicates import quote
from ..time_units import TimeUnit, diff_units_sql, truncate_sql
from .checks import check_coverage, check_partner, current_window
from .nearest import normalise_nearest
from .report import ARowWindowSuggestion, WindowSuggestion
from .results import Histogram, NearestHistogram
from .suggest import suggest_from_histogram, suggest_from_nearest

_DELTA = "_delta"


def _arrival_counts(
    df: DataFrame, side: str, index: int, keys: Sequence[tuple[str, str]], inc_cols: tuple[str, str], unit: TimeUnit
) -> DataFrame:
    """``_<side>k0.., _<side>_arrival, _<side>_rows``: the rows of one input per (keys, arrival truncated to the
    unit), arrival known. A key with thousands of rows a day gives one row per day here."""
    arrival = quote(inc_cols[index])
    keyed = df.where(f"{arrival} IS NOT NULL").selectExpr(
        *[f"{quote(k[index])} AS _{side}k{i}" for i, k in enumerate(keys)],
        f"{truncate_sql(arrival, unit)} AS _{side}_arrival",
    )
    return keyed.groupBy(*keyed.columns).agg(F.count(F.lit(1)).alias(f"_{side}_rows"))


def _key_condition(keys: Sequence[tuple[str, str]]):
    return F.expr(" AND ".join(f"_ak{i} = _bk{i}" for i in range(len(keys))))


def delta_histogram(
    df_a: DataFrame, df_b: DataFrame, keys: Sequence[tuple[str, str]], inc_cols: tuple[str, str], unit: TimeUnit
) -> Histogram:
    """Pairs per Δ over the whole history: equal keys (NULL never matches), both arrivals known. One job.

    The pairs are counted, never formed: A rows per (keys, a) and B rows per (keys, b), joined on the keys,
    ``count_a × count_b`` summed per Δ. The cost grows with the distinct arrivals per key, not its rows."""
    counts_a = _arrival_counts(df_a, "a", 0, keys, inc_cols, unit)
    counts_b = _arrival_counts(df_b, "b", 1, keys, inc_cols, unit)
    counts = (
        counts_a.join(counts_b, _key_condition(keys), "inner")
        .selectExpr(
            f"{diff_units_sql('_b_arrival', '_a_arrival', unit)} AS {_DELTA}",
            "_a_rows * _b_rows AS _pairs",
        )
        .groupBy(_DELTA)
        .agg(F.sum("_pairs").alias("_pairs"))
        .collect()
    )
    return {int(row[_DELTA]): int(row["_pairs"]) for row in counts}


def nearest_partners(
    df_a: DataFrame, df_b: DataFrame, keys: Sequence[tuple[str, str]], inc_cols: tuple[str, str], unit: TimeUnit
) -> tuple[NearestHistogram, int]:
    """A rows per (a − b of the nearest partner at or before a, b − a of the nearest at or after a), and the
    number of A rows without any partner (equal keys, NULL never matches, both arrivals known). One job.

    Computed per distinct (keys, a) of A against the distinct (keys, b) of B and weighted by the A rows of
    that (keys, a): no pair of rows is formed."""
    groups = _arrival_counts(df_a, "a", 0, keys, inc_cols, unit)
    arrivals_b = _arrival_counts(df_b, "b", 1, keys, inc_cols, unit).drop("_b_rows")
    delta = diff_units_sql("_b_arrival", "_a_arrival", unit)
    rows = (
        groups.join(arrivals_b, _key_condition(keys), "left")
        .selectExpr(*groups.columns, f"{delta} AS {_DELTA}")
        .groupBy(*groups.columns)
        .agg(
            F.expr(f"min(CASE WHEN {_DELTA} <= 0 THEN -{_DELTA} END)").alias("_before"),
            F.expr(f"min(CASE WHEN {_DELTA} >= 0 THEN {_DELTA} END)").alias("_after"),
        )
        .groupBy("_before", "_after")
        .agg(F.sum("_a_rows").alias("_a_rows"))
        .collect()
    )
    nearest: NearestHistogram = {}
    without_partner = 0
    for row in rows:
        before, after = (None if row[c] is None else int(row[c]) for c in ("_before", "_after"))
        if before is None and after is None:
            without_partner += int(row["_a_rows"])
        else:
            nearest[(before, after)] = int(row["_a_rows"])
    return normalise_nearest(nearest), without_partner


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
    """
    coverage = check_coverage(coverage)
    mode = check_partner(partner)
    window = current_window(look_back_time, max_waiting_time)
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
    if mode == "all":
        histogram = delta_histogram(df_a, df_b, inputs.keys, inputs.inc_col, params.time_uom)
        return suggest_from_histogram(histogram, coverage, params.time_uom.value, window)
    nearest, without_partner = nearest_partners(df_a, df_b, inputs.keys, inputs.inc_col, params.time_uom)
    return suggest_from_nearest(nearest, coverage, params.time_uom.value, mode, without_partner)


def suggest_windows_many(
    df_a: DataFrame,
    inputs,
    *,
    time_uom: str = "day",
    coverage: float = 0.999,
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
        )
    return suggestions
