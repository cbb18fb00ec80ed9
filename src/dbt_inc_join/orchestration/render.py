"""The rows of one run of inc_join: the statement the SQL macro renders for a dbt model
(macros/sql_text/_render.sql: slice both inputs, join them once, classify every joined row by the scenarios,
keep the rows placed in the output window), run by Spark over the caller's DataFrames."""

from __future__ import annotations

import logging

from pyspark.sql import DataFrame

from ..plan import arguments
from ..plan.plan_choice import PlanChoice, choice_of, choose_join_plan
from ..plan.prepared import PreparedJoin
from ..plan.window import OutputWindow
from ..sql_text import statement

_log = logging.getLogger("dbt_inc_join")


def render_join(prepared: PreparedJoin, window: OutputWindow, choice: PlanChoice | None = None) -> DataFrame:
    """The lazy rows of a resolved window; ``choice``: plan_choice.choose_join_plan's (made here when not given:
    with many_rows_per_key='auto' it reads a sample of each input, spec §15)."""
    choice = choice or choose_join_plan(prepared, window)
    _log.info("inc_join plan: %s", choice.text)
    text = statement.rendered(
        "_render_join",
        statement.relation("a"),
        statement.relation("b"),
        arguments.params_of(prepared.params),
        arguments.inputs_of(prepared),
        prepared.plan,
        arguments.window_of(window, prepared.params.time_uom.value),
        choice_of(choice),
    )
    return statement.run(text, {"a": prepared.df_a, "b": prepared.df_b})
