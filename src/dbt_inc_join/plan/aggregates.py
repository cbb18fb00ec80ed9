"""The ``aggregate`` and ``null_fill`` arguments (spec §11): Spark checks each aggregate on B's schema before any
data is read, and a ``null_fill`` value becomes a SQL literal.

Spark itself is the judge of what is an aggregate: each expression is analysed in
``SELECT <expression>, count(1) FROM b WHERE false``, which fails when the expression uses a column outside an
aggregate, names a column B does not have, or calls an unknown function. ``_probe_error``
(macros/sql_text/_aggregates.sql) turns Spark's message into one that names the output column, for the core as
for the SQL macro, which reads the same Spark message from ``EXPLAIN``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyspark.sql import DataFrame

from ..sql_text import render
from .spark_errors import quiet_spark_errors
from .validation import JoinParameters, params_of


def check_aggregates(df_b: DataFrame, aggregates: Sequence[tuple[str, str]]) -> None:
    """Let Spark analyse each aggregate over B's schema (no data is read); a refusal names the output column."""
    empty = df_b.where("false")
    for name, expression in aggregates:
        try:
            with quiet_spark_errors():
                empty.selectExpr(*render("_probe_select", expression)).schema  # noqa: B018 (analysis only)
        except Exception as error:  # AnalysisException, ParseException, or their Connect twins
            message = str(error)
            raise ValueError(
                "inc_join: " + render("_probe_error", name, expression, message, df_b.columns, "df_b")
            ) from None


def aggregate_fills(params: JoinParameters) -> tuple[str, ...]:
    """Per aggregate, the SQL an A row without partner gets: its null_fill literal, else its value over no rows:
    a literal where the macros know it, else ``_e<j>`` (``_aggregate_fills``)."""
    return tuple(render("_aggregate_fills", params_of(params)))
