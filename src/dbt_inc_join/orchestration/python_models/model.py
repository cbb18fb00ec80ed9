"""The dbt Python-model variant: the steps a SQL model takes (the output window, the restated check and redo, the
run's log line and record) run by the same macros, through the model's port (port.py), then the core's statement.

Python models cannot call macros or ``var()``. inc_join's Python writer (macros/io/_py_writer.sql) hands them
what the SQL macro reads from Jinja as ``dbt.inc_join_context``: the materialization, the microbatch batch, the
vars, and what dbt read of the ledger and the upstream tables before the model's code ran.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from pyspark.sql import DataFrame

from ...plan.arguments import inputs_of, params_of
from ...plan.ledger import check_max_window_units
from ...plan.plan_choice import choose_join_plan
from ...plan.restated import join_reaches, on_restated_input_mode, with_horizon
from ...plan.restated import restated_horizon as restated_horizon_of
from ...plan.validation import check_argument
from ...plan.window import OutputWindow, parse_bound
from ...sql_text import render
from ..join import prepare_join
from ..many import input_plans, many_items, plans_text, prepare_many, render_many, render_many_with_state
from ..render import OpenState, render_join, render_with_state
from .port import dbt_context, model_port, resolve_dbt_window


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


def _relation_key(name: str) -> str:
    """A table's name without quotes, in lower case (the macro _relation_key)."""
    return name.replace("`", "").lower()


def _loaded(context: dict[str, Any], frame: Any) -> Any:
    """The table a DataFrame was loaded from by dbt.ref or dbt.source (the writer's list ``loaded``), else None."""
    return next((table for df, table in context.get("loaded") or [] if df is frame), None)


def _unkept(tables: dict[str, Any]) -> str | None:
    """Why a Python model keeps no open state whatever its join (spec §18), or None: its fingerprint names the
    inputs' tables. (The model's settings are the macro _open_state_model_keeps' to judge.)"""
    if None in tables.values():
        return "an input is not a table as dbt.ref or dbt.source loaded it"
    return None


def input_versions(context: dict[str, Any], frames: dict[str, Any]) -> list[dict[str, Any]]:
    """The versions of the inputs that are Delta or Iceberg tables, as the macro _input_versions gives them for SQL
    models (spec §17): an input DataFrame that dbt.ref or dbt.source loaded gets the version the writer read of
    that table before the model's code ran (``table_versions``); another DataFrame, or a table in another format,
    has none."""
    versions = context.get("table_versions") or {}
    found = []
    for name, frame in frames.items():
        table = _loaded(context, frame)
        version = versions.get(_relation_key(table)) if table is not None else None
        if version is not None:
            found.append(
                {"input": name, **{key: version.get(key) for key in ("relation", "format", "version", "location")}}
            )
    return found


def _restated_run(dbt: Any, port: Any, window: dict[str, Any], frames: dict[str, Any], reaches: dict[str, int],
                  mode: str, horizon: int, inc_col: str, resolve: Any) -> tuple[dict[str, Any], Any]:  # fmt: skip
    """The steps of a run with restated inputs (spec §14), as a SQL model takes them (macros/io/_restated_run.sql,
    _redo.sql): the check, the redo (``resolve(redo)``: the window again, from the redo's start), what the run
    records. The inputs are the tables dbt.ref or dbt.source loaded them from, by their versions (input_versions)
    and in the record (_recorded_inputs)."""
    context = dbt_context(dbt)
    # the Iceberg snapshot the run started from, as the writer read it with the ledger's state
    known = {"input_versions": input_versions(context, frames),
             "start_snapshot": (context.get("ledger") or {}).get("start_snapshot")}  # fmt: skip
    window = {**window, **known}
    sides = window["fingerprint_sides"]
    check = port("_check_restated", window, sides, reaches, mode, horizon)
    redo = port("_redo_of", check, window)
    if redo is not None:
        # the redo's window counts no rows: the new rows of A the run's own window counted decide its open state
        window = {**resolve(redo), **known, "a_rows": window.get("a_rows")}
    recorded = port("_restated_record", check, window, sides, reaches, inc_col)
    if recorded.get("fingerprints"):
        loaded = [{"name": side["name"], "relation": str(table), "arrival": side["arrival"]} for side in sides
                  for table in [_loaded(context, frames[side["name"]])] if table is not None]  # fmt: skip
        recorded["fingerprints"]["inputs"] = dict(render("_recorded_inputs", loaded))
    return window, recorded


def _run_record(port: Any, window: dict[str, Any], arrival: str, recorded: dict[str, Any], plan: str) -> Any:
    """What the run decided, for the post-hook record_run (the macro _run_record, as SQL models record it)."""
    return port("_run_record", window, arrival, "python", recorded, plan)


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
    open_state: bool | str = "auto",
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
    keeps_state = check_argument("open_state", open_state)
    context = dbt_context(dbt)
    check_model_config(
        context, prepared.params.include_waiting, prepared.params.time_uom.value, prepared.params.inc_col
    )
    cap = _max_window_units(context, max_window_units)
    params = prepared.params
    mode = on_restated_input_mode(on_restated_input, context.get("on_restated_input"))
    horizon = restated_horizon_of(restated_horizon, context.get("restated_horizon"))
    port = model_port(dbt, {"a": prepared.df_a, "b": prepared.df_b}, _warn, _log)
    port("_check_redo_config", mode)
    # inputs rewritten after a committed run read them (spec §14): checked in the run's own read ranges, which
    # the window's query fingerprints
    reaches = with_horizon(join_reaches(params), horizon)

    # the open state (spec §18) is kept of inputs that are tables, which its fingerprint names
    tables = {side: _loaded(context, frame) for side, frame in (("a", a), ("b", b))}
    unkept = _unkept(tables)
    state_table = port("_open_state_table_counted", keeps_state) if keeps_state and not unkept else None
    count_a = not unkept and port("_open_state_counts_a", keeps_state)

    def resolve(redo: Any = None) -> dict[str, Any]:
        return resolve_dbt_window(port, prepared, output_window_start, output_window_end, cap, redo=redo,
                                  reaches=None if redo else reaches, state_table=None if redo else state_table,
                                  count_a=count_a and not redo)  # fmt: skip

    found, recorded = _restated_run(dbt, port, resolve(), {"a": a, "b": b}, reaches, mode, horizon,
                                    prepared.inputs.inc_col[0], resolve)  # fmt: skip
    window = OutputWindow(found["start"], found["end"])
    state = port("_open_state_use", tables["a"], tables["b"], params_of(params), inputs_of(prepared), found,
                 recorded, keeps_state, unkept)  # fmt: skip
    if state is not None:
        found["open_state"] = {"kind": state["kind"], "relation": state["relation"]}
    choice = choose_join_plan(prepared, window, found.get("open_state"))
    found["rows_read"] = port("_join_rows_read", params_of(params), found, recorded.get("fingerprints"),
                              (state or {}).get("rows"))  # fmt: skip
    port("_log_run", params_of(params), found, {"text": choice.text})
    # the writer hands it to the post-hook record_run (spec §13); the arrival as the macro records it: the argument
    dbt.inc_join_run = _run_record(port, found, params.inc_col, recorded, choice.text)
    set_commit_metadata(dbt, prepared.df_a.sparkSession, context)
    if state is None:
        return render_join(prepared, window, choice)
    return _with_open_state(dbt, port, prepared.df_a.sparkSession, state,
                            lambda given: render_with_state(prepared, window, given, choice))  # fmt: skip


def _with_open_state(dbt: Any, port: Any, spark: Any, state: dict[str, Any],
                     frames_of: Callable[[OpenState], dict[str, DataFrame]]) -> DataFrame:  # fmt: skip
    """The run's rows, of a run that keeps the open state (spec §18), as a SQL model's hooks take its steps
    (macros/io/_open_state.sql): the state table made ready and this run's marker left on it; the rows both come
    from cached (``frames_of``: the run's 'kept', 'rows' and 'state' given the state it reads); then
    ``dbt.inc_join_state``, which the writer calls after the output's rows are written, writes the state's. The
    post-hook tags it after the output's commit."""
    facts = {**port("_open_state_run_facts", state), "python": True}
    port("_open_state_prepare", state["target"], facts)
    read = None if state["relation"] is None else spark.sql("select * from " + state["relation"])
    frames = frames_of(OpenState(state["kind"], read))
    kept = frames["kept"].persist()

    def write_state() -> None:
        view = "_inc_join_state_" + uuid.uuid4().hex
        frames["state"].createOrReplaceTempView(view)
        try:
            port("_open_state_write", state["target"], {**facts, "sql": "select * from " + view})
        finally:
            spark.catalog.dropTempView(view)
            kept.unpersist()

    dbt.inc_join_state = write_state
    return frames["rows"]


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
    open_state: bool | str = "auto",
) -> DataFrame:
    """The body of a dbt Python model of several inputs: ``return inc_join_many_model(dbt, dbt.ref("a"), [dict(df=
    dbt.ref("b1"), name="b1", ...), ...])``. Same arguments and rows as the SQL macro ``dbt_inc_join.inc_join_many``;
    the window comes from dbt's state, the watermark from A and every input."""
    many = prepare_many(a, inputs, time_uom, output_select, include_waiting)
    keeps_state = check_argument("open_state", open_state)
    context = dbt_context(dbt)
    check_model_config(context, many.include_waiting, many.time_uom.value, many.inc_col_a)
    cap = _max_window_units(context, max_window_units)
    first, *others = [item.prepared for item in many.inputs]
    names = ["a", *(item.spec.name for item in many.inputs)]
    unit = many.time_uom
    mode = on_restated_input_mode(on_restated_input, context.get("on_restated_input"))
    horizon = restated_horizon_of(restated_horizon, context.get("restated_horizon"))
    bound = {"a": first.df_a, "b": first.df_b, **{f"b{i}": other.df_b for i, other in enumerate(others, start=1)}}
    port = model_port(dbt, bound, _warn, _log)
    port("_check_redo_config", mode)
    # inputs rewritten after a committed run read them (spec §14): checked in the run's own read ranges, which
    # the window's query fingerprints
    reaches = with_horizon(render("_many_reaches", many_items(many)), horizon)

    # the open state (spec §18) is kept of inputs that are tables, which its fingerprint names
    frames = {"a": a, **{item.spec.name: item.spec.df for item in many.inputs}}
    tables = {name: _loaded(context, frame) for name, frame in frames.items()}
    unkept = _unkept(tables)
    state_table = port("_open_state_table_counted", keeps_state) if keeps_state and not unkept else None
    count_a = not unkept and port("_open_state_counts_a", keeps_state)

    def resolve(redo: Any = None) -> dict[str, Any]:
        return resolve_dbt_window(port, first, output_window_start, output_window_end, cap, others, names, redo,
                                  None if redo else reaches, state_table=None if redo else state_table,
                                  count_a=count_a and not redo)  # fmt: skip

    found, recorded = _restated_run(dbt, port, resolve(), frames, reaches, mode, horizon, many.inc_col_a, resolve)
    window = OutputWindow(found["start"], found["end"])
    any_end = window.end or window.start or parse_bound("1970-01-01", "output_window_end", unit)
    assert any_end is not None
    start, end = (None, any_end) if window.is_empty else (window.start, window.end)
    assert end is not None
    # each input as the macros take it, under its table's name (the state's fingerprint names them)
    items = [dict(item, relation=tables[item["name"]]) for item in many_items(many)]
    state = port("_many_open_state_use", tables["a"], items, found, recorded, keeps_state, many.include_waiting,
                 unkept)  # fmt: skip
    if state is not None:
        found["open_state"] = {"kind": state["kind"], "relation": state["relation"]}
    # each input's plan from the ranges the run reads (A from the start when it reads the state)
    read = None if window.is_empty else port("_many_read_ranges", found, items)
    plans = input_plans(many, start, end, reads_nothing=window.is_empty, a_lower=read["a"][0] if read else None)
    text = plans_text(many, plans)
    found["rows_read"] = port("_many_rows_read", found, items, recorded.get("fingerprints"),
                              (state or {}).get("rows"))  # fmt: skip
    port("_log_many_run", found, items, text)
    dbt.inc_join_run = _run_record(port, found, many.inc_col_a, recorded, text)
    set_commit_metadata(dbt, a.sparkSession, context)
    if state is None:
        return render_many(many, start, end, plans, empty=window.is_empty)
    return _with_open_state(dbt, port, a.sparkSession, state,
                            lambda given: render_many_with_state(many, start, end, given, plans))  # fmt: skip
