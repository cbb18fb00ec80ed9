"""The PySpark incremental join (SPEC §3): one outer join of two pre-filtered slices, then placement in time.

Every output row gets an output arrival that depends only on the data, never on the run:
a match is placed at the later of its two arrivals, an A row without partner at ``a + max_waiting_time``, a B
row without partner (how = full) at ``b + look_back_time``. A run emits exactly the rows placed inside its
window, which is what makes any tiling of runs add up to one big run.

Expressions are rendered as Spark SQL text (one JVM call per step instead of one per function), the same
text the dbt macros render.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, List, Sequence, Tuple

from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import DataType, DateType

from .columns import ColumnPlan, OutputColumn, plan_columns
from .join_types import JoinType, emitted_codes
from .predicates import arrival_range_sql, quote
from .time_units import TimeUnit, add_units_sql, diff_units_sql, shift_value, sql_literal, truncate_sql
from .validation import (
    JoinParameters,
    check_arrival_type,
    check_key_types,
    check_parameters,
    field_type,
    require_column,
)
from .watermark import availability_watermark
from .window import OutputWindow, input_slices, parse_bound

# Internal names of the joined relation; user columns become _a<i>/_b<i>/_ak<i>/_bk<i> so nothing can clash.
# A side is present in a joined row exactly when its arrival is not NULL: every slice keeps only rows with an
# arrival (arrival_range_sql), so no presence flag has to travel through the join.
ARRIVAL_A, ARRIVAL_B = "_a_arrival", "_b_arrival"
OUT_ARRIVAL, CODE = "_out_arrival", "_join_type"
EPOCH = {"date": date(1970, 1, 1), "timestamp": datetime(1970, 1, 1)}


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


def arrival_is_truncated(data_type: DataType, unit: TimeUnit) -> bool:
    """Whether truncating a raw arrival of this type to the unit leaves it unchanged (a DATE in days): then the
    raw column is the truncated arrival and travels through the join once, not twice."""
    return unit is TimeUnit.DAY and isinstance(data_type, DateType)


def side_projection(side: str, keys: Sequence[str], columns: Sequence[OutputColumn], inc_col: str,
                    arrival_type: DataType, params: JoinParameters) -> List[str]:
    """The select list that renames one side to internal names and adds its truncated arrival.

    Only what the output needs is carried into the join (every extra column is shuffled and sorted on a large
    run): the raw arrival column is dropped when it equals the truncated one (output_column_sql reads it from
    the arrival instead)."""
    arrival = ARRIVAL_A if side == "a" else ARRIVAL_B
    same = arrival_is_truncated(arrival_type, params.time_uom)
    return ([f"{quote(k)} AS _{side}k{i}" for i, k in enumerate(keys)]
            + [f"{quote(c.input_name)} AS _{side}{i}" for i, c in enumerate(columns)
               if not (same and c.input_name == inc_col)]
            + [f"{truncate_sql(quote(inc_col), params.time_uom)} AS {arrival}"])


def partner_condition_sql(params: JoinParameters, window: OutputWindow, key_count: int) -> str:
    """Equal keys (plain SQL equality: NULL never matches) and, by default, b inside A's sliding window."""
    unit = params.time_uom
    tests = [f"_ak{i} = _bk{i}" for i in range(key_count)]
    if params.enforce_sliding_join_window:
        tests.append(f"{ARRIVAL_B} >= {add_units_sql(ARRIVAL_A, -params.look_back_time, unit)}")
        tests.append(f"{ARRIVAL_B} <= {add_units_sql(ARRIVAL_A, params.max_waiting_time, unit)}")
    elif window.start is not None:
        # Compatibility mode, as inc-join 0.1.3 with enforce_sliding_join_window=False: every pair with equal
        # keys among the rows that library reads for the window (A from start - max_waiting_time, B from
        # start - look_back_time - max_waiting_time, both up to the end), so the answer depends on the window.
        # Our slices may reach further back (A for how = full): rows beyond those bounds claim no partner.
        mw, lb = params.max_waiting_time, params.look_back_time
        for arrival, reach in ((ARRIVAL_A, mw), (ARRIVAL_B, mw + lb)):
            tests.append(f"{arrival} >= {sql_literal(shift_value(window.start, -reach, unit), unit.spark_type)}")
    return " AND ".join(tests)


def placement_sql(params: JoinParameters, window: OutputWindow) -> Tuple[str, str]:
    """SQL for (JoinType code, output arrival) of a joined row, from which sides are present."""
    unit = params.time_uom
    matched = f"{ARRIVAL_A} IS NOT NULL AND {ARRIVAL_B} IS NOT NULL"
    a_only = f"{ARRIVAL_A} IS NOT NULL AND {ARRIVAL_B} IS NULL"
    delta = diff_units_sql(ARRIVAL_B, ARRIVAL_A, unit)
    timed_out_at = add_units_sql(ARRIVAL_A, params.max_waiting_time, unit)
    end = sql_literal(window.end, unit.spark_type)
    code = (f"CASE WHEN {matched} THEN (CASE WHEN {delta} = 0 THEN {int(JoinType.SAME_TIME)} "
            f"WHEN {delta} < 0 THEN {int(JoinType.A_LATE)} ELSE {int(JoinType.B_LATE)} END) "
            f"WHEN {a_only} THEN (CASE WHEN {timed_out_at} <= {end} THEN {int(JoinType.A_TIMED_OUT)} "
            f"ELSE {int(JoinType.A_WAITING)} END) "
            f"ELSE {int(JoinType.B_TIMED_OUT)} END")
    out_arrival = (f"CASE WHEN {matched} THEN greatest({ARRIVAL_A}, {ARRIVAL_B}) "
                   f"WHEN {a_only} THEN least({timed_out_at}, {end}) "
                   f"ELSE {add_units_sql(ARRIVAL_B, params.look_back_time, unit)} END")
    return code, out_arrival


def output_column_sql(column: OutputColumn, plan: ColumnPlan, params: JoinParameters, window: OutputWindow,
                      inputs: ResolvedInputs) -> str:
    """SQL for one selected output column of the placed relation."""
    unit, name = params.time_uom, quote(column.name)
    if column.source == "key":
        index = plan.keys.index(column)
        return f"coalesce(_ak{index}, _bk{index}) AS {name}"
    if column.source == "arrival":
        return f"{OUT_ARRIVAL} AS {name}"
    if column.source in ("a", "b"):
        index = 0 if column.source == "a" else 1
        if (column.input_name == inputs.inc_col[index]
                and arrival_is_truncated(inputs.arrival_types[index], unit)):
            return f"{(ARRIVAL_A, ARRIVAL_B)[index]} AS {name}"
        side_columns = plan.a_columns if column.source == "a" else plan.b_columns
        return f"_{column.source}{side_columns.index(column)} AS {name}"
    if column.name == "DiffArrivalTime":
        return (f"CAST(CASE WHEN {CODE} <= {int(JoinType.B_LATE)} THEN {diff_units_sql(ARRIVAL_B, ARRIVAL_A, unit)} "
                f"END AS INT) AS {name}")
    if column.name == "WaitingTime":
        waited = diff_units_sql(sql_literal(window.end, unit.spark_type), ARRIVAL_A, unit)
        return (f"CAST(CASE {CODE} WHEN {int(JoinType.A_TIMED_OUT)} THEN {params.max_waiting_time} "
                f"WHEN {int(JoinType.A_WAITING)} THEN {waited} "
                f"WHEN {int(JoinType.B_TIMED_OUT)} THEN {params.look_back_time} END AS INT) AS {name}")
    if column.name == "JoinType":
        return f"{CODE} AS {name}"
    labels = " ".join(f"WHEN {int(jt)} THEN '{jt.label}'" for jt in JoinType)
    return f"CAST(CASE {CODE} {labels} END AS STRING) AS {name}"


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
    prepared = prepare_join(df_a, df_b, join_cols=join_cols, inc_col=inc_col, how=how,
                            look_back_time=look_back_time, max_waiting_time=max_waiting_time, time_uom=time_uom,
                            enforce_sliding_join_window=enforce_sliding_join_window,
                            include_waiting=include_waiting, output_select=output_select, suffixes=suffixes)
    unit, zone = prepared.params.time_uom, prepared.session_time_zone
    start = parse_bound(output_window_start, "output_window_start", unit, zone)
    end = parse_bound(output_window_end, "output_window_end", unit, zone)
    if end is None:
        end = availability_watermark(df_a, df_b, prepared.inputs.inc_col, prepared.inputs.arrival_types, unit, start)
    return build_join(prepared, OutputWindow(start, end))


@dataclass(frozen=True)
class PreparedJoin:
    """A checked inc_join call, ready to be built for any window."""

    df_a: DataFrame
    df_b: DataFrame
    params: JoinParameters
    inputs: ResolvedInputs
    plan: ColumnPlan
    session_time_zone: str


def is_spark_dataframe(value: Any) -> bool:
    """A classic or a Spark Connect DataFrame. From pyspark 4 both derive from pyspark.sql.DataFrame; in pyspark
    3.5 a Connect DataFrame (pyspark.sql.connect.dataframe) does not, so the check goes by class, not import."""
    return isinstance(value, DataFrame) or any(
        cls.__name__ == "DataFrame" and cls.__module__.startswith("pyspark.sql.") for cls in type(value).__mro__)


def check_inputs(df_a: DataFrame, df_b: DataFrame, **arguments) -> Tuple[JoinParameters, ResolvedInputs, bool]:
    """Check the arguments, that both inputs are DataFrames, and their key and arrival columns (no data is
    read). Returns the parameters, the resolved columns and whether names are case-sensitive."""
    for name, df in (("df_a", df_a), ("df_b", df_b)):
        if not is_spark_dataframe(df):
            raise TypeError(f"inc_join: {name} must be a pyspark DataFrame (got {type(df).__name__}).")
    params = check_parameters(**arguments)
    case_sensitive = str(df_a.sparkSession.conf.get("spark.sql.caseSensitive", "false")).lower() == "true"
    return params, resolve_inputs(params, df_a, df_b, case_sensitive), case_sensitive


def prepare_join(df_a: DataFrame, df_b: DataFrame, **arguments) -> PreparedJoin:
    """Check every argument and both schemas (no data is read) and plan the output columns."""
    params, inputs, case_sensitive = check_inputs(df_a, df_b, **arguments)
    spark = df_a.sparkSession
    plan = plan_columns(
        keys=inputs.keys, inc_col=inputs.inc_col, a_names=df_a.columns, b_names=df_b.columns,
        output_select=params.output_select, suffixes=params.suffixes, case_sensitive=case_sensitive,
    )
    return PreparedJoin(df_a, df_b, params, inputs, plan, spark.conf.get("spark.sql.session.timeZone", "UTC"))


def build_join(prepared: PreparedJoin, window: OutputWindow) -> DataFrame:
    """The lazy plan for a resolved window: slice both sides, join once, place, filter, select."""
    df_a, df_b, params, inputs, plan = prepared.df_a, prepared.df_b, prepared.params, prepared.inputs, prepared.plan
    if window.is_empty:
        # Same columns and types, no rows, no scan: Spark folds the false filter into an empty relation.
        # The plan still needs some end literal; which one does not matter.
        window = OutputWindow(None, window.end or window.start or EPOCH[params.time_uom.spark_type])
        df_a, df_b = df_a.where("false"), df_b.where("false")
    slices = input_slices(window, how=params.how, look_back_time=params.look_back_time,
                          max_waiting_time=params.max_waiting_time, unit=params.time_uom)
    sides = []
    for index, (side, df, columns) in enumerate((("a", df_a, plan.a_columns), ("b", df_b, plan.b_columns))):
        lower, upper = slices.a if side == "a" else slices.b
        sliced = df.where(arrival_range_sql(inputs.inc_col[index], inputs.arrival_types[index], lower, upper,
                                            params.time_uom))
        sides.append(sliced.selectExpr(*side_projection(side, [k[index] for k in inputs.keys], columns,
                                                        inputs.inc_col[index], inputs.arrival_types[index],
                                                        params)))
    join_kind = {"inner": "inner", "left": "left", "left_anti": "left", "full": "full"}[params.how]
    joined = sides[0].join(sides[1], F.expr(partner_condition_sql(params, window, len(inputs.keys))), join_kind)
    code, out_arrival = placement_sql(params, window)
    codes = ", ".join(str(int(c)) for c in sorted(emitted_codes(params.how, params.include_waiting)))
    unit_type = params.time_uom.spark_type
    in_window = f"{OUT_ARRIVAL} <= {sql_literal(window.end, unit_type)}"
    if window.start is not None:
        in_window += f" AND {OUT_ARRIVAL} >= {sql_literal(window.start, unit_type)}"
    placed = joined.selectExpr("*", f"{code} AS {CODE}", f"{out_arrival} AS {OUT_ARRIVAL}")
    kept = placed.where(f"{in_window} AND {CODE} IN ({codes})")
    return kept.selectExpr(*[output_column_sql(c, plan, params, window, inputs) for c in plan.selected])

