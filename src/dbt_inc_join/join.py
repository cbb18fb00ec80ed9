"""The PySpark incremental join (SPEC §3): one outer join of two pre-filtered slices, then placement in time.

Every output row gets an output arrival that depends only on the data, never on the run:
a match is placed at the later of its two arrivals, an A row without partner at ``a + max_waiting_time``, a B
row without partner (how = full) at ``b + look_back_time``. A run emits exactly the rows placed inside its
window, which is what makes any tiling of runs add up to one big run.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from typing import Optional, Sequence, Tuple

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import DataType

from .columns import ColumnPlan, OutputColumn, plan_columns
from .join_types import JoinType, emitted_codes
from .time_units import (
    TimeUnit,
    UnitValue,
    add_units_column,
    diff_units_column,
    literal_column,
    shift_value,
    truncate_column,
)
from .validation import (
    JoinParameters,
    check_arrival_type,
    check_key_types,
    check_parameters,
    field_type,
    require_column,
)
from .window import OutputWindow, InputSlices, input_slices, parse_bound
from .predicates import arrival_range_predicate, quote
from .watermark import availability_watermark

# Internal column names of the joined relation; user columns are renamed to _a<i>/_b<i> so no name can clash.
ARRIVAL_A, ARRIVAL_B = "_a_arrival", "_b_arrival"
PRESENT_A, PRESENT_B = "_a_present", "_b_present"
OUT_ARRIVAL, CODE = "_out_arrival", "_join_type"


@dataclass(frozen=True)
class ResolvedInputs:
    """Each side's spelling of the keys and arrival column, and the arrival column types."""

    keys: Tuple[Tuple[str, str], ...]
    inc_col: Tuple[str, str]
    arrival_types: Tuple[DataType, DataType]


def resolve_inputs(params: JoinParameters, df_a: DataFrame, df_b: DataFrame, case_sensitive: bool) -> ResolvedInputs:
    """Find the key and arrival columns on both sides and check their types (schemas only, no data)."""
    schema_a, schema_b = df_a.schema, df_b.schema
    keys = []
    for key in params.join_cols:
        key_a = require_column(schema_a, key, "join_cols", "df_a", case_sensitive)
        key_b = require_column(schema_b, key, "join_cols", "df_b", case_sensitive)
        check_key_types(key, field_type(schema_a, key_a), field_type(schema_b, key_b))
        keys.append((key_a, key_b))
    inc_a = require_column(schema_a, params.inc_col, "inc_col", "df_a", case_sensitive)
    inc_b = require_column(schema_b, params.inc_col, "inc_col", "df_b", case_sensitive)
    type_a, type_b = field_type(schema_a, inc_a), field_type(schema_b, inc_b)
    check_arrival_type(type_a, params.inc_col, "df_a", params.time_uom)
    check_arrival_type(type_b, params.inc_col, "df_b", params.time_uom)
    return ResolvedInputs(tuple(keys), (inc_a, inc_b), (type_a, type_b))


def _prepare_side(df: DataFrame, side: str, keys: Sequence[str], columns: Sequence[OutputColumn],
                  inc_col: str, arrival_type: DataType, bounds, unit: TimeUnit, empty: bool) -> DataFrame:
    """The side's slice, pre-filtered on the raw arrival, with internal names only."""
    if empty:
        sliced = df.where(F.lit(False))
    else:
        sliced = df.where(arrival_range_predicate(inc_col, arrival_type, bounds[0], bounds[1], unit))
    projection = [F.col(quote(k)).alias(f"_{side}k{i}") for i, k in enumerate(keys)]
    projection += [F.col(quote(c.input_name)).alias(f"_{side}{i}") for i, c in enumerate(columns)]
    projection += [
        truncate_column(F.col(quote(inc_col)), unit).alias(ARRIVAL_A if side == "a" else ARRIVAL_B),
        F.lit(True).alias(PRESENT_A if side == "a" else PRESENT_B),
    ]
    return sliced.select(*projection)


def _partner_condition(params: JoinParameters, window: OutputWindow, key_count: int) -> Column:
    """Equal keys (plain SQL equality: NULL never matches) and, by default, b inside A's sliding window."""
    a, b, unit = F.col(ARRIVAL_A), F.col(ARRIVAL_B), params.time_uom
    keys = [F.col(f"_ak{i}") == F.col(f"_bk{i}") for i in range(key_count)]
    if params.enforce_sliding_join_window:
        in_window = (b >= add_units_column(a, -params.look_back_time, unit)) & (
            b <= add_units_column(a, params.max_waiting_time, unit))
        return reduce(lambda x, y: x & y, keys + [in_window])
    # Compatibility mode: partners are bounded only by the pre-filtered slices (a late A only looks back
    # look_back_time before the window start), so the answer depends on the window size.
    if window.start is None:
        return reduce(lambda x, y: x & y, keys)
    look_back_limit = literal_column(shift_value(window.start, -params.look_back_time, unit), unit.spark_type)
    return reduce(lambda x, y: x & y, keys + [(b >= a) | (b >= look_back_limit)])


def _placement(params: JoinParameters, window: OutputWindow) -> Tuple[Column, Column]:
    """(JoinType code, output arrival) of a joined row, from which sides are present and their arrivals."""
    a, b, unit = F.col(ARRIVAL_A), F.col(ARRIVAL_B), params.time_uom
    matched = F.col(PRESENT_A).isNotNull() & F.col(PRESENT_B).isNotNull()
    a_only = F.col(PRESENT_A).isNotNull() & F.col(PRESENT_B).isNull()
    delta = diff_units_column(b, a, unit)
    timed_out_at = add_units_column(a, params.max_waiting_time, unit)
    window_end = literal_column(window.end, unit.spark_type) if window.end is not None else F.lit(None)
    a_timed_out = a_only & (timed_out_at <= window_end)
    code = (
        F.when(matched & (delta == 0), F.lit(int(JoinType.SAME_TIME)))
        .when(matched & (delta < 0), F.lit(int(JoinType.A_LATE)))
        .when(matched, F.lit(int(JoinType.B_LATE)))
        .when(a_timed_out, F.lit(int(JoinType.A_TIMED_OUT)))
        .when(a_only, F.lit(int(JoinType.A_WAITING)))
        .otherwise(F.lit(int(JoinType.B_TIMED_OUT)))
    )
    out_arrival = (
        F.when(matched, F.greatest(a, b))
        .when(a_timed_out, timed_out_at)
        .when(a_only, window_end)
        .otherwise(add_units_column(b, params.look_back_time, unit))
    )
    return code, out_arrival


def _final_column(column: OutputColumn, plan: ColumnPlan, params: JoinParameters, window: OutputWindow) -> Column:
    unit, code = params.time_uom, F.col(CODE)
    if column.source == "key":
        index = plan.keys.index(column)
        return F.coalesce(F.col(f"_ak{index}"), F.col(f"_bk{index}")).alias(column.name)
    if column.source == "arrival":
        return F.col(OUT_ARRIVAL).alias(column.name)
    if column.source in ("a", "b"):
        side_columns = plan.a_columns if column.source == "a" else plan.b_columns
        return F.col(f"_{column.source}{side_columns.index(column)}").alias(column.name)
    if column.name == "DiffArrivalTime":
        value = F.when(code <= int(JoinType.B_LATE), diff_units_column(F.col(ARRIVAL_B), F.col(ARRIVAL_A), unit))
    elif column.name == "WaitingTime":
        waited = diff_units_column(literal_column(window.end, unit.spark_type), F.col(ARRIVAL_A), unit) \
            if window.end is not None else F.lit(None)
        value = (F.when(code == int(JoinType.A_TIMED_OUT), F.lit(params.max_waiting_time))
                 .when(code == int(JoinType.A_WAITING), waited)
                 .when(code == int(JoinType.B_TIMED_OUT), F.lit(params.look_back_time)))
    elif column.name == "JoinType":
        value = code
    else:  # JoinTypeName
        value = reduce(lambda acc, jt: acc.when(code == int(jt), F.lit(jt.label)), list(JoinType)[1:],
                       F.when(code == int(JoinType.SAME_TIME), F.lit(JoinType.SAME_TIME.label)))
    cast = "string" if column.name == "JoinTypeName" else "int"
    return value.cast(cast).alias(column.name)


def inc_join(
    df_a: DataFrame,
    df_b: DataFrame,
    *,
    join_cols,
    inc_col: str = "RecDate",
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
) -> DataFrame:
    """Join A with B incrementally: the rows of the join placed in ``[output_window_start, output_window_end]``.

    See the README ("Python API") for every parameter. All arguments are checked before any data is read.
    ``output_window_end=None`` resolves the availability watermark ``min(max a, max b)`` with one small
    Spark job; every other step is lazy.
    """
    for name, df in (("df_a", df_a), ("df_b", df_b)):
        if not isinstance(df, DataFrame):
            raise TypeError(f"inc_join: {name} must be a pyspark DataFrame (got {type(df).__name__}).")
    params = check_parameters(
        join_cols=join_cols, inc_col=inc_col, how=how, look_back_time=look_back_time,
        max_waiting_time=max_waiting_time, time_uom=time_uom,
        enforce_sliding_join_window=enforce_sliding_join_window, include_waiting=include_waiting,
        output_select=output_select, suffixes=suffixes,
    )
    spark = df_a.sparkSession
    case_sensitive = str(spark.conf.get("spark.sql.caseSensitive", "false")).lower() == "true"
    session_time_zone = spark.conf.get("spark.sql.session.timeZone", "UTC")
    inputs = resolve_inputs(params, df_a, df_b, case_sensitive)
    plan = plan_columns(
        keys=inputs.keys, inc_col=inputs.inc_col, a_names=df_a.columns, b_names=df_b.columns,
        output_select=params.output_select, suffixes=params.suffixes, case_sensitive=case_sensitive,
    )
    start = parse_bound(output_window_start, "output_window_start", params.time_uom, session_time_zone)
    end = parse_bound(output_window_end, "output_window_end", params.time_uom, session_time_zone)
    if end is None:
        end = availability_watermark(df_a, df_b, inputs.inc_col, inputs.arrival_types, params.time_uom, start)
    return build_join(df_a, df_b, params, inputs, plan, OutputWindow(start, end))


def build_join(df_a: DataFrame, df_b: DataFrame, params: JoinParameters, inputs: ResolvedInputs,
               plan: ColumnPlan, window: OutputWindow) -> DataFrame:
    """The lazy plan for a resolved window: slice both sides, join once, place, filter, select."""
    empty = window.is_empty
    slices = None if empty else input_slices(window, how=params.how, look_back_time=params.look_back_time,
                                             max_waiting_time=params.max_waiting_time, unit=params.time_uom)
    sides = []
    for index, (side, df, columns) in enumerate((("a", df_a, plan.a_columns), ("b", df_b, plan.b_columns))):
        bounds = None if slices is None else (slices.a if side == "a" else slices.b)
        sides.append(_prepare_side(df, side, [k[index] for k in inputs.keys], columns, inputs.inc_col[index],
                                   inputs.arrival_types[index], bounds, params.time_uom, empty))
    join_kind = {"inner": "inner", "left": "left", "left_anti": "left", "full": "full"}[params.how]
    joined = sides[0].join(sides[1], _partner_condition(params, window, len(inputs.keys)), join_kind)
    code, out_arrival = _placement(params, window)
    placed = joined.select("*", code.alias(CODE), out_arrival.alias(OUT_ARRIVAL))
    codes = sorted(int(c) for c in emitted_codes(params.how, params.include_waiting))
    in_window = F.col(OUT_ARRIVAL) <= literal_column(window.end, params.time_uom.spark_type) if not empty else F.lit(False)
    if window.start is not None and not empty:
        in_window = in_window & (F.col(OUT_ARRIVAL) >= literal_column(window.start, params.time_uom.spark_type))
    kept = placed.where(in_window & F.col(CODE).isin(codes))
    return kept.select(*[_final_column(c, plan, params, window) for c in plan.selected])
