"""The ``aggregate`` and ``null_fill`` arguments (spec §11): Spark checks each aggregate on B's schema before any
data is read, and a ``null_fill`` value becomes a SQL literal.

Spark itself is the judge of what is an aggregate: each expression is analysed in
``SELECT <expression>, count(1) FROM b WHERE false``, which fails when the expression uses a column outside an
aggregate, names a column B does not have, or calls an unknown function. ``probe_error`` turns Spark's message
into one that names the output column; the SQL macro reads the same Spark message from ``EXPLAIN`` and words it
the same way (macros/internal/_aggregates.sql).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal

from pyspark.sql import DataFrame

from .shared_tables import EMPTY_AGGREGATES
from .spark_errors import quiet_spark_errors
from .validation import JoinParameters, balanced

PROBE_COUNT = "count(1) AS _inc_join_probe"
#: a function's name, an opening parenthesis, and everything up to a closing one at the end
CALL = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*$", re.S)


def probe_select(expression: str) -> list[str]:
    """The select list that makes Spark analyse one aggregate as an aggregate."""
    return [f"{expression} AS _inc_join_value", PROBE_COUNT]


def probe_error(name: str, expression: str, spark_message: str, b_columns: Sequence[str], side: str = "df_b") -> str:
    """The message for an aggregate Spark refused, from the first line of Spark's own message."""
    first_line = spark_message.strip().splitlines()[0] if spark_message.strip() else ""
    start = f"inc_join: aggregate {name!r} = {expression!r}"
    missing = re.search(r"name `([^`]*)` cannot be resolved", first_line)
    if "UNRESOLVED_COLUMN" in first_line and missing:
        return (
            f"{start} names a column {side} does not have: {missing.group(1)!r}; {side}'s columns are "
            f"{', '.join(repr(c) for c in b_columns)}."
        )
    if "MISSING_GROUP_BY" in first_line or "MISSING_AGGREGATION" in first_line:
        return (
            f"{start} is not an aggregate: every B column it uses must be inside an aggregate function, "
            "e.g. sum(Amount), count(*), max_by(Price, Seq)."
        )
    routine = re.search(r"(?:routine|function) `([^`]*)`", first_line)
    if "UNRESOLVED_ROUTINE" in first_line and routine:
        return f"{start} calls a function Spark does not know: {routine.group(1)!r}."
    return f"{start} is not a valid Spark SQL aggregate over {side}: {first_line}"


def check_aggregates(df_b: DataFrame, aggregates: Sequence[tuple[str, str]]) -> None:
    """Let Spark analyse each aggregate over B's schema (no data is read); a refusal names the output column."""
    empty = df_b.where("false")
    for name, expression in aggregates:
        try:
            with quiet_spark_errors():
                empty.selectExpr(*probe_select(expression)).schema  # noqa: B018 (analysis only)
        except Exception as error:  # AnalysisException, ParseException, or their Connect twins
            message = str(error)
            raise ValueError(probe_error(name, expression, message, df_b.columns)) from None


def fill_literal_sql(value: object) -> str:
    """A null_fill value as a SQL literal (validation.py accepts only these types)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, float):
        return f"CAST('{value!r}' AS DOUBLE)"
    if isinstance(value, datetime):
        return f"TIMESTAMP'{value.isoformat(sep=' ')}'"
    if isinstance(value, date):
        return f"DATE'{value.isoformat()}'"
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def single_call(expression: str) -> str | None:
    """The function's name, in lower case, when ``expression`` (an aggregate, balanced as validation.py checked
    it) is one call of it: what lies between the parentheses after the name is balanced, so they close at the
    end; else None (e.g. ``count(x) + count(y)``)."""
    match = CALL.match(expression)
    return match.group(1).lower() if match is not None and balanced(match.group(2)) else None


def empty_value_sql(expression: str) -> str | None:
    """An aggregate's value over no rows as a literal, when it is one call of a function of EMPTY_AGGREGATES
    (count(*), max(x), ...); None: the run computes it over no rows of B."""
    name = single_call(expression)
    return None if name is None else EMPTY_AGGREGATES.get(name)


def aggregate_fills(params: JoinParameters) -> tuple[str, ...]:
    """Per aggregate, the SQL an A row without partner gets: its null_fill literal, else its value over no rows:
    a literal where empty_value_sql knows it, else ``_e<j>`` (render.py: with_empty_aggregates)."""
    fills = dict(params.null_fill)
    return tuple(
        fill_literal_sql(fills[name]) if name in fills else empty_value_sql(expression) or f"_e{j}"
        for j, (name, expression) in enumerate(params.aggregate)
    )
