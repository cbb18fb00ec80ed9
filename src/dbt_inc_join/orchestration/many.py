"""inc_join_many (spec §12): A enriched from several inputs in one run, one row per A row.

Input i is resolved at ``r_i``: with ``partner='first'`` at ``max(a, b_i)`` when a partner was found, else (and
always for ``last`` and ``aggregate``) when its window closes, ``a + mw_i``. The row's output arrival is
``max_i r_i``: it is written once every input has settled, so any tiling of runs adds up to one run (§3).

Each input reuses the one-row-per-A reduction of inc_join (render.py: ``reduced_by_arrival``): B_i is joined to
the (keys_i, arrival) of A's slice and reduced to at most one row per group, which A joins by equality, so
duplicated A rows stay as many as they are and no input multiplies another's rows. Reads: A ``[s − max mw_i, e]``,
input i ``[s − max mw − lb_i, e]``. Each input has its plan (spec §15, input_plans): the grouped one (A's
distinct (keys, arrival) in time buckets) when the first rows of A and of the input share keys many times over,
else the plain join on the keys that a query written by hand does.

With ``include_waiting`` (views and tables only, like inc_join's code 5) a run also shows each A row not settled by
its end ``e``, at ``e``: the inputs settled by then as they will stay, each other input with ``JoinType_<name>`` 5
and what it has so far (``first``: nothing yet; ``last``: the latest partner up to ``e``; ``aggregate``: over the
partners up to ``e``, or the fill).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from pyspark.sql import DataFrame

from ..io.watermark import availability_watermark
from ..plan import arguments
from ..plan.arguments import inputs_of
from ..plan.plan_choice import PlanChoice, choice_of, plan_of
from ..plan.prepared import PreparedJoin
from ..plan.validation import check_argument, checked, params_of
from ..plan.window import parse_bound
from ..sql_text import render, statement
from ..sql_text.macros import port
from ..sql_text.time_units import TimeUnit, UnitValue
from .join import is_spark_dataframe, prepare_join
from .render import OpenState

_log = logging.getLogger("dbt_inc_join")


@dataclass(frozen=True)
class ManyInput:
    """One input of inc_join_many: B_i and how A finds its partner (or aggregate) in it."""

    df: Any
    name: str
    join_cols: Any
    look_back_time: int
    max_waiting_time: int
    inc_col: Any = "RecDate"
    partner: str | None = None  #: 'first' (default without aggregate) or 'last'
    partner_order_by: Any = None
    aggregate: Mapping[str, str] | None = None
    null_fill: Mapping[str, Any] | None = None
    join_cond: str | None = None  #: an extra condition over a. and b. that the partners must meet (spec §12)
    suffix: str | None = None  #: default ``_<name>``
    many_rows_per_key: bool | str = "auto"  #: the input's plan (spec §15): True grouped, False plain, or chosen


@dataclass(frozen=True)
class PreparedInput:
    spec: ManyInput
    prepared: PreparedJoin
    suffix: str


@dataclass(frozen=True)
class PreparedMany:
    df_a: DataFrame
    inputs: tuple[PreparedInput, ...]
    time_uom: TimeUnit
    inc_col_a: str
    output_select: tuple[str, ...] | None = field(default=None)
    include_waiting: bool = False  #: also the rows not settled by the end, provisional (code 5 per open input)


def _fail_many(message: str, error: type[Exception] = ValueError) -> Exception:
    return error(f"inc_join_many: {message}")


def _as_mapping(value: object) -> object:
    """A ManyInput as the dict of its fields (the DataFrame as it is), anything else as given."""
    if isinstance(value, ManyInput):
        return {item.name: getattr(value, item.name) for item in fields(value)}
    return value


def check_inputs(df_a: object, inputs: object) -> list[ManyInput]:
    """The inputs as ManyInput, checked by the macro _many_specs (names unique, each with a DataFrame and a window;
    no data is read)."""
    if not is_spark_dataframe(df_a):
        raise _fail_many(f"a must be a pyspark DataFrame (got {type(df_a).__name__}).", TypeError)
    given = [_as_mapping(value) for value in inputs] if isinstance(inputs, (list, tuple)) else None
    specs = [ManyInput(**value) for value in checked("_many_specs", given)]
    for spec in specs:
        if not is_spark_dataframe(spec.df):
            raise _fail_many(
                f"input {spec.name!r}: df must be a pyspark DataFrame (got {type(spec.df).__name__}).", TypeError
            )
    return specs


def _prepare_input(df_a: DataFrame, spec: ManyInput, unit: TimeUnit) -> PreparedInput:
    partner = "all" if spec.aggregate is not None else (spec.partner or "first")
    try:
        prepared = prepare_join(
            df_a,
            spec.df,
            join_cols=spec.join_cols,
            inc_col=spec.inc_col,
            how="left",
            look_back_time=spec.look_back_time,
            max_waiting_time=spec.max_waiting_time,
            time_uom=unit.value,
            enforce_sliding_join_window=True,
            include_waiting=False,
            output_select=None,
            suffixes=("_A", spec.suffix or f"_{spec.name}"),
            partner=partner,
            partner_order_by=spec.partner_order_by,
            aggregate=spec.aggregate,
            null_fill=spec.null_fill,
            join_cond=spec.join_cond,
            many_rows_per_key=spec.many_rows_per_key,
        )
    except (TypeError, ValueError) as error:
        text = str(error).removeprefix("inc_join: ").replace("df_b", f"input {spec.name!r}")
        raise type(error)(f"inc_join_many: input {spec.name!r}: {text}") from None
    return PreparedInput(spec, prepared, spec.suffix or f"_{spec.name}")


def prepare_many(
    df_a: DataFrame, inputs: object, time_uom: object = "day", output_select=None, include_waiting: object = False
) -> PreparedMany:
    """Check every argument and every schema (no data is read)."""
    waiting = bool(check_argument("include_waiting", include_waiting))
    specs = check_inputs(df_a, inputs)
    unit = TimeUnit(check_argument("time_uom", time_uom))
    prepared = tuple(_prepare_input(df_a, spec, unit) for spec in specs)
    arrivals = {p.prepared.inputs.inc_col[0] for p in prepared}
    checked("_check_many_arrivals", sorted(arrivals))
    select = None
    if output_select is not None:
        names = [n.strip() for n in output_select.split(",")] if isinstance(output_select, str) else output_select
        if not isinstance(names, (list, tuple)) or not names or not all(isinstance(n, str) and n for n in names):
            raise _fail_many(f"output_select must list output column names (got {output_select!r}).", TypeError)
        select = tuple(names)
    many = PreparedMany(df_a, prepared, unit, arrivals.pop(), select, waiting)
    # the output columns, named: two under one name, or output_select naming none, fail before any data is read
    render("_many_output_columns", df_a.columns, many.inc_col_a, many_items(many), [("", "")] * len(prepared), select)
    return many


def input_plans(
    many: PreparedMany,
    start: UnitValue | None,
    end: UnitValue,
    reads_nothing: bool = False,
    a_lower: UnitValue | None = None,
) -> list[PlanChoice]:
    """Each input's plan (spec §15): the macro ``_many_input_plans`` (set by its many_rows_per_key, plain when the
    input's read range is short, or chosen from one query for every other input), its query run by Spark.
    a_lower: where A's read range starts, when not spec §4's (a run that reads the open state, §18)."""
    frames = {"a": many.df_a} | {f"b{index}": item.prepared.df_b for index, item in enumerate(many.inputs)}
    prepared = [
        {
            "params": params_of(item.prepared.params),
            "inputs": inputs_of(item.prepared),
            "relation": statement.relation(f"b{index}"),
            "name": item.spec.name,
        }
        for index, item in enumerate(many.inputs)
    ]
    window = {"time_uom": many.time_uom.value, "start": start, "end": end, "empty": reads_nothing}
    if a_lower is None and not reads_nothing:
        a_lower = render("_many_read_ranges", window, prepared)["a"][0]
    found = port(lambda text: statement.run(text, frames))(
        "_many_input_plans", statement.relation("a"), prepared, window, a_lower
    )
    return [plan_of(plan) for plan in found]


def plans_text(many: PreparedMany, plans: Sequence[PlanChoice]) -> str:
    """The plans of a run, input by input: the end of its log line and the ledger's ``plan``."""
    return "; ".join(f"{item.spec.name} {plan.text}" for item, plan in zip(many.inputs, plans, strict=True))


def render_many(
    many: PreparedMany,
    start: UnitValue | None,
    end: UnitValue,
    plans: Sequence[PlanChoice] | None = None,
    empty: bool = False,
    open_state: OpenState | None = None,
    output: str = "rows",
) -> DataFrame:
    """The rows of one run over ``[start, end]`` (none when ``empty``: the same columns, nothing read);
    ``plans``: input_plans' (made here when not given). The statement is the one the SQL macro renders for a
    dbt model (macros/sql_text/_many_render.sql), over the caller's DataFrames. With ``open_state`` (spec §18):
    ``output`` 'rows', 'state' (the open state as of ``end``) or 'kept' (the relation both come from)."""
    text, dataframes = _many_statement(many, start, end, plans, empty, open_state, output)
    return statement.run(text, dataframes)


def render_many_with_state(
    many: PreparedMany,
    start: UnitValue | None,
    end: UnitValue,
    open_state: OpenState,
    plans: Sequence[PlanChoice] | None = None,
) -> dict[str, DataFrame]:
    """The lazy 'kept', 'rows' and 'state' of a run that keeps the open state, from one rendering."""
    texts, dataframes = _many_statement(many, start, end, plans, False, open_state, "texts")
    return {name: statement.run(texts[name], dataframes) for name in ("kept", "rows", "state")}


def many_open_state_kind(many: PreparedMany) -> tuple[str | None, str | None]:
    """The kind of open state inc_join_many of these inputs keeps ('many'), or None and why not."""
    kind, reason = render("_many_open_state_kind", many_items(many), many.include_waiting)
    return kind, reason


def _many_statement(
    many: PreparedMany,
    start: UnitValue | None,
    end: UnitValue,
    plans: Sequence[PlanChoice] | None,
    empty: bool,
    open_state: OpenState | None,
    output: str,
) -> tuple[Any, dict[str, DataFrame]]:
    """_render_many's text (or texts) and the DataFrames its relations stand for."""
    plans = plans or input_plans(many, start, end, reads_nothing=empty)
    _log.info("inc_join_many plan: %s", plans_text(many, plans))
    window: dict[str, Any] = {"start": start, "end": end, "empty": empty, "time_uom": many.time_uom.value}
    dataframes = {"a": many.df_a} | {f"b{i}": item.prepared.df_b for i, item in enumerate(many.inputs)}
    if open_state is not None:
        rows = open_state.rows
        window["open_state"] = {"kind": open_state.kind,
                                "relation": None if rows is None else statement.relation("state")}  # fmt: skip
        if rows is not None:
            dataframes["state"] = rows
    arguments_ = (
        statement.relation("a"),
        [{"name": name} for name in many.df_a.columns],
        many_items(many),
        window,
        many.output_select,
        many.include_waiting,
        [choice_of(plan) for plan in plans],
        output,
    )
    if output == "texts":
        return render("_render_many", *arguments_), dataframes
    return statement.rendered("_render_many", *arguments_), dataframes


def many_items(many: PreparedMany) -> list[dict[str, Any]]:
    """Each input as _many_input gives it to the macros."""
    return [
        {
            "name": item.spec.name,
            "suffix": item.suffix,
            "relation": statement.relation(f"b{i}"),
            "params": arguments.params_of(item.prepared.params),
            "inputs": arguments.inputs_of(item.prepared),
            "plan": item.prepared.plan,
        }
        for i, item in enumerate(many.inputs)
    ]


def many_watermark(many: PreparedMany, start: UnitValue | None) -> UnitValue | None:
    """min over A and every input of its latest arrival (None when any has none from ``start`` on); one Spark
    job."""
    first = many.inputs[0].prepared.inputs
    sides = [(many.df_a, first.inc_col[0], first.arrival_types[0])]
    for item in many.inputs:
        inputs = item.prepared.inputs
        sides.append((item.prepared.df_b, inputs.inc_col[1], inputs.arrival_types[1]))
    return availability_watermark(sides, many.time_uom, start)


def inc_join_many(
    a: DataFrame,
    inputs: Sequence[Mapping[str, Any] | ManyInput],
    *,
    output_window_start=None,
    output_window_end=None,
    time_uom: str = "day",
    include_waiting: bool = False,
    output_select=None,
) -> DataFrame:
    """A enriched from several inputs: one row per A row, placed when every input has settled (spec §12).

    Each input is a dict (or ManyInput) with ``df``, ``name``, ``join_cols``, ``inc_col``, ``look_back_time``,
    ``max_waiting_time`` and ``partner`` (``first``, the default, or ``last``, with ``partner_order_by``) or
    ``aggregate`` (with ``null_fill``), and optionally ``join_cond`` and ``suffix``. ``include_waiting`` adds the
    rows not settled by the end, provisional (code 5 for each open input). All arguments are checked before any
    data is read."""
    many = prepare_many(a, inputs, time_uom, output_select, include_waiting)
    unit = many.time_uom
    zone = a.sparkSession.conf.get("spark.sql.session.timeZone") or "UTC"
    start = parse_bound(output_window_start, "output_window_start", unit, zone)
    end = parse_bound(output_window_end, "output_window_end", unit, zone)
    if end is None:
        end = many_watermark(many, start)
    if end is None or (start is not None and start > end):
        # no unit to finalise: the same columns, no rows
        any_end = start or end or parse_bound("1970-01-01", "output_window_end", unit, zone)
        assert any_end is not None
        return render_many(many, None, any_end, empty=True)
    return render_many(many, start, end)
