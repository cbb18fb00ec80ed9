"""The PySpark incremental join (spec §3): the public ``inc_join`` and its checks (plan/validation.py renders them).

Every output row gets an output arrival that depends only on the data, never on the run (the JoinType table,
join_types.py), and a run emits exactly the rows placed inside its window: that is what makes any tiling of
runs add up to one big run. render.py builds the plan of one run. The SQL twin is macros/orchestration/inc_join.sql.
"""

from __future__ import annotations

from typing import Any

from pyspark.sql import DataFrame

from ..io.watermark import availability_watermark
from ..plan.aggregates import aggregate_fills, check_aggregates
from ..plan.prepared import PreparedJoin, ResolvedInputs
from ..plan.validation import JoinParameters, check_parameters, join_condition, plan_columns, resolve_inputs
from ..plan.window import OutputWindow, parse_bound
from .render import render_join


def inc_join(
    df_a: DataFrame,
    df_b: DataFrame,
    *,
    join_cols,
    inc_col="RecDate",
    how: str = "left",
    look_back_time: int = 0,
    max_waiting_time: int = 0,
    output_window_start=None,
    output_window_end=None,
    time_uom: str = "day",
    enforce_sliding_join_window: bool = True,
    include_waiting: bool = False,
    output_select=None,
    suffixes=("_A", "_B"),
    partner: str = "all",
    partner_order_by=None,
    aggregate=None,
    null_fill=None,
    many_rows_per_key: bool | str = "auto",
    late_match_time: int = 0,
    join_cond: str | None = None,
) -> DataFrame:
    """Join A with B incrementally: the rows of the join placed in ``[output_window_start, output_window_end]``.

    See the README ("Python API") for every parameter. All arguments are checked before any data is read.
    ``output_window_end=None`` resolves the availability watermark ``min(max a, max b)`` with one small
    Spark job, and many_rows_per_key='auto' on a long run of partner='all' runs one small query (A's first rows
    against B's last join window, plan_choice.py); every other step is lazy.
    """
    prepared = prepare_join(
        df_a,
        df_b,
        join_cols=join_cols,
        inc_col=inc_col,
        how=how,
        look_back_time=look_back_time,
        max_waiting_time=max_waiting_time,
        time_uom=time_uom,
        enforce_sliding_join_window=enforce_sliding_join_window,
        include_waiting=include_waiting,
        output_select=output_select,
        suffixes=suffixes,
        partner=partner,
        partner_order_by=partner_order_by,
        aggregate=aggregate,
        null_fill=null_fill,
        many_rows_per_key=many_rows_per_key,
        late_match_time=late_match_time,
        join_cond=join_cond,
    )
    unit, zone = prepared.params.time_uom, prepared.session_time_zone
    start = parse_bound(output_window_start, "output_window_start", unit, zone)
    end = parse_bound(output_window_end, "output_window_end", unit, zone)
    if end is None:
        sides = [(df, column, prepared.inputs.arrival_types[index]) for index, (df, column)
                 in enumerate(zip((df_a, df_b), prepared.inputs.inc_col, strict=True))]  # fmt: skip
        end = availability_watermark(sides, unit, start)
    return render_join(prepared, OutputWindow(start, end))


def is_spark_dataframe(value: Any) -> bool:
    """A classic or a Spark Connect DataFrame. From pyspark 4 both derive from pyspark.sql.DataFrame; in pyspark
    3.5 a Connect DataFrame (pyspark.sql.connect.dataframe) does not, so the check goes by class, not import."""
    return isinstance(value, DataFrame) or any(
        cls.__name__ == "DataFrame" and cls.__module__.startswith("pyspark.sql.") for cls in type(value).__mro__
    )


def check_inputs(df_a: DataFrame, df_b: DataFrame, **arguments) -> tuple[JoinParameters, ResolvedInputs, bool]:
    """Check the arguments, that both inputs are DataFrames, and their key and arrival columns (no data is
    read). Returns the parameters, the resolved columns and whether names are case-sensitive."""
    return _checked_inputs(df_a, df_b, **arguments)[:3]


def _checked_inputs(df_a: DataFrame, df_b: DataFrame, **arguments) -> tuple[Any, ...]:
    for name, df in (("df_a", df_a), ("df_b", df_b)):
        if not is_spark_dataframe(df):
            raise TypeError(f"inc_join: {name} must be a pyspark DataFrame (got {type(df).__name__}).")
    params = check_parameters(**arguments)
    case_sensitive = str(df_a.sparkSession.conf.get("spark.sql.caseSensitive", "false")).lower() == "true"
    schema_a, schema_b = df_a.schema, df_b.schema
    found = resolve_inputs(params, schema_a, schema_b, case_sensitive)
    (inc_a, inc_b), keys = found["inc_col"], tuple((a, b) for a, b in found["keys"])
    types = (schema_a[inc_a].dataType, schema_b[inc_b].dataType)
    inputs = ResolvedInputs(keys, (inc_a, inc_b), types, tuple(found["partner_order_by"]))
    return params, inputs, case_sensitive, found


def prepare_join(df_a: DataFrame, df_b: DataFrame, **arguments) -> PreparedJoin:
    """Check every argument and both schemas (no data is read) and plan the output columns."""
    params, inputs, case_sensitive, found = _checked_inputs(df_a, df_b, **arguments)
    plan = plan_columns(params, found, case_sensitive)
    if params.aggregate:
        check_aggregates(df_b, params.aggregate)
    plan["aggregate_fills"] = aggregate_fills(params)
    condition = join_condition(params.join_cond, df_a, df_b, case_sensitive) if params.join_cond else None
    zone = df_a.sparkSession.conf.get("spark.sql.session.timeZone") or "UTC"
    orderable = tuple(found["orderable_b_names"])
    return PreparedJoin(df_a, df_b, params, inputs, plan, zone, orderable, condition)
