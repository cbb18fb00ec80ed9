"""The core's port to the checks of spec §7, which are macros (macros/plan/_validation*.sql, _inputs.sql,
_columns.sql, macros/sql_text/_join_cond.sql): each is rendered in Python's spelling (``spelling='python'``:
``True``, tuples, ``df_a``/``df_b``, a wrong value's type), and its failure is raised as the TypeError or
ValueError that shared_tables.CHECK_ERRORS names for the check. What stays here is what only Python has: the
DataFrames' schemas as column lists, Spark's ``spark.sql.caseSensitive``, and Spark's analysis of join_cond.
No data is read.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from pyspark.sql import DataFrame
from pyspark.sql.types import StructType

from ..sql_text import MacroError, render
from ..sql_text.time_units import TimeUnit
from ..tables.shared_tables import ARGUMENTS, CHECK_ERRORS
from .spark_errors import quiet_spark_errors

#: The arguments of one join (shared_tables.ARGUMENTS: joined) and their defaults: what check_parameters takes.
JOIN_ARGUMENTS: dict[str, object] = {row["name"]: row["default"] for row in ARGUMENTS if row["joined"]}
_ERRORS = {"TypeError": TypeError, "ValueError": ValueError}
_CHECKED = re.compile(r"\[(\w+)\] (.*)", re.S)


@dataclass(frozen=True)
class JoinParameters:
    """The arguments of one inc_join call, checked and normalised by ``_check_parameters`` (no DataFrames, no
    bounds)."""

    join_cols: tuple[str, ...]
    inc_col: str
    how: str
    look_back_time: int
    max_waiting_time: int
    time_uom: TimeUnit
    enforce_sliding_join_window: bool
    include_waiting: bool
    output_select: tuple[str, ...]
    suffixes: tuple[str, str]
    partner: str = "all"
    partner_order_by: tuple[str, ...] = ()
    aggregate: tuple[tuple[str, str], ...] = ()  #: (output column, Spark SQL aggregate), in the given order
    null_fill: tuple[tuple[str, object], ...] = ()  #: (aggregate name, literal)
    many_rows_per_key: bool | str = "auto"  #: True, False, or "auto": chosen per run (spec §15, plan_choice.py)
    late_match_time: int = 0  #: spec §10: how long after A's window closes a partner still counts (0: off)
    join_cols_b: tuple[str, ...] = ()  #: B's spelling of each key, when join_cols was a mapping (else A's)
    inc_col_b: str = ""  #: B's arrival column, when inc_col was an (A, B) pair (else A's)
    join_cond: str | None = None  #: spec §12: an extra SQL condition partners must meet, over a. and b.

    @property
    def inc_cols(self) -> tuple[str, str]:
        """The arrival column as (A's name, B's name)."""
        return self.inc_col, self.inc_col_b or self.inc_col

    @property
    def mode(self) -> str:
        """The row mode of spec §11: the partner choice, or "aggregate"."""
        return "aggregate" if self.aggregate else self.partner


def checked(macro: str, *args: Any, **kwargs: Any) -> Any:
    """The value of a check's macro in Python's spelling; its failure as the exception its check names."""
    try:
        return render(macro, *args, spelling="python", **kwargs)
    except MacroError as error:
        found = _CHECKED.fullmatch(str(error))
        if found is None:
            raise
        raise _ERRORS[CHECK_ERRORS[found.group(1)]](found.group(2)) from None


def check_argument(name: str, value: object) -> Any:
    """An argument checked by the rule of its row in shared_tables.ARGUMENTS, normalised."""
    return checked("_check_argument", name, value)


def check_choice(parameter: str, value: object, accepted: tuple[str, ...]) -> str:
    """One of ``accepted``, whatever the case and surrounding blanks; lower-cased."""
    return str(checked("_choice", parameter, value, accepted))


def check_window_length(parameter: str, value: object) -> int:
    """A non-negative whole number of time_uom units."""
    return int(checked("_window_length", parameter, value))


def _frozen(value: Any) -> Any:
    return tuple(_frozen(item) for item in value) if isinstance(value, list) else value


def check_parameters(**given: object) -> JoinParameters:
    """Every argument of one join (those not given at the table's defaults) that does not need the data's schema,
    checked and normalised."""
    unknown = sorted(set(given) - set(JOIN_ARGUMENTS))
    if unknown:
        raise TypeError(f"inc_join: unknown arguments {', '.join(unknown)}; accepted: {', '.join(JOIN_ARGUMENTS)}.")
    found = checked("_check_parameters", given)
    values = {field.name: _frozen(found[field.name]) for field in fields(JoinParameters) if field.name in found}
    return JoinParameters(**{**values, "time_uom": TimeUnit(found["time_uom"]), "inc_col_b": found["inc_cols"][1]})


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


def columns_of(schema: StructType) -> list[dict[str, str]]:
    """A DataFrame's schema as dbt's column list: each column's name and Spark SQL type."""
    return [{"name": field.name, "data_type": field.dataType.simpleString()} for field in schema.fields]


def resolve_inputs(params: JoinParameters, a: StructType, b: StructType, case_sensitive: bool) -> dict[str, Any]:
    """``_resolve_inputs`` over both schemas: the key and arrival columns found and their types checked."""
    return dict(
        checked("_resolve_inputs", params_of(params), columns_of(a), columns_of(b), case_sensitive=case_sensitive)
    )


def plan_columns(params: JoinParameters, inputs: dict[str, Any], case_sensitive: bool) -> dict[str, Any]:
    """``_plan_columns``: every output column named, output_select resolved."""
    return dict(checked("_plan_columns", params_of(params), inputs, case_sensitive=case_sensitive))


def join_condition(text: str, df_a: DataFrame, df_b: DataFrame, case_sensitive: bool) -> dict[str, Any]:
    """join_cond rewritten to the internal names (``_rewrite_join_cond``), then analysed by Spark over both
    sides' columns (no data is read): Spark's refusal, or a type other than boolean, is ``_join_cond_verdict``'s."""
    condition = dict(checked("_rewrite_join_cond", text, df_a.columns, df_b.columns, case_sensitive=case_sensitive))
    a_side, b_side = (
        df.where("false").selectExpr(
            *render("_condition_projection", side, condition[f"{side}_columns"]), f"1 AS _{side}_one"
        )
        for df, side in ((df_a, "a"), (df_b, "b"))
    )
    try:
        with quiet_spark_errors():
            schema = a_side.crossJoin(b_side).selectExpr(f"({condition['sql']}) AS _cond").schema
    except Exception as error:  # AnalysisException, ParseException, or their Connect twins
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        checked("_join_cond_verdict", condition, first_line)
    else:
        checked("_join_cond_verdict", condition, None, schema.fields[0].dataType.simpleString())
    return condition


def known_keywords(entry: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` raising the package's message for a keyword it does not take (the macro
    ``_unknown_argument_message``, as a SQL macro's call says it), before anything runs, instead of Python's."""
    parameters = inspect.signature(func).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return func
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    accepted = [name for name, p in parameters.items() if p.kind in named]

    @functools.wraps(func)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        unknown = [name for name in kwargs if name not in accepted]
        if unknown:
            raise TypeError(render("_unknown_argument_message", entry, unknown[0], accepted, "python"))
        return func(*args, **kwargs)

    return guarded
