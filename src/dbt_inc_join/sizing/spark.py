"""The Spark side of sizing: one job counts the histogram (or the nearest partners) from counts per (keys,
arrival), never forming the pairs; ``suggest_windows`` and ``suggest_windows_many`` check the arguments first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, overload

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from ..orchestration.join import check_inputs
from ..plan.time_units import TimeUnit
from ..sql_text.fragments import diff_units_sql, quote, truncate_sql
from .checks import check_complete_history, check_coverage, check_partner, current_window
from .nearest import normalise_nearest
from .report import ARowWindowSuggestion, WindowSuggestion
from .results import NO_CENSORING, Censoring, Histogram, NearestHistogram
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
    return censored_delta_histogram(df_a, df_b, keys, inc_cols, unit, complete_history=True)[0]


def _bounds(counts_a: DataFrame, counts_b: DataFrame, reach: DataFrame, unit: TimeUnit) -> DataFrame:
    """One row: the watermark (min of the latest arrivals of a and b, NULL when either has none), its text, and
    ``_reach``, the largest max_waiting_time the suggestion considers (``reach``'s one value, at least 0)."""
    latest_a = counts_a.agg(F.max("_a_arrival").alias("_a_latest"))
    latest_b = counts_b.agg(F.max("_b_arrival").alias("_b_latest"))
    pattern = "yyyy-MM-dd" if unit is TimeUnit.DAY else "yyyy-MM-dd HH:mm"
    watermark = "CASE WHEN _a_latest IS NULL OR _b_latest IS NULL THEN NULL ELSE least(_a_latest, _b_latest) END"
    return (
        latest_a.crossJoin(latest_b)
        .crossJoin(reach)
        .selectExpr(
            f"{watermark} AS _watermark",
            f"date_format({watermark}, '{pattern}') AS _watermark_text",
            "greatest(0, coalesce(_reach, 0)) AS _reach",
        )
    )


def _kept_sql(unit: TimeUnit, complete_history: bool) -> str:
    """An A row counts when its whole candidate window, up to ``a + _reach``, lies at or before the watermark."""
    if complete_history:
        return "true"
    return f"coalesce({diff_units_sql('_watermark', '_a_arrival', unit)} >= _reach, false)"


def _censoring(row_text: str | None, reach: int, left_out: int, complete_history: bool) -> Censoring:
    return NO_CENSORING if complete_history else Censoring(row_text, reach, left_out)


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
    counts_a = _arrival_counts(df_a, "a", 0, keys, inc_cols, unit)
    counts_b = _arrival_counts(df_b, "b", 1, keys, inc_cols, unit)
    per_a = (
        counts_a.join(counts_b, _key_condition(keys), "inner")
        .selectExpr(
            "_a_arrival",
            f"{diff_units_sql('_b_arrival', '_a_arrival', unit)} AS {_DELTA}",
            "_a_rows * _b_rows AS _pairs",
        )
        .groupBy("_a_arrival", _DELTA)
        .agg(F.sum("_pairs").alias("_pairs"))
    )
    bounds = _bounds(counts_a, counts_b, per_a.agg(F.max(_DELTA).alias("_reach")), unit)
    kept = _kept_sql(unit, complete_history)
    pairs = (
        per_a.crossJoin(bounds)
        .where(kept)
        .groupBy(_DELTA)
        .agg(F.sum("_pairs").alias("_n"))
        .selectExpr("'pairs' AS _kind", f"CAST({_DELTA} AS BIGINT) AS _value", "CAST(_n AS BIGINT) AS _n")
    )
    left_out = (
        counts_a.crossJoin(bounds)
        .where(f"NOT ({kept})")
        .agg(F.sum("_a_rows").alias("_n"))
        .crossJoin(bounds)
        .selectExpr(
            "_watermark_text AS _kind", "CAST(_reach AS BIGINT) AS _value", "CAST(coalesce(_n, 0) AS BIGINT) AS _n"
        )
    )
    histogram: Histogram = {}
    censoring = NO_CENSORING
    for kind, value, n in pairs.unionAll(left_out).collect():
        if kind == "pairs":
            histogram[int(value)] = int(n)
        else:
            censoring = _censoring(kind, int(value), int(n), complete_history)
    return dict(sorted(histogram.items())), censoring


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
    groups = _arrival_counts(df_a, "a", 0, keys, inc_cols, unit)
    counts_b = _arrival_counts(df_b, "b", 1, keys, inc_cols, unit)
    arrivals_b = counts_b.drop("_b_rows")
    delta = diff_units_sql("_b_arrival", "_a_arrival", unit)
    per_a = (
        groups.join(arrivals_b, _key_condition(keys), "left")
        .selectExpr(*groups.columns, f"{delta} AS {_DELTA}")
        .groupBy(*groups.columns)
        .agg(
            F.expr(f"min(CASE WHEN {_DELTA} <= 0 THEN -{_DELTA} END)").alias("_before"),
            F.expr(f"min(CASE WHEN {_DELTA} >= 0 THEN {_DELTA} END)").alias("_after"),
        )
    )
    bounds = _bounds(groups, counts_b, per_a.agg(F.max("_after").alias("_reach")), unit)
    rows = (
        per_a.crossJoin(bounds)
        .selectExpr("_before", "_after", "_a_rows", f"{_kept_sql(unit, complete_history)} AS _kept")
        .groupBy("_kept", "_before", "_after")
        .agg(F.sum("_a_rows").alias("_a_rows"))
        .crossJoin(bounds.select("_watermark_text", "_reach"))
        .collect()
    )
    nearest: NearestHistogram = {}
    without_partner = left_out = 0
    watermark, reach = None, 0
    for row in rows:
        watermark, reach = row["_watermark_text"], int(row["_reach"])
        before, after = (None if row[c] is None else int(row[c]) for c in ("_before", "_after"))
        if not row["_kept"]:
            left_out += int(row["_a_rows"])
        elif before is None and after is None:
            without_partner += int(row["_a_rows"])
        else:
            nearest[(before, after)] = int(row["_a_rows"])
    return normalise_nearest(nearest), without_partner, _censoring(watermark, reach, left_out, complete_history)


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
