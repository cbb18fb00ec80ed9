"""The dbt Python-model variant: resolve the run's output window from dbt's state, then call the core.

Python models cannot call macros or ``var()``. inc_join's Python writer (macros/python_models) hands them
what the SQL macro reads from Jinja as ``dbt.inc_join_context``: the materialization, the microbatch batch and
the ``inc_join_output_window_start/end`` vars. The rules are those of ``dbt_inc_join.output_window``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pyspark.sql import DataFrame
from pyspark.sql.types import DataType

from ..join import prepare_join
from ..ledger import cap_window, check_max_window_units, committed_state, ledger_start
from ..many import PreparedMany, prepare_many, render_many
from ..plan_choice import choose_join_plan
from ..predicates import quote
from ..prepared import PreparedJoin
from ..render import render_join
from ..restated import (
    Check,
    Redo,
    Side,
    begin_redo,
    check_redo_config,
    check_restated,
    join_reaches,
    on_restated_input_mode,
    redo_of,
    redo_start,
    restated_record,
    unit_label,
)
from ..time_units import TimeUnit, UnitValue, shift_value
from ..validation import join_arguments
from ..watermark import (
    earliest_arrival,
    earliest_of,
    latest_arrivals,
    named_watermark_text,
    watermark_of,
    watermark_text,
)
from ..window import OutputWindow, parse_bound, read_ranges, run_log_line

UNIT_ORDER = ["minute", "hour", "day", "month", "year"]


@dataclass(frozen=True)
class DbtWindow:
    """The window of one dbt run and what decided each bound (for the run's log line and the run ledger)."""

    window: OutputWindow
    start_reason: str
    end_reason: str
    watermark: UnitValue | None = None
    a_max: UnitValue | None = None
    b_max: UnitValue | None = None
    units_behind: int = 0
    redo_from: UnitValue | None = None


def dbt_context(dbt: Any) -> dict[str, Any]:
    """What inc_join's Python writer injected into the model's ``dbt`` object."""
    context = getattr(dbt, "inc_join_context", None)
    if context is None:
        raise ValueError(
            "inc_join: this Python model was not written by inc_join's writer, so its window cannot be resolved. "
            "Add to dbt_project.yml: dispatch: "
            "[{macro_namespace: dbt, search_order: [<your project>, dbt_inc_join, dbt]}]; "
            "if the model reaches inc_join_model through a module of its own, also set "
            "dbt.config(meta={'inc_join_writer': True}) in it."
        )
    return context


def check_model_config(context: dict[str, Any], include_waiting: bool, time_uom: str) -> None:
    """The model-level checks of spec §7, as in the SQL macro."""
    if include_waiting and context.get("materialized") == "incremental":
        raise ValueError(
            "inc_join: include_waiting=True in an incremental model would store a_waiting rows, which are "
            "provisional (a later run emits the same A row again as matched or timed out). Use include_waiting "
            "only in a view or table model that shows what is currently waiting; see the README, 'Currently waiting'."
        )
    batch_size = str(context.get("batch_size") or "").lower()
    if batch_size in UNIT_ORDER and UNIT_ORDER.index(batch_size) < UNIT_ORDER.index(time_uom):
        raise ValueError(
            f"inc_join: batch_size='{batch_size}' is finer than time_uom='{time_uom}'; a batch must cover whole "
            f"units: use batch_size '{time_uom}' or coarser, or a finer time_uom."
        )


def _latest_output_arrival(dbt: Any, prepared: PreparedJoin, since: UnitValue | None = None) -> UnitValue | None:
    """max(inc_col) in the model's table, from `since` on when given (the macro _latest_output_arrival)."""
    spark = prepared.df_a.sparkSession
    column = quote(prepared.inputs.inc_col[0])
    table = spark.table(str(dbt.this))
    if since is not None:
        since_text = since.strftime("%Y-%m-%d %H:%M:%S")
        # unix_seconds keeps the filter out of the metastore's partition filter; Spark prunes partitions itself
        table = table.where(f"unix_seconds(CAST({column} AS TIMESTAMP)) >= unix_seconds(TIMESTAMP'{since_text}')")
    row = table.selectExpr(f"date_format(max({column}), 'yyyy-MM-dd HH:mm:ss')").first()
    assert row is not None, "a global aggregate has one row"
    text = row[0]
    return None if text is None else parse_bound(text, "this", prepared.params.time_uom)


def _ledger_state_from_ledger(spark: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The state read from the ledger itself (the macro _ledger_state_from_ledger; its query comes with the state)."""
    found = {"committed_end": None, "last_start": None, "last_rows": None, "source": "ledger"}
    if spark.catalog.tableExists(state["ledger"]):
        row = spark.sql(state["ledger_query"]).first()
        if row is not None:
            found.update(committed_end=row[0], last_start=row[1], last_rows=row[2])
    return {**state, **found}


# The output window of spec §6, step by step: the same steps, under the same names, as the macros of
# macros/window/_resolve_window.sql and macros/internal/_watermark.sql.


@dataclass(frozen=True)
class ExplicitBounds:
    """The bounds a run is given rather than finds in the data (None where none is given), each with what
    decided it ('' where none is given)."""

    start: UnitValue | None = None
    start_reason: str = ""
    end: UnitValue | None = None
    end_reason: str = ""


@dataclass(frozen=True)
class WindowStart:
    """Where the run starts (None: from the earliest arrival), why, and why the ledger sent it there."""

    start: UnitValue | None
    reason: str
    ledger_reason: str | None = None
    redo_from: UnitValue | None = None


@dataclass(frozen=True)
class SeenWatermark:
    """The availability watermark, how it came about, and the latest arrivals it came from."""

    watermark: UnitValue | None
    text: str
    a_max: UnitValue | None = None
    b_max: UnitValue | None = None


@dataclass(frozen=True)
class WindowEnd:
    """Where the run ends (None: no data yet), why, and how many units a max_window_units cap left behind."""

    end: UnitValue | None
    reason: str
    units_behind: int


Given = tuple[object, str, str]
"""A bound a run may be given: (its value, the parameter that names it, the reason that says what decided it)."""


def _first_given(candidates: Sequence[Given], unit: TimeUnit, zone: str) -> tuple[UnitValue | None, str]:
    """The first bound given, in order, and what decided it; an empty value is none given: (None, '')."""
    for value, parameter, reason in candidates:
        bound = parse_bound(value or None, parameter, unit, zone)
        if bound is not None:
            return bound, reason
    return None, ""


def explicit_bounds(
    context: dict[str, Any], output_window_start: object, output_window_end: object, unit: TimeUnit, zone: str
) -> ExplicitBounds:
    """The bounds a run is given rather than finds in the data: argument > var > microbatch batch, each bound
    (the macro _explicit_bounds)."""
    batch_end = context.get("batch_end")
    last_moment = datetime.fromisoformat(batch_end) - timedelta(microseconds=1) if batch_end else None
    start = _first_given(
        [
            (output_window_start, "output_window_start", "argument output_window_start"),
            (context.get("output_window_start"), "inc_join_output_window_start", "var inc_join_output_window_start"),
            (context.get("batch_start"), "model.batch.event_time_start", "microbatch batch start"),
        ],
        unit,
        zone,
    )
    end = _first_given(
        [
            (output_window_end, "output_window_end", "argument output_window_end"),
            (context.get("output_window_end"), "inc_join_output_window_end", "var inc_join_output_window_end"),
            (last_moment, "model.batch.event_time_end", f"microbatch batch end - 1 {unit.value}"),
        ],
        unit,
        zone,
    )
    return ExplicitBounds(*start, *end)


def arrival_sides(prepared: PreparedJoin, more_inputs: Sequence[PreparedJoin]) -> list[tuple[DataFrame, str, DataType]]:
    """The inputs whose arrivals decide the window, as (DataFrame, arrival column, its type): a, b, then the
    other inputs of inc_join_many (the macro _arrival_sides; prepare_join has checked them)."""
    inc_cols, types = prepared.inputs.inc_col, prepared.inputs.arrival_types
    sides = [(prepared.df_a, inc_cols[0], types[0]), (prepared.df_b, inc_cols[1], types[1])]
    sides += [(other.df_b, other.inputs.inc_col[1], other.inputs.arrival_types[1]) for other in more_inputs]
    return sides


def start_after_this(
    dbt: Any,
    context: dict[str, Any],
    prepared: PreparedJoin,
    explicit: ExplicitBounds,
    unit: TimeUnit,
    redo: Redo | None = None,
) -> WindowStart:
    """The start a run is given, else (incremental) the one after what this holds: after the last committed
    window when the model records its runs (spec §13), else max(inc_col) in this + 1 unit; start None: from the
    earliest arrival (earliest_start). Then a redo that starts earlier (spec §14, restated.redo_start): ``redo``,
    var inc_join_redo_from, a redo that did not finish; redo_from is its start. The macro _start_after_this."""
    found = WindowStart(explicit.start, explicit.start_reason)
    if explicit.start is not None or not dbt.is_incremental:
        return found
    redos = [] if redo is None else [redo]
    redo_var = context.get("redo_from")
    if redo_var:
        redo_start_value = parse_bound(redo_var, "inc_join_redo_from", unit, prepared.session_time_zone)
        assert redo_start_value is not None, "a var that is set parses to a unit"
        redos.append(Redo(redo_start_value, f"var inc_join_redo_from={redo_var}"))
    inc_col = prepared.inputs.inc_col[0]
    ledger_state = context.get("ledger")
    if not ledger_state:
        latest, from_ledger = _latest_output_arrival(dbt, prepared), None
    else:
        committed = committed_state(
            ledger_state,
            lambda since: _latest_output_arrival(dbt, prepared, since),
            lambda: _ledger_state_from_ledger(prepared.df_a.sparkSession, ledger_state),
            unit,
        )
        latest = committed.latest
        from_ledger = ledger_start(committed.state, latest, inc_col, unit)
        pending = committed.state.get("redo_pending")
        if pending:
            reason = f"a redo from {unit_label(pending, unit)} did not finish: doing it again"
            pending_start = parse_bound(pending, "inc_join.redo_from", unit)
            assert pending_start is not None, "the property holds a unit"
            redos.append(Redo(pending_start, reason))
    if from_ledger is not None:
        found = WindowStart(from_ledger.start, from_ledger.reason, from_ledger.reason)
    elif latest is not None:
        found = WindowStart(shift_value(latest, 1, unit), f"max({inc_col}) in {dbt.this} + 1 {unit.value}")
    start, reason, redo_from = redo_start(found.start, found.reason, redos)
    return WindowStart(start, reason, found.ledger_reason, redo_from)


def earliest_start(prepared: PreparedJoin, ledger_reason: str | None, unit: TimeUnit) -> WindowStart:
    """A first run (or full refresh, or a ledger that knows no committed run) starts at the earliest arrival
    (the macro _earliest_start)."""
    earliest = earliest_of(prepared.params.how)
    frames = {"a": (prepared.df_a, prepared.inputs.inc_col[0]), "b": (prepared.df_b, prepared.inputs.inc_col[1])}
    found = [earliest_arrival(*frames[side], unit) for side in earliest.sides]
    candidates = [value for value in found if value is not None]
    if ledger_reason:
        reason = f"{ledger_reason}; so from the {earliest.text}"
    else:
        reason = f"{earliest.text} (first run or full refresh)"
    return WindowStart(min(candidates) if candidates else None, reason)


def declared_watermark(context: dict[str, Any], unit: TimeUnit, zone: str) -> UnitValue | None:
    """The watermark declared by var inc_join_available_until (quiet days leave no rows to show it), or None
    (the macro _declared_watermark)."""
    return parse_bound(context.get("available_until") or None, "inc_join_available_until", unit, zone)


def watermark_from(
    sides: Sequence[tuple[DataFrame, str, DataType]],
    start: UnitValue | None,
    declared: UnitValue | None,
    unit: TimeUnit,
    names: Sequence[str] | None,
) -> SeenWatermark:
    """The declared watermark, else the earliest of the latest arrivals from ``start`` on, A and every input in
    one Spark job; b_max: the earliest of the inputs' latest arrivals. The text says how the watermark came
    about; ``names`` (inc_join_many) names each latest arrival (the macro _watermark_from)."""
    if declared is not None:
        return SeenWatermark(declared, f"{declared} declared by var inc_join_available_until")
    a_max, *b_maxima = latest_arrivals(sides, unit, start)
    b_max = watermark_of(*b_maxima)
    text = watermark_text(a_max, b_max) if names is None else named_watermark_text(names, [a_max, *b_maxima])
    return SeenWatermark(watermark_of(a_max, b_max), text, a_max, b_max)


def window_end(
    explicit: ExplicitBounds,
    start: UnitValue | None,
    seen: SeenWatermark,
    max_window_units: int | None,
    unit: TimeUnit,
) -> WindowEnd:
    """The end: the one given, else the watermark; always capped at the watermark (None while it is None), then
    at max_window_units units from the start (the macro _window_end)."""
    end, reason, watermark = explicit.end, explicit.end_reason, seen.watermark
    if watermark is None:
        gap = "no arrivals yet in a or b" if start is None else f"a or b has no arrival from {start} on yet"
        end, reason = None, f"{gap}: watermark {seen.text}"
    elif end is None:
        end, reason = watermark, f"availability watermark {seen.text}"
    elif end > watermark:
        end, reason = watermark, f"{reason} {end}, capped at the availability watermark {seen.text}"
    capped = cap_window(start, end, max_window_units, unit)
    if capped.reason:
        end, reason = capped.end, f"{reason}; {capped.reason}"
    return WindowEnd(end, reason, capped.units_behind)


def _max_window_units(context: dict[str, Any], value: int | None) -> int | None:
    """The cap of spec §13: argument > var inc_join_max_window_units; None: no cap (the macro _max_window_units)."""
    if value is None:
        return check_max_window_units(context.get("max_window_units"), "inc_join_max_window_units")
    return check_max_window_units(value)


def resolve_dbt_window(
    dbt: Any,
    prepared: PreparedJoin,
    output_window_start: object = None,
    output_window_end: object = None,
    max_window_units: int | None = None,
    more_inputs: Sequence[PreparedJoin] = (),
    names: Sequence[str] | None = None,
    redo: Redo | None = None,
) -> DbtWindow:
    """start: argument > var > microbatch batch start > the last committed window in the run ledger + 1 unit (a
    model that records its runs) or max(inc_col) in this + 1 unit > earliest arrival of A (of A or B for how =
    full). end: argument > var > batch end − 1 unit > watermark; always capped at the availability watermark,
    then at max_window_units units from the start. inc_join_many passes its first input as ``prepared`` and the
    others as ``more_inputs``: b_max is then the earliest of the inputs' latest arrivals; ``names`` (a, then each
    input's name) names each latest arrival in the end's reason and the inputs that hold the watermark back.
    Then a redo that starts earlier (spec §14): ``redo`` (restated units), var inc_join_redo_from, or a redo that
    did not finish. The macro _resolve_window takes the same steps (it reads the earliest arrival in the
    watermark's query)."""
    context = dbt_context(dbt)
    unit, zone = prepared.params.time_uom, prepared.session_time_zone
    explicit = explicit_bounds(context, output_window_start, output_window_end, unit, zone)
    begin = start_after_this(dbt, context, prepared, explicit, unit, redo)
    if begin.start is None:
        begin = earliest_start(prepared, begin.ledger_reason, unit)
    declared = declared_watermark(context, unit, zone)
    seen = watermark_from(arrival_sides(prepared, more_inputs), begin.start, declared, unit, names)
    end = window_end(explicit, begin.start, seen, max_window_units, unit)
    return DbtWindow(
        OutputWindow(begin.start, end.end),
        begin.reason,
        end.reason,
        seen.watermark,
        seen.a_max,
        seen.b_max,
        end.units_behind,
        begin.redo_from,
    )


def _moment_text(value: UnitValue | None) -> str | None:
    if value is None:
        return None
    moment = value if isinstance(value, datetime) else datetime(value.year, value.month, value.day)
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def run_record(
    resolved: DbtWindow,
    arrival_column: str,
    unit: str,
    invocation_id: str | None,
    restated: dict[str, Any] | None = None,
    plan: str | None = None,
) -> dict[str, Any]:
    """What the run decided, for the post-hook record_run (the macro _run_record builds the same dict); restated:
    what the run found of its inputs (restated.restated_record); plan: the text of its plan (spec §15)."""
    window = resolved.window
    return {
        "invocation_id": invocation_id,
        "language": "python",
        "arrival_column": arrival_column,
        "time_uom": unit,
        "window_start": _moment_text(window.start),
        "window_end": _moment_text(window.end),
        "empty": window.is_empty,
        "start_reason": resolved.start_reason,
        "end_reason": resolved.end_reason,
        "watermark": _moment_text(resolved.watermark),
        "a_max": _moment_text(resolved.a_max),
        "b_max": _moment_text(resolved.b_max),
        "units_behind": resolved.units_behind,
        "started_at": round(time.time(), 6),  # timestamp_seconds takes microseconds at most
        "redo_from": _moment_text(resolved.redo_from),
        "restated": (restated or {}).get("restated") or [],
        "fingerprints": (restated or {}).get("fingerprints"),
        "plan": plan,
    }


def _check_restated(
    dbt: Any, resolved: DbtWindow, sides: list[Side], reach: dict[str, int], mode: str, unit: TimeUnit
) -> Check:
    """restated.check_restated with what dbt knows of this run (the macro _check_restated reads the same)."""
    context = dbt_context(dbt)
    previous = (context.get("ledger") or {}).get("fingerprints")
    return check_restated(
        resolved.window, sides, reach, mode, records_runs=bool(context.get("records_runs")),
        incremental=bool(dbt.is_incremental), previous=json.loads(previous) if previous else None,
        redone=context.get("upstream_redos") or {},
        target=str(dbt.this), model_name=str(dbt.this).split(".")[-1], unit=unit, log=_log,
    )  # fmt: skip


def _restated_record(
    dbt: Any, check: Check, resolved: DbtWindow, sides: list[Side], reach: dict[str, int], inc_col: str, unit: TimeUnit
) -> dict[str, Any]:
    """restated.restated_record, and the start of a redo (restated.begin_redo) before the model's rows are written."""
    context = dbt_context(dbt)
    records_runs = bool(context.get("records_runs"))
    recorded = restated_record(check, resolved.window, sides, reach, records_runs=records_runs, unit=unit)
    if resolved.redo_from is not None and dbt.is_incremental and not resolved.window.is_empty:
        begin_redo(sides[0].df.sparkSession, str(dbt.this), inc_col, resolved.redo_from, unit)
    return recorded


def _log(message: str) -> None:
    """One info line in dbt's log, like the SQL macro's ``log(..., info=True)``."""
    try:
        from dbt.events.types import JinjaLogInfo
        from dbt_common.events.functions import fire_event

        fire_event(JinjaLogInfo(msg=message))
    except Exception:  # outside dbt
        print(message)


def inc_join_model(
    dbt: Any,
    a: DataFrame,
    b: DataFrame,
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
    max_window_units: int | None = None,
    join_cond: str | None = None,
    on_restated_input: str = "warn",
) -> DataFrame:
    """The body of a dbt Python model: ``return inc_join_model(dbt, dbt.ref("a"), dbt.ref("b"), join_cols=...)``.

    Same arguments and rows as the SQL macro ``dbt_inc_join.inc_join``; the window comes from dbt's state."""
    prepared = prepare_join(a, b, **join_arguments(locals()))
    context = dbt_context(dbt)
    check_model_config(context, prepared.params.include_waiting, prepared.params.time_uom.value)
    cap = _max_window_units(context, max_window_units)
    unit = prepared.params.time_uom
    mode = on_restated_input_mode(on_restated_input, context.get("on_restated_input"))
    check_redo_config(context, mode, prepared.inputs.inc_col[0])
    resolved = resolve_dbt_window(dbt, prepared, output_window_start, output_window_end, cap)
    # inputs rewritten after a committed run read them (spec §14): checked in the run's own read ranges
    columns, types = prepared.inputs.inc_col, prepared.inputs.arrival_types
    sides = [Side("a", prepared.df_a, columns[0], types[0]), Side("b", prepared.df_b, columns[1], types[1])]
    reach = join_reaches(resolved.window, prepared.params)
    check = _check_restated(dbt, resolved, sides, reach, mode, unit)
    redo = redo_of(check, resolved.window, unit)
    if redo is not None:
        resolved = resolve_dbt_window(dbt, prepared, output_window_start, output_window_end, cap, redo=redo)
    recorded = _restated_record(dbt, check, resolved, sides, reach, prepared.inputs.inc_col[0], unit)
    window, params = resolved.window, prepared.params
    ranges = (
        None
        if window.is_empty
        else read_ranges(
            window,
            how=params.how,
            look_back_time=params.look_back_time,
            max_waiting_time=params.max_waiting_time,
            unit=params.time_uom,
            late_match_time=params.late_match_time,
        )
    )
    choice = choose_join_plan(prepared, window)
    line = run_log_line(str(dbt.this), window, resolved.start_reason, resolved.end_reason, ranges)
    _log(f"{line}; plan: {choice.text}")
    # the writer hands it to the post-hook record_run (spec §13)
    invocation_id = context.get("invocation_id")
    arrival = prepared.inputs.inc_col[0]
    dbt.inc_join_run = run_record(resolved, arrival, params.time_uom.value, invocation_id, recorded, choice.text)
    return render_join(prepared, window, choice)


def inc_join_many_model(
    dbt: Any,
    a: DataFrame,
    inputs,
    *,
    output_window_start=None,
    output_window_end=None,
    time_uom: str = "day",
    include_waiting: bool = False,
    output_select=None,
    max_window_units: int | None = None,
    on_restated_input: str = "warn",
) -> DataFrame:
    """The body of a dbt Python model of several inputs: ``return inc_join_many_model(dbt, dbt.ref("a"), [dict(df=
    dbt.ref("b1"), name="b1", ...), ...])``. Same arguments and rows as the SQL macro ``dbt_inc_join.inc_join_many``;
    the window comes from dbt's state, the watermark from A and every input."""
    many = prepare_many(a, inputs, time_uom, output_select, include_waiting)
    context = dbt_context(dbt)
    check_model_config(context, many.include_waiting, many.time_uom.value)
    cap = _max_window_units(context, max_window_units)
    first, *others = [item.prepared for item in many.inputs]
    names = ["a", *(item.spec.name for item in many.inputs)]
    unit = many.time_uom
    mode = on_restated_input_mode(on_restated_input, context.get("on_restated_input"))
    check_redo_config(context, mode, many.inc_col_a)
    resolved = resolve_dbt_window(dbt, first, output_window_start, output_window_end, cap, others, names)
    # inputs rewritten after a committed run read them (spec §14): checked in the run's own read ranges
    sides = [Side("a", first.df_a, first.inputs.inc_col[0], first.inputs.arrival_types[0])]
    sides += [
        Side(item.spec.name, item.prepared.df_b, item.prepared.inputs.inc_col[1], item.prepared.inputs.arrival_types[1])
        for item in many.inputs
    ]
    reach_a = max(item.prepared.params.max_waiting_time for item in many.inputs)
    reach = {"a": reach_a, **{i.spec.name: reach_a + i.prepared.params.look_back_time for i in many.inputs}}
    check = _check_restated(dbt, resolved, sides, reach, mode, unit)
    redo = redo_of(check, resolved.window, unit)
    if redo is not None:
        resolved = resolve_dbt_window(dbt, first, output_window_start, output_window_end, cap, others, names, redo)
    recorded = _restated_record(dbt, check, resolved, sides, reach, many.inc_col_a, unit)
    window = resolved.window
    _log(many_run_log_line(str(dbt.this), resolved, many))
    dbt.inc_join_run = run_record(resolved, many.inc_col_a, unit.value, context.get("invocation_id"), recorded)
    if window.is_empty:
        any_end = window.end or window.start or parse_bound("1970-01-01", "output_window_end", unit)
        assert any_end is not None
        return render_many(many, None, any_end).where("false")
    assert window.end is not None
    return render_many(many, window.start, window.end)


def many_run_log_line(target: str, resolved: DbtWindow, many: PreparedMany) -> str:
    """The run's line (the macro _log_many_run writes the same text): a's range, then each input's by name."""
    window, unit = resolved.window, many.time_uom
    if window.is_empty:
        line = run_log_line(target, window, resolved.start_reason, resolved.end_reason, None)
        return line.replace("inc_join ", "inc_join_many ", 1)
    reach = max(item.prepared.params.max_waiting_time for item in many.inputs)
    a_lower = None if window.start is None else shift_value(window.start, -reach, unit)
    assert window.end is not None, "a window that is not empty has an end"
    ranges = ((a_lower, window.end), (a_lower, window.end))
    line = run_log_line(target, window, resolved.start_reason, resolved.end_reason, ranges).split(", b ")[0]
    reads = []
    for item in many.inputs:
        lower = None if a_lower is None else shift_value(a_lower, -item.prepared.params.look_back_time, unit)
        reads.append(f"{item.spec.name} {lower or 'beginning'}..{window.end}")
    return (line + ", " + ", ".join(reads)).replace("inc_join ", "inc_join_many ", 1)
