"""The plan of one run: slice both inputs, join them once, classify every joined row by the scenarios, keep
the rows placed in the output window, select the output columns.

Read side by side with macros/internal/_render.sql, which renders the same SQL text as one statement; here
the same text goes into DataFrame calls, so the core also runs on DataFrames that are not tables (and over
Spark Connect). One SELECT over one join, never a UNION ALL of one SELECT per scenario: Spark re-scans and
re-joins both inputs for every branch of a UNION ALL (measured 2-3x slower, see docs/performance.md).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date, datetime

from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import DataType, DateType

from .arrival_groups import (
    BUCKET,
    GROUP_ARRIVAL,
    arrival_buckets_sql,
    arrival_filter_sql,
    arrival_projection,
    b_bucket_sql,
    back_to_a_sql,
    condition_group_projection,
    group_condition,
    group_key,
    group_match_sql,
    order_projection,
    own_columns,
    pairs_by_bucket,
    partner_order,
    pick_sql,
    projected_names,
)
from .columns import ColumnPlan, OutputColumn
from .join_cond import condition_projection
from .join_types import JoinType, emitted_join_types
from .late_matches import late_copies, late_window_sql
from .placement import ARRIVAL_A, ARRIVAL_B, PlacementContext, keys_equal_sql, sliding_window_sql
from .plan_choice import PlanChoice, choose_join_plan
from .predicates import arrival_range_sql, quote
from .prepared import PreparedJoin, ResolvedInputs
from .scenarios import SCENARIOS, Scenario
from .time_units import TimeUnit, UnitValue, shift_value, sql_literal, truncate_sql
from .validation import JoinParameters
from .window import OutputWindow, read_ranges

CODE = "_join_type"
EPOCH = {"date": date(1970, 1, 1), "timestamp": datetime(1970, 1, 1)}
JOIN_KINDS = {"inner": "inner", "left": "left", "left_anti": "left", "full": "full"}
_log = logging.getLogger("dbt_inc_join")


def arrival_is_truncated(data_type: DataType, unit: TimeUnit) -> bool:
    """Whether truncating a raw arrival of this type to the unit leaves it unchanged (a DATE in days): then the
    raw column is the truncated arrival and travels through the join once, not twice."""
    return unit is TimeUnit.DAY and isinstance(data_type, DateType)


def side_projection(
    side: str,
    keys: Sequence[str],
    columns: Sequence[OutputColumn],
    inc_col: str,
    arrival_type: DataType,
    unit: TimeUnit,
) -> list[str]:
    """The select list that renames one side to internal names and adds its truncated arrival.

    Only what the output needs goes through the join (every extra column is shuffled and sorted on a large
    run); a side is present in a joined row exactly when its arrival is not NULL, so no presence flag."""
    same = arrival_is_truncated(arrival_type, unit)
    return (
        [f"{quote(k)} AS _{side}k{i}" for i, k in enumerate(keys)]
        + [
            f"{quote(c.input_name)} AS _{side}{i}"
            for i, c in enumerate(columns)
            if not (same and c.input_name == inc_col)
        ]
        + [f"{truncate_sql(quote(inc_col), unit)} AS _{side}_arrival"]
    )


def partner_condition_sql(
    params: JoinParameters, start: UnitValue | None, key_count: int, condition: str | None = None
) -> str:
    """Equal keys (plain SQL equality: NULL never matches), join_cond (over the internal names) and, by default,
    b inside A's sliding window (with late matches, spec §10: a late copy of an A row pairs after the window
    instead)."""
    unit = params.time_uom
    tests = [keys_equal_sql(key_count)] + ([f"({condition})"] if condition else [])
    if params.enforce_sliding_join_window:
        window = sliding_window_sql(params.look_back_time, params.max_waiting_time, unit)
        if params.late_match_time:
            window = late_window_sql(window, params.max_waiting_time, params.late_match_time, unit)
        tests.append(window)
    elif start is not None:
        # Compatibility mode, as inc-join 0.1.3 with enforce_sliding_join_window=False: every pair with equal
        # keys among the rows that library reads for the window (A from start - max_waiting_time, B from
        # start - look_back_time - max_waiting_time, both up to the end), so the answer depends on the window.
        # Our slices may reach further back (A for how = full): rows beyond those bounds claim no partner.
        mw, lb = params.max_waiting_time, params.look_back_time
        for arrival, reach in ((ARRIVAL_A, mw), (ARRIVAL_B, mw + lb)):
            tests.append(f"{arrival} >= {sql_literal(shift_value(start, -reach, unit), unit.spark_type)}")
    return " AND ".join(tests)


def in_window_sql(arrival: str, start: UnitValue | None, end: UnitValue, unit: TimeUnit) -> str:
    """The arrival lies in the output window ``[start, end]`` (no lower test without a start)."""
    test = f"{arrival} <= {sql_literal(end, unit.spark_type)}"
    if start is not None:
        test += f" AND {arrival} >= {sql_literal(start, unit.spark_type)}"
    return f"({test})"


def classification_sql(scenarios: Sequence[Scenario], start: UnitValue | None, end: UnitValue, unit: TimeUnit) -> str:
    """The JoinType code of a joined row: the scenario whose rows it is, when placed inside the window."""
    branches = [f"WHEN ({s.where}) AND {in_window_sql(s.arrival, start, end, unit)} THEN {s.code}" for s in scenarios]
    return f"CASE {' '.join(branches)} END"


def scenario_value(
    column: OutputColumn, scenario: Scenario, plan: ColumnPlan, inputs: ResolvedInputs, unit: TimeUnit
) -> str:
    """The value of one selected column in a row of this scenario."""
    if column.source == "key":
        index = plan.keys.index(column)
        return f"coalesce(_ak{index}, _bk{index})"
    if column.source == "arrival":
        return scenario.arrival
    if column.source in ("a", "b"):
        side = 0 if column.source == "a" else 1
        if column.input_name == inputs.inc_col[side] and arrival_is_truncated(inputs.arrival_types[side], unit):
            return f"_{column.source}_arrival"
        side_columns = plan.a_columns if column.source == "a" else plan.b_columns
        return f"_{column.source}{side_columns.index(column)}"
    if column.source == "aggregate":
        return aggregate_value(plan.aggregates.index(column), scenario, plan.aggregate_fills)
    if column.name == "DiffArrivalTime":
        return f"CAST({scenario.diff or 'NULL'} AS INT)"
    if column.name == "WaitingTime":
        return f"CAST({scenario.waiting or 'NULL'} AS INT)"
    if column.name == "JoinType":
        return f"CAST({scenario.code} AS INT)"
    return f"CAST('{scenario.name}' AS STRING)"


def aggregate_value(index: int, scenario: Scenario, fills: Sequence[str]) -> str:
    """An aggregate column (spec §11): over the partners (code 8); the fill for an A row without any (code 4);
    and for a waiting A row (code 5) over its partners so far, the fill while it has none."""
    computed = f"_g{index}"
    if scenario.code == JoinType.A_AGGREGATED:
        return computed
    if scenario.code == JoinType.A_TIMED_OUT:
        return fills[index]
    return f"CASE WHEN {ARRIVAL_B} IS NULL THEN {fills[index]} ELSE {computed} END"


def placed_columns(
    scenarios: Sequence[Scenario], plan: ColumnPlan, inputs: ResolvedInputs, unit: TimeUnit
) -> list[str]:
    """Each selected column: the scenarios' values, one CASE branch per distinct value (none when all agree)."""
    columns = []
    for column in plan.selected:
        codes_by_value: dict = {}
        for scenario in scenarios:
            codes_by_value.setdefault(scenario_value(column, scenario, plan, inputs, unit), []).append(scenario.code)
        if column.source == "derived" and column.name == "JoinType":
            expression = CODE
        elif len(codes_by_value) == 1:
            expression = next(iter(codes_by_value))
        else:
            branches = [
                f"WHEN {CODE} {'= ' + str(codes[0]) if len(codes) == 1 else 'IN (' + ', '.join(map(str, codes)) + ')'}"
                f" THEN {value}"
                for value, codes in codes_by_value.items()
            ]
            expression = f"CASE {' '.join(branches)} END"
        columns.append(f"{expression} AS {quote(column.name)}")
    return columns


def render_join(prepared: PreparedJoin, window: OutputWindow, choice: PlanChoice | None = None) -> DataFrame:
    """The lazy plan for a resolved window; ``choice``: plan_choice.choose_join_plan's (made here when not given:
    with many_rows_per_key='auto' it reads a sample of each input, spec §15)."""
    choice = choice or choose_join_plan(prepared, window)
    _log.info("inc_join plan: %s", choice.text)
    df_a, df_b, params, inputs, plan = prepared.df_a, prepared.df_b, prepared.params, prepared.inputs, prepared.plan
    unit = params.time_uom
    start, end = window.start, window.end
    if end is None or window.is_empty:
        # Same columns and types, no rows, no scan: Spark folds the false filter into an empty relation.
        # The plan still needs some end literal; which one does not matter.
        start, end = None, end or start or EPOCH[unit.spark_type]
        df_a, df_b = df_a.where("false"), df_b.where("false")
    ctx = PlacementContext(
        unit,
        lb=params.look_back_time,
        mw=params.max_waiting_time,
        end_sql=sql_literal(end, unit.spark_type),
        mode=params.mode,
        late_match=params.late_match_time > 0,
    )

    # what this run may read of each input (docs/spec.md §4)
    ranges = read_ranges(
        OutputWindow(start, end),
        how=params.how,
        look_back_time=params.look_back_time,
        max_waiting_time=params.max_waiting_time,
        unit=unit,
        late_match_time=params.late_match_time,
    )
    slices, sides = [], []
    for index, (side, df, columns) in enumerate((("a", df_a, plan.a_columns), ("b", df_b, plan.b_columns))):
        lower, upper = ranges[index]
        sliced = df.where(arrival_range_sql(inputs.inc_col[index], inputs.arrival_types[index], lower, upper, unit))
        projection = side_projection(
            side,
            [k[index] for k in inputs.keys],
            columns,
            inputs.inc_col[index],
            inputs.arrival_types[index],
            unit,
        )
        if prepared.condition is not None:
            projection += condition_projection(side, getattr(prepared.condition, f"{side}_columns"))
        slices.append(sliced)
        sides.append(sliced.selectExpr(*projection))

    if params.late_match_time:
        sides[0] = late_copies(sides[0], sides[1], params, len(inputs.keys), condition_sql(prepared))
    if choice.grouped and pairs_by_bucket(params.mode, params.how):
        pairs = bucketed_pairs(prepared, sides[0], slices[1])
    elif choice.grouped or params.mode != "all":
        pairs = arrival_group_pairs(prepared, sides[0], slices[1], df_b, bucketed=choice.grouped)
    else:
        condition = partner_condition_sql(params, start, len(inputs.keys), condition_sql(prepared))
        pairs = sides[0].join(sides[1], F.expr(condition), JOIN_KINDS[params.how])
    emitted = emitted_join_types(params.how, params.include_waiting, params.mode, ctx.late_match)
    scenarios = [SCENARIOS[join_type](ctx) for join_type in emitted]
    placed = pairs.selectExpr("*", f"{classification_sql(scenarios, start, end, unit)} AS {CODE}")
    return placed.where(f"{CODE} IS NOT NULL").selectExpr(*placed_columns(scenarios, plan, inputs, unit))


def condition_sql(prepared: PreparedJoin) -> str | None:
    """join_cond over the internal names, or None."""
    return None if prepared.condition is None else prepared.condition.sql


def b_projection(prepared: PreparedJoin) -> list[str]:
    """B's usual internal columns (as in the plain plan): its keys, selected columns and truncated arrival."""
    inputs = prepared.inputs
    return side_projection(
        "b",
        [k[1] for k in inputs.keys],
        prepared.plan.b_columns,
        inputs.inc_col[1],
        inputs.arrival_types[1],
        prepared.params.time_uom,
    )


def b_group_projection(prepared: PreparedJoin, bucketed: bool = True) -> list[str]:
    """B's slice for the arrival-group plan: the usual internal columns, partner_order_by's columns, join_cond's
    B columns and the bucket (when ``bucketed``); with aggregate, B's own columns too, which the aggregates name."""
    params = prepared.params
    unit = params.time_uom
    projection = b_projection(prepared) + order_projection(prepared.inputs.partner_order_by)
    if prepared.condition is not None:
        projection += condition_projection("b", prepared.condition.b_columns)
    if params.aggregate:
        projection = own_columns(prepared.df_b.columns) + projection
    if not bucketed:
        return projection
    return projection + [f"{b_bucket_sql(params.look_back_time, params.max_waiting_time, unit)} AS _b_bucket"]


def tie_breakers(prepared: PreparedJoin) -> list[str]:
    """The selected B columns Spark can order, by internal name: the last resort of the partner order."""
    names = projected_names(b_projection(prepared))
    orderable = set(prepared.orderable_b_columns)
    return [
        f"_b{i}"
        for i, column in enumerate(prepared.plan.b_columns)
        if f"_b{i}" in names and column.input_name in orderable
    ]


def bucketed_pairs(prepared: PreparedJoin, a_side: DataFrame, b_slice: DataFrame) -> DataFrame:
    """spec §11, Cost, every partner with how = inner: each A row in the buckets its window touches, one join
    with B on keys and bucket. The pairs are the output here, so grouping A's arrivals first saves nothing."""
    params = prepared.params
    unit, lb, mw = params.time_uom, params.look_back_time, params.max_waiting_time
    key_count = len(prepared.inputs.keys)
    b_side = b_slice.selectExpr(*b_group_projection(prepared))
    a_buckets = (
        a_side.where(arrival_filter_sql(key_count))
        .selectExpr("*", *arrival_projection(key_count))
        .selectExpr("*", f"explode({arrival_buckets_sql(lb, mw, unit)}) AS {BUCKET}")
    )
    match = group_match_sql(key_count, lb, mw, unit, condition_sql(prepared))
    return a_buckets.join(b_side, F.expr(match), "inner")


def arrival_group_pairs(
    prepared: PreparedJoin, a_side: DataFrame, b_slice: DataFrame, df_b: DataFrame, bucketed: bool = True
) -> DataFrame:
    """spec §11, Cost: B joined to the (keys, arrival) of A's slice, reduced per mode, joined back to A; over time
    buckets when ``bucketed`` (the grouped plan), on the keys alone otherwise (spec §15). The result has the
    columns of the plain plan's pairs (and ``_g<j>`` per aggregate)."""
    params = prepared.params
    reduced = reduced_by_arrival(prepared, a_side, b_slice, bucketed)
    indexes, a_only, _ = group_condition(condition_sql(prepared))
    back = back_to_a_sql(len(prepared.inputs.keys), indexes, a_only)
    joined = a_side.join(reduced, F.expr(back), JOIN_KINDS[params.how])
    return with_empty_aggregates(prepared, joined, df_b)


def with_empty_aggregates(prepared: PreparedJoin, joined: DataFrame, df_b: DataFrame) -> DataFrame:
    """An aggregate's value over no rows (count 0, sum NULL, ...) as ``_e<j>``, for the A rows without partner
    (the aggregates without a null_fill)."""
    params = prepared.params
    fills_from_empty = [j for j, fill in enumerate(prepared.plan.aggregate_fills) if fill == f"_e{j}"]
    if not fills_from_empty:
        return joined
    empty = df_b.where("false").selectExpr(*[f"{params.aggregate[j][1]} AS _e{j}" for j in fills_from_empty])
    return joined.crossJoin(empty)


def reduced_by_arrival(
    prepared: PreparedJoin, a_side: DataFrame, b_slice: DataFrame, bucketed: bool = True, pairs_a_rows: bool = False
) -> DataFrame:
    """B joined to the distinct (keys, arrival) of A's slice and reduced per mode: at most one row per (keys,
    arrival) for first, last and aggregate (``_gk<i>``, ``_g_arrival``, join_cond's A columns as ``_gc<i>`` and
    B's internal columns); with how = full also the B rows of no arrival's window. Not ``bucketed`` (the plain key
    join, spec §15): B joined on the keys alone, to the same distinct (keys, arrival), or for a pick with
    ``pairs_a_rows`` (PlanChoice's) to A's (keys, arrival) as they are."""
    params, inputs = prepared.params, prepared.inputs
    unit, lb, mw = params.time_uom, params.look_back_time, params.max_waiting_time
    indexes, a_only, matched = group_condition(condition_sql(prepared))
    key_count, conditioned = len(inputs.keys), [f"_ac{i}" for i in indexes]
    b_side = b_slice.selectExpr(*b_group_projection(prepared, bucketed))
    arrivals = a_side.where(arrival_filter_sql(key_count, a_only)).selectExpr(
        *arrival_projection(key_count), *conditioned
    )
    if bucketed:
        arrivals = arrivals.distinct().selectExpr("*", f"explode({arrival_buckets_sql(lb, mw, unit)}) AS {BUCKET}")
    else:
        # distributed by the keys, as the key join needs: inputs on the same keys share this exchange of A, and
        # the distinct (keys, arrival) needs no exchange of its own. An aggregate counts each partner once, so it
        # always takes the distinct; a pick takes it unless A's sample showed (nearly) unique keys: it never pairs
        # every A row of a hot key with every B row of it
        arrivals = arrivals.repartition(*[group_key(i) for i in range(key_count)])
        if not (pairs_a_rows and params.mode in ("first", "last")):
            arrivals = arrivals.distinct()
    # how = full: a B row of no arrival's window is kept (with NULL group columns): it is code 6.
    kind = "right" if params.how == "full" else "inner"
    match = group_match_sql(key_count, lb, mw, unit, matched, bucketed)
    matches = arrivals.join(b_side, F.expr(match), kind)
    group = [group_key(i) for i in range(key_count)] + [GROUP_ARRIVAL] + conditioned
    # the group as the reduced rows name it: join_cond's A columns renamed for the join back
    named = group[: key_count + 1] + condition_group_projection(indexes)
    b_names = projected_names(b_projection(prepared))
    if params.mode == "aggregate":
        reduced = matches.groupBy(*group).agg(
            *[F.expr(f"{expression} AS _g{j}") for j, (_, expression) in enumerate(params.aggregate)],
            F.expr(f"max({ARRIVAL_B}) AS {ARRIVAL_B}"),
        )
        aggregated = [f"_g{j}" for j in range(len(params.aggregate))] + [ARRIVAL_B]
        reduced = reduced.selectExpr(*named, *aggregated, *[f"{group_key(i)} AS _bk{i}" for i in range(key_count)])
    elif params.mode in ("first", "last"):
        order = partner_order(len(params.partner_order_by), tie_breakers(prepared))
        not_null = " AND ".join(f"{g} IS NOT NULL" for g in group[: key_count + 1])
        chosen = (
            matches.where(not_null)
            .groupBy(*group)
            .agg(F.expr(pick_sql(params.mode, b_names, order)))
            .selectExpr(*named, *[f"_pick.{name} AS {name}" for name in b_names])
        )
        if params.how == "full":
            unclaimed = matches.where(f"{GROUP_ARRIVAL} IS NULL").selectExpr(*named, *b_names)
            chosen = chosen.unionByName(unclaimed)
        reduced = chosen
    else:
        reduced = matches.selectExpr(*named, *b_names)
    return reduced
