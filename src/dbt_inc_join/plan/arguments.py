"""The core's checked call, in the shapes the macros take: the dicts that ``_check_parameters``,
``_resolve_inputs``, ``_plan_columns`` and ``_resolve_window`` give a dbt model. The macros then render the
statement of a run from them, for the core exactly as for dbt (sql_text/statement.py)."""

from __future__ import annotations

from typing import Any

from ..sql_text.fragments import raw_type
from .prepared import PreparedJoin
from .validation import params_of
from .window import OutputWindow

__all__ = ["inputs_of", "params_of", "window_of"]


def inputs_of(prepared: PreparedJoin) -> dict[str, Any]:
    """``_resolve_inputs``' dict, with ``_resolve_join_cond``'s condition."""
    inputs = prepared.inputs
    return {
        "keys": inputs.keys,
        "inc_col": inputs.inc_col,
        "raw_types": tuple(raw_type(t) for t in inputs.arrival_types),
        "a_names": prepared.df_a.columns,
        "b_names": prepared.df_b.columns,
        "partner_order_by": inputs.partner_order_by,
        "orderable_b_names": prepared.orderable_b_columns,
        "condition": prepared.condition,
    }


def window_of(window: OutputWindow, time_uom: str) -> dict[str, Any]:
    """``_resolve_window``'s dict as far as the statement reads it; no end (no data yet) is an empty window."""
    return {
        "start": window.start,
        "end": window.end,
        "empty": window.end is None or window.is_empty,
        "time_uom": time_uom,
    }
