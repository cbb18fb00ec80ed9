"""The dbt Python-model variant: resolve the run's output window from dbt's state, then call the core.

Python models cannot call macros or ``var()``. inc_join's Python writer (macros/python_models) hands them
what the SQL macro reads from Jinja as ``dbt.inc_join_context``: the materialization, the microbatch batch and
the ``inc_join_output_window_start/end`` vars. The rules are those of ``dbt_inc_join.output_window``.
"""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

from pyspark.sql import DataFrame

from ...io.input_log import log_restated
from ...io.redo import begin_redo
from ...plan.fingerprints import Side
from ...plan.ledger import check_max_window_units
from ...plan.plan_choice import choose_join_plan
from ...plan.restated import (
    Check,
    Mode,
    check_redo_config,
    check_restated,
    join_reaches,
    on_restated_input_mode,
    redo_of,
    restated_record,
    with_horizon,
)
from ...plan.restated import restated_horizon as restated_horizon_of
from ...plan.window import parse_bound, read_ranges, run_log_line
from ...sql_text import render
from ...sql_text.time_units import TimeUnit, UnitValue, shift_value
from ..join import prepare_join
from ..many import PreparedMany, input_plans, plans_text, prepare_many, render_many
from ..render import render_join
from .resolve_window import DbtWindow, dbt_context, resolve_dbt_window


def check_model_config(context: dict[str, Any], include_waiting: bool, time_uom: str, arrival_column: str) -> None:
    """The model-level checks of spec §7: the macro _check_model_settings, which SQL models run too. A Python
    model reaches the package's writer, and so its MERGE, only through the dispatch entry."""
    keys = ("materialized", "incremental_strategy", "batch_size", "partition_by", "file_format")
    settings = {key: context.get(key) for key in keys}
    render(
        "_check_model_settings",
        {
            **settings,
            "include_waiting": include_waiting,
            "time_uom": time_uom,
            "arrival_column": arrival_column,
            "records_runs": bool(context.get("records_runs")),
            "merge_replaces_window": True,
        },
        "True",
    )


def set_commit_metadata(dbt: Any, spark: Any, context: dict[str, Any]) -> None:
    """The run's id and window in the commit that writes its rows, for a model that records its runs on Delta or
    Iceberg (the macros _commit_metadata_key and _commit_metadata; record_run resets it after the write)."""
    key = render("_commit_metadata_key", context.get("file_format"))
    if key is None or not context.get("records_runs") or context.get("materialized") not in ("incremental", "table"):
        return
    spark.conf.set(key, render("_commit_metadata", dbt.inc_join_run, str(dbt.this), context.get("unique_id")))


def _max_window_units(context: dict[str, Any], value: int | None) -> int | None:
    """The cap of spec §13: argument > var inc_join_max_window_units; None: no cap (the macro _max_window_units)."""
    if value is None:
        return check_max_window_units(context.get("max_window_units"), "inc_join_max_window_units")
    return check_max_window_units(value)


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
    start_snapshot: str | None = None,
    input_versions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """What the run decided, for the post-hook record_run (the macro _run_record builds the same dict); restated:
    what the run found of its inputs (restated.restated_record); plan: the text of its plan (spec §15);
    start_snapshot: the Iceberg snapshot the run started from (the macro _ledger_state's); input_versions: the
    versions of its Delta and Iceberg inputs (input_versions, spec §17)."""
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
        "start_snapshot": start_snapshot,
        "input_versions": input_versions or [],
    }


def _relation_key(name: str) -> str:
    """A table's name without quotes, in lower case (the macro _relation_key)."""
    return name.replace("`", "").lower()


def input_versions(context: dict[str, Any], frames: dict[str, Any]) -> list[dict[str, Any]]:
    """The versions of the inputs that are Delta or Iceberg tables, as the macro _input_versions gives them for SQL
    models (spec §17): an input DataFrame that dbt.ref or dbt.source loaded (the writer's list ``loaded``) gets the
    version the writer read of that table before the model's code ran (``table_versions``); another DataFrame, or
    a table in another format, has none."""
    versions = context.get("table_versions") or {}
    found = []
    for name, frame in frames.items():
        table = next((loaded for df, loaded in context.get("loaded") or [] if df is frame), None)
        version = versions.get(_relation_key(table)) if table is not None else None
        if version is not None:
            found.append(
                {"input": name, **{key: version.get(key) for key in ("relation", "format", "version", "location")}}
            )
    return found


def input_relations(context: dict[str, Any], frames: dict[str, Any], sides: list[Side]) -> dict[str, Any]:
    """The tables the inputs were loaded from (the writer's list ``loaded``: dbt.ref, dbt.source), as the run
    records them for the test restated_inputs (the macro _recorded_inputs); another DataFrame has none."""
    arrival = {side.name: side.arrival for side in sides}
    loaded = [
        {"name": name, "relation": str(table), "arrival": arrival[name]}
        for name, frame in frames.items()
        for table in [next((t for df, t in context.get("loaded") or [] if df is frame), None)]
        if table is not None
    ]
    return dict(render("_recorded_inputs", loaded))


def _check_restated(
    dbt: Any,
    resolved: DbtWindow,
    sides: list[Side],
    reach: dict[str, int],
    mode: Mode,
    unit: TimeUnit,
    horizon: int,
    versions: list[dict[str, Any]],
) -> Check:
    """restated.check_restated with what dbt knows of this run (the macro _check_restated reads the same); versions:
    its Delta and Iceberg inputs' (input_versions), whose logs it reads since the last committed run's (spec §17)."""
    context = dbt_context(dbt)
    state = context.get("ledger") or {}
    previous, outstanding = state.get("fingerprints"), state.get("outstanding")
    recorded = json.loads(state["input_versions"]) if state.get("input_versions") else []
    spark = sides[0].df.sparkSession

    def logged(compared: Any, queried: Any) -> Any:
        return log_restated(spark, str(dbt.this), unit, sides, versions, recorded, compared, queried)

    def records() -> list[Any]:
        # the ledger's records, read only when the property does not reach (the macro _ledger_records)
        query = state.get("records_query")
        rows = sides[0].df.sparkSession.sql(query).collect() if query else []
        return [json.loads(row[0]) for row in rows]

    if context.get("records_runs") and dbt.is_incremental:
        # an upstream inc_join table with restated units its model did not redo: this table is stale where they reach
        for line in render("_upstream_outstanding_lines", str(dbt.this), context.get("upstream_outstanding") or {},
                           unit.value):  # fmt: skip
            _warn(line)
    return check_restated(
        resolved.window, sides, reach, mode, records_runs=bool(context.get("records_runs")),
        incremental=bool(dbt.is_incremental), previous=json.loads(previous) if previous else None,
        redone=context.get("upstream_redos") or {},
        target=str(dbt.this), model_name=str(dbt.this).split(".")[-1], unit=unit, log=_warn, read=resolved.read,
        horizon=horizon, outstanding=json.loads(outstanding) if outstanding else [], records=records, logged=logged,
    )  # fmt: skip


def _restated_record(
    dbt: Any, check: Check, resolved: DbtWindow, sides: list[Side], reach: dict[str, int], inc_col: str, unit: TimeUnit,
    frames: dict[str, Any],
) -> dict[str, Any]:  # fmt: skip
    """restated.restated_record with the inputs' tables (input_relations), and the start of a redo
    (restated.begin_redo) before the model's rows are written."""
    context = dbt_context(dbt)
    records_runs = bool(context.get("records_runs"))
    recorded = restated_record(
        check, resolved.window, sides, reach, records_runs=records_runs, unit=unit,
        incremental=bool(dbt.is_incremental), read_units_of=resolved.read,
    )  # fmt: skip
    if recorded.get("fingerprints"):
        recorded["fingerprints"]["inputs"] = input_relations(context, frames, sides)
    if resolved.redo_from is not None and dbt.is_incremental and not resolved.window.is_empty:
        begin_redo(sides[0].df.sparkSession, str(dbt.this), inc_col, resolved.redo_from, context.get("file_format"))
    return recorded


def _warn(message: str) -> None:
    """A warning in dbt's log, like the SQL macro's ``exceptions.warn``: with --warn-error it stops the run before
    the model writes."""
    try:
        from dbt.events.types import JinjaLogWarning
        from dbt_common.events.functions import warn_or_error
    except ImportError:  # outside dbt
        print(message)
        return
    warn_or_error(JinjaLogWarning(msg=message))


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
    restated_horizon: int = 0,
) -> DataFrame:
    """The body of a dbt Python model: ``return inc_join_model(dbt, dbt.ref("a"), dbt.ref("b"), join_cols=...)``.

    Same arguments and rows as the SQL macro ``dbt_inc_join.inc_join``; the window comes from dbt's state."""
    prepared = prepare_join(
        a,
        b,
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
    context = dbt_context(dbt)
    check_model_config(
        context, prepared.params.include_waiting, prepared.params.time_uom.value, prepared.params.inc_col
    )
    cap = _max_window_units(context, max_window_units)
    unit = prepared.params.time_uom
    mode = on_restated_input_mode(on_restated_input, context.get("on_restated_input"))
    horizon = restated_horizon_of(restated_horizon, context.get("restated_horizon"))
    check_redo_config(context, mode)
    # inputs rewritten after a committed run read them (spec §14): checked in the run's own read ranges, which
    # the window's query fingerprints
    columns, types = prepared.inputs.inc_col, prepared.inputs.arrival_types
    sides = [Side("a", prepared.df_a, columns[0], types[0]), Side("b", prepared.df_b, columns[1], types[1])]
    reach = with_horizon(join_reaches(prepared.params), horizon)
    resolved = resolve_dbt_window(
        dbt, prepared, output_window_start, output_window_end, cap, checked=sides, reach=reach
    )
    frames = {"a": a, "b": b}
    versions = input_versions(context, frames)
    check = _check_restated(dbt, resolved, sides, reach, mode, unit, horizon, versions)
    redo = redo_of(check, resolved.window, unit)
    if redo is not None:
        resolved = resolve_dbt_window(dbt, prepared, output_window_start, output_window_end, cap, redo=redo)
    recorded = _restated_record(dbt, check, resolved, sides, reach, prepared.inputs.inc_col[0], unit, frames)
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
    arrival = params.inc_col  # as the macro records it: the argument
    start_snapshot = (context.get("ledger") or {}).get("start_snapshot")
    dbt.inc_join_run = run_record(
        resolved, arrival, params.time_uom.value, invocation_id, recorded, choice.text, start_snapshot, versions
    )
    set_commit_metadata(dbt, prepared.df_a.sparkSession, context)
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
    restated_horizon: int = 0,
) -> DataFrame:
    """The body of a dbt Python model of several inputs: ``return inc_join_many_model(dbt, dbt.ref("a"), [dict(df=
    dbt.ref("b1"), name="b1", ...), ...])``. Same arguments and rows as the SQL macro ``dbt_inc_join.inc_join_many``;
    the window comes from dbt's state, the watermark from A and every input."""
    many = prepare_many(a, inputs, time_uom, output_select, include_waiting)
    context = dbt_context(dbt)
    check_model_config(context, many.include_waiting, many.time_uom.value, many.inc_col_a)
    cap = _max_window_units(context, max_window_units)
    first, *others = [item.prepared for item in many.inputs]
    names = ["a", *(item.spec.name for item in many.inputs)]
    unit = many.time_uom
    mode = on_restated_input_mode(on_restated_input, context.get("on_restated_input"))
    horizon = restated_horizon_of(restated_horizon, context.get("restated_horizon"))
    check_redo_config(context, mode)
    # inputs rewritten after a committed run read them (spec §14): checked in the run's own read ranges, which
    # the window's query fingerprints
    sides = [Side("a", first.df_a, first.inputs.inc_col[0], first.inputs.arrival_types[0])]
    sides += [
        Side(item.spec.name, item.prepared.df_b, item.prepared.inputs.inc_col[1], item.prepared.inputs.arrival_types[1])
        for item in many.inputs
    ]
    reach_a = max(item.prepared.params.max_waiting_time for item in many.inputs)
    reach = {"a": reach_a, **{i.spec.name: reach_a + i.prepared.params.look_back_time for i in many.inputs}}
    reach = with_horizon(reach, horizon)
    resolved = resolve_dbt_window(
        dbt, first, output_window_start, output_window_end, cap, others, names, checked=sides, reach=reach
    )
    frames = {"a": a, **{item.spec.name: item.spec.df for item in many.inputs}}
    versions = input_versions(context, frames)
    check = _check_restated(dbt, resolved, sides, reach, mode, unit, horizon, versions)
    redo = redo_of(check, resolved.window, unit)
    if redo is not None:
        resolved = resolve_dbt_window(dbt, first, output_window_start, output_window_end, cap, others, names, redo)
    recorded = _restated_record(dbt, check, resolved, sides, reach, many.inc_col_a, unit, frames)
    window = resolved.window
    any_end = window.end or window.start or parse_bound("1970-01-01", "output_window_end", unit)
    assert any_end is not None
    start, end = (None, any_end) if window.is_empty else (window.start, window.end)
    assert end is not None
    plans = input_plans(many, start, end, reads_nothing=window.is_empty)
    text = plans_text(many, plans)
    _log(f"{many_run_log_line(str(dbt.this), resolved, many)}; plan: {text}")
    invocation_id = context.get("invocation_id")
    start_snapshot = (context.get("ledger") or {}).get("start_snapshot")
    dbt.inc_join_run = run_record(
        resolved, many.inc_col_a, unit.value, invocation_id, recorded, text, start_snapshot, versions
    )
    set_commit_metadata(dbt, a.sparkSession, context)
    return render_many(many, start, end, plans, empty=window.is_empty)


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
