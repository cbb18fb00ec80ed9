"""The core's checked call, in the shapes the macros take: the dicts that ``_check_parameters``,
``_resolve_inputs``, ``_plan_columns`` and ``_resolve_window`` give a dbt model. The macros then render the
statement of a run from them, for the core exactly as for dbt (sql_text/statement.py)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..sql_text.fragments import raw_type
from .columns import ColumnPlan, OutputColumn
from .prepared import PreparedJoin
from .validation import JoinParameters
from .window import OutputWindow


def params_of(params: JoinParameters) -> dict[str, Any]:
    """``_check_parameters``' dict: every field, the unit by name, both arrival columns and the row mode."""
    shaped = {field.name: getattr(params, field.name) for field in fields(params)}
    shaped.update(
        time_uom=params.time_uom.value,
        join_cols_b=params.join_cols_b or params.join_cols,
        inc_cols=params.inc_cols,
        mode=params.mode,
    )
    return shaped


def inputs_of(prepared: PreparedJoin) -> dict[str, Any]:
    """``_resolve_inputs``' dict, with ``_resolve_join_cond``'s condition."""
    inputs, condition = prepared.inputs, prepared.condition
    return {
        "keys": inputs.keys,
        "inc_col": inputs.inc_col,
        "raw_types": tuple(raw_type(t) for t in inputs.arrival_types),
        "a_names": prepared.df_a.columns,
        "b_names": prepared.df_b.columns,
        "partner_order_by": inputs.partner_order_by,
        "orderable_b_names": prepared.orderable_b_columns,
        "condition": None if condition is None else vars(condition),
    }


def plan_of(plan: ColumnPlan) -> dict[str, Any]:
    """``_plan_columns``' dict: each column with its index in its group, as the macros number them."""
    groups: dict[str, tuple[OutputColumn, ...]] = {
        "key": plan.keys,
        "a": plan.a_columns,
        "b": plan.b_columns,
        "aggregate": plan.aggregates,
    }

    def shaped(column: OutputColumn) -> dict[str, Any]:
        group = groups.get(column.source, ())
        index = group.index(column) if column in group else 0
        return {"name": column.name, "source": column.source, "index": index, "input_name": column.input_name}

    return {
        "keys": [shaped(c) for c in plan.keys],
        "a_columns": [shaped(c) for c in plan.a_columns],
        "b_columns": [shaped(c) for c in plan.b_columns],
        "aggregates": [shaped(c) for c in plan.aggregates],
        "selected": [shaped(c) for c in plan.selected],
        "aggregate_fills": plan.aggregate_fills,
    }


def window_of(window: OutputWindow, time_uom: str) -> dict[str, Any]:
    """``_resolve_window``'s dict as far as the statement reads it; no end (no data yet) is an empty window."""
    return {
        "start": window.start,
        "end": window.end,
        "empty": window.end is None or window.is_empty,
        "time_uom": time_uom,
    }
