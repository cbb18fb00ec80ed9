"""The rows of one run of inc_join: the statement the SQL macro renders for a dbt model
(macros/sql_text/_render.sql: slice both inputs, join them once, classify every joined row by the scenarios,
keep the rows placed in the output window), run by Spark over the caller's DataFrames."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from pyspark.sql import DataFrame

from ..plan import arguments
from ..plan.plan_choice import PlanChoice, choice_of, choose_join_plan
from ..plan.prepared import PreparedJoin
from ..plan.window import OutputWindow
from ..sql_text import render, statement

_log = logging.getLogger("dbt_inc_join")


@dataclass(frozen=True)
class OpenState:
    """The open state of a model (spec §18): its kind, and the state as of the window's start - 1 when the run
    reads it."""

    kind: str
    rows: DataFrame | None = None


def open_state_kind(prepared: PreparedJoin) -> tuple[str | None, str | None]:
    """The kind of open state a join of these arguments keeps ('rows' or 'keys'), or None and why not."""
    kind, reason = render("_open_state_kind", arguments.params_of(prepared.params), prepared.condition is not None)
    return kind, reason


def render_join(
    prepared: PreparedJoin,
    window: OutputWindow,
    choice: PlanChoice | None = None,
    open_state: OpenState | None = None,
    output: str = "rows",
) -> DataFrame:
    """The lazy rows of a resolved window; ``choice``: plan_choice.choose_join_plan's (made here when not given:
    with many_rows_per_key='auto' it reads a sample of each input, spec §15). With ``open_state``: ``output``
    'rows', 'state' (the open state as of the window's end) or 'kept' (the relation both come from)."""
    arguments_, frames = _join_arguments(prepared, window, choice, open_state)
    return statement.run(statement.rendered("_render_join", *arguments_, output), frames)


def render_with_state(
    prepared: PreparedJoin, window: OutputWindow, open_state: OpenState, choice: PlanChoice | None = None
) -> dict[str, DataFrame]:
    """The lazy 'kept', 'rows' and 'state' of a run that keeps the open state, from one rendering: cache 'kept'
    and the other two read the inputs once (spec §18)."""
    arguments_, frames = _join_arguments(prepared, window, choice, open_state)
    texts = render("_render_join", *arguments_, "texts")
    return {name: statement.run(texts[name], frames) for name in ("kept", "rows", "state")}


def _join_arguments(
    prepared: PreparedJoin, window: OutputWindow, choice: PlanChoice | None, open_state: OpenState | None
) -> tuple[tuple[Any, ...], dict[str, DataFrame]]:
    """_render_join's arguments but the output, and the DataFrames its relations stand for."""
    choice = choice or choose_join_plan(prepared, window)
    _log.info("inc_join plan: %s", choice.text)
    frames = {"a": prepared.df_a, "b": prepared.df_b}
    window_arg = arguments.window_of(window, prepared.params.time_uom.value)
    if open_state is not None:
        rows = open_state.rows
        window_arg["open_state"] = {
            "kind": open_state.kind,
            "relation": None if rows is None else statement.relation("state"),
        }
        if rows is not None:
            frames["state"] = rows
    return (
        statement.relation("a"),
        statement.relation("b"),
        arguments.params_of(prepared.params),
        arguments.inputs_of(prepared),
        prepared.plan,
        window_arg,
        choice_of(choice),
    ), frames
