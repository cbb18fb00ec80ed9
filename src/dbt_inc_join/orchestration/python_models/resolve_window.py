"""The output window of spec §6 for a dbt run, step by step: the same steps, under the same names, as the macros of
macros/plan/_resolve_window.sql and macros/io/_watermark.sql (``resolve_dbt_window``, which
orchestration/python_models/model.py calls)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pyspark.sql import DataFrame
from pyspark.sql.types import DataType

from ...io.watermark import (
    earliest_arrival,
    earliest_of,
    latest_arrivals,
    named_watermark_text,
    watermark_of,
    watermark_text,
)
from ...plan.fingerprints import ReadUnits, Side, read_units
from ...plan.ledger import committed_state, ledger_start
from ...plan.prepared import PreparedJoin
from ...plan.restated import Redo, latest_units, unit_label
from ...plan.window import OutputWindow, parse_bound
from ...sql_text import render
from ...sql_text.time_units import TimeUnit, UnitValue, shift_value


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
    read: ReadUnits | None = None


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


def _latest_output_arrival(dbt: Any, prepared: PreparedJoin, since: UnitValue | None = None) -> UnitValue | None:
    """max(inc_col) in the model's table, from `since` on when given (the macro _latest_output_arrival's query; the
    comparison as the table's format prunes with, the model's file_format)."""
    table_format = dbt_context(dbt).get("file_format")
    query = render("_latest_output_arrival_sql", str(dbt.this), prepared.inputs.inc_col[0], since, table_format)
    row = prepared.df_a.sparkSession.sql(query).first()
    assert row is not None, "a global aggregate has one row"
    return None if row[0] is None else parse_bound(row[0], "this", prepared.params.time_uom)


def _ledger_state_from_ledger(spark: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The state read from the ledger itself (the macro _ledger_state_from_ledger; its query comes with the state)."""
    found = {"committed_end": None, "last_start": None, "last_rows": None, "source": "ledger"}
    if spark.catalog.tableExists(state["ledger"]):
        row = spark.sql(state["ledger_query"]).first()
        if row is not None:
            found.update(committed_end=row[0], last_start=row[1], last_rows=row[2])
    return {**state, **found}


def _last_commit(spark: Any, state: dict[str, Any]) -> dict[str, Any] | None:
    """The table's newest commit carrying a run's metadata (the macro _last_commit: its query comes with the state,
    and _last_commit_of reads its rows); None for formats without a log."""
    if not state.get("last_commit_query"):
        return None
    found = spark.sql(state["last_commit_query"])
    rows = [list(row) for row in found.collect()]
    return render("_last_commit_of", found.columns, rows, state.get("file_format"), state.get("relation"))


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
    earliest arrival (earliest_start). Then a redo that starts earlier (spec §14, the macro _redo_start): ``redo``,
    var inc_join_redo_from, a redo that did not finish; redo_from is its start. The macro _start_after_this."""
    found = WindowStart(explicit.start, explicit.start_reason)
    if explicit.start is not None or not dbt.is_incremental:
        return found
    redos = [] if redo is None else [{"start": redo.start, "reason": redo.reason}]
    redo_var = context.get("redo_from")
    if redo_var:
        redo_start_value = parse_bound(redo_var, "inc_join_redo_from", unit, prepared.session_time_zone)
        assert redo_start_value is not None, "a var that is set parses to a unit"
        redos.append({"start": redo_start_value, "reason": f"var inc_join_redo_from={redo_var}"})
    inc_col = prepared.params.inc_cols[0]  # as the macro names it: the argument, not the column found
    ledger_state = context.get("ledger")
    if not ledger_state:
        latest, from_ledger = _latest_output_arrival(dbt, prepared), None
    else:
        committed = committed_state(
            ledger_state,
            lambda since: _latest_output_arrival(dbt, prepared, since),
            lambda: _ledger_state_from_ledger(prepared.df_a.sparkSession, ledger_state),
            unit,
            lambda: _last_commit(prepared.df_a.sparkSession, ledger_state),
        )
        latest = committed.latest
        from_ledger = ledger_start(committed.state, latest, inc_col, unit)
        pending = committed.state.get("redo_pending")
        if pending:
            reason = f"a redo from {unit_label(pending, unit)} did not finish: doing it again"
            pending_start = parse_bound(pending, "inc_join.redo_from", unit)
            assert pending_start is not None, "the property holds a unit"
            redos.append({"start": pending_start, "reason": reason})
    if from_ledger is not None:
        found = WindowStart(from_ledger.start, from_ledger.reason, from_ledger.reason)
    elif latest is not None:
        found = WindowStart(shift_value(latest, 1, unit), f"max({inc_col}) in {dbt.this} + 1 {unit.value}")
    redone = render("_redo_start", {"start": found.start, "reason": found.reason, "redo_from": None}, redos)
    return WindowStart(redone["start"], redone["reason"], found.ledger_reason, redone["redo_from"])


def earliest_start(prepared: PreparedJoin, ledger_reason: str | None, unit: TimeUnit) -> WindowStart:
    """A first run (or full refresh, or a ledger that knows no committed run) starts at the earliest arrival
    (the macro _earliest_start)."""
    earliest = earliest_of(prepared.params.how)
    frames = {"a": (prepared.df_a, prepared.inputs.inc_col[0]), "b": (prepared.df_b, prepared.inputs.inc_col[1])}
    found = [earliest_arrival(*frames[side], unit) for side in earliest["sides"]]
    candidates = [value for value in found if value is not None]
    if ledger_reason:
        reason = f"{ledger_reason}; so from the {earliest['text']}"
    else:
        reason = f"{earliest['text']} (first run or full refresh)"
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
    latest: Sequence[UnitValue | None] | None = None,
) -> SeenWatermark:
    """The declared watermark, else the earliest of the latest arrivals from ``start`` on, A and every input in
    one Spark job (``latest``: taken already, by a run that checks its inputs); b_max: the earliest of the
    inputs' latest arrivals. The text says how the watermark came about; ``names`` (inc_join_many) names each
    latest arrival (the macro _watermark_from)."""
    if declared is not None:
        return SeenWatermark(declared, f"{declared} declared by var inc_join_available_until")
    a_max, *b_maxima = latest_arrivals(sides, unit, start) if latest is None else latest
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
    given = {"end": explicit.end, "end_reason": explicit.end_reason}
    found = render("_window_end", given, start, vars(seen), max_window_units, unit.value)
    return WindowEnd(found["end"], found["reason"], found["units_behind"])


def resolve_dbt_window(
    dbt: Any,
    prepared: PreparedJoin,
    output_window_start: object = None,
    output_window_end: object = None,
    max_window_units: int | None = None,
    more_inputs: Sequence[PreparedJoin] = (),
    names: Sequence[str] | None = None,
    redo: Redo | None = None,
    checked: Sequence[Side] = (),
    reach: Mapping[str, int] | None = None,
) -> DbtWindow:
    """start: argument > var > microbatch batch start > the last committed window in the run ledger + 1 unit (a
    model that records its runs) or max(inc_col) in this + 1 unit > earliest arrival of A (of A or B for how =
    full). end: argument > var > batch end − 1 unit > watermark; always capped at the availability watermark,
    then at max_window_units units from the start. inc_join_many passes its first input as ``prepared`` and the
    others as ``more_inputs``: b_max is then the earliest of the inputs' latest arrivals; ``names`` (a, then each
    input's name) names each latest arrival in the end's reason and the inputs that hold the watermark back.
    Then a redo that starts earlier (spec §14): ``redo`` (restated units), var inc_join_redo_from, or a redo that
    did not finish. ``checked`` and ``reach`` (each input as the fingerprints name it, and how far before the
    start it is read): a run that checks its inputs fingerprints them in the watermark's query (``read``). The
    macro _resolve_window takes the same steps (it reads the earliest arrival in the watermark's query)."""
    context = dbt_context(dbt)
    unit, zone = prepared.params.time_uom, prepared.session_time_zone
    explicit = explicit_bounds(context, output_window_start, output_window_end, unit, zone)
    begin = start_after_this(dbt, context, prepared, explicit, unit, redo)
    if begin.start is None:
        begin = earliest_start(prepared, begin.ledger_reason, unit)
    declared = declared_watermark(context, unit, zone)
    read, latest = None, None
    # a run that checks its inputs (spec §14) fingerprints its read ranges in the query that finds the watermark:
    # the check reads nothing more. Not a run given an end or max_window_units: its read ends there, the
    # watermark (which the record and units_behind keep) may lie beyond.
    open_ended = explicit.end is None and max_window_units is None
    if reach and begin.start is not None and declared is None and open_ended and context.get("records_runs"):
        read = read_units(checked, reach, begin.start, unit)
        latest = latest_units(read, [side.name for side in checked], begin.start, unit)
    seen = watermark_from(arrival_sides(prepared, more_inputs), begin.start, declared, unit, names, latest)
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
        read,
    )
