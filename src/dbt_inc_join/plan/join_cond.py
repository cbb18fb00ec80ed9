"""join_cond (spec §12): an extra SQL condition partners must also meet, written over both sides' columns with
the side aliases ``a.`` and ``b.`` (e.g. ``abs(a.Amount - b.Amount) < 0.01``).

The join itself runs over internal column names, so each ``a.<column>`` becomes ``_ac<i>`` and each
``b.<column>`` ``_bc<i>``, and each side's slice carries those columns. Spark then analyses the rewritten
condition over both sides' schemas (no data is read): a condition that is not boolean, or that Spark cannot
resolve, is refused with one message naming join_cond. SQL twin: macros/sql_text/_join_cond.sql, same rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pyspark.sql import DataFrame

from ..sql_text import render
from .spark_errors import quiet_spark_errors

#: a qualified name ``x.y``: not part of a longer name or a number, not after a dot (a struct field's field)
QUALIFIED = re.compile(r"(?<![\w.`])([A-Za-z_]\w*)\s*\.\s*(`(?:[^`]|``)+`|[A-Za-z_]\w*)")
#: string literals, which are left as they are
STRING_LITERAL = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
SIDES = {"a": ("df_a", "_ac"), "b": ("df_b", "_bc")}


@dataclass(frozen=True)
class JoinCondition:
    """The condition over the internal names, and the columns of each side it reads (``_ac<i>``: a_columns[i])."""

    text: str  #: as the user wrote it
    sql: str
    a_columns: tuple[str, ...]
    b_columns: tuple[str, ...]


def _code_pieces(text: str) -> list[tuple[str, bool]]:
    """The condition as (piece, is_code): string literals are not code."""
    pieces, position = [], 0
    for literal in STRING_LITERAL.finditer(text):
        pieces.append((text[position : literal.start()], True))
        pieces.append((literal.group(0), False))
        position = literal.end()
    pieces.append((text[position:], True))
    return pieces


def _unquote(name: str) -> str:
    return name[1:-1].replace("``", "`") if name.startswith("`") else name


def rewrite_join_cond(text: str, a_names: list[str], b_names: list[str], case_sensitive: bool = False) -> JoinCondition:
    """Rewrite ``a.<column>`` and ``b.<column>`` to internal names; any other qualifier, a column a side does
    not have, or no column of either side is refused (pure name logic, no Spark)."""
    found: dict[str, list[str]] = {"a": [], "b": []}

    def internal(match: re.Match) -> str:
        alias, column = match.group(1), _unquote(match.group(2))
        side = alias if alias in SIDES else alias.lower() if alias.lower() in SIDES else None
        if side is None:
            raise ValueError(
                f"inc_join: join_cond {text!r} names {match.group(0)!r}: the side alias {alias!r} is unknown; "
                "write a.<column> for A's columns and b.<column> for B's."
            )
        side_name, prefix = SIDES[side]
        names = a_names if side == "a" else b_names
        resolved = find_column_name(names, column, case_sensitive)
        if resolved is None:
            raise ValueError(
                f"inc_join: join_cond {text!r} names {side}.{column}, a column {side_name} does not have; "
                f"{side_name}'s columns are {', '.join(map(repr, names))}."
            )
        if resolved not in found[side]:
            found[side].append(resolved)
        return f"{prefix}{found[side].index(resolved)}"

    rewritten = "".join(QUALIFIED.sub(internal, piece) if code else piece for piece, code in _code_pieces(text))
    if not found["a"] and not found["b"]:
        raise ValueError(
            f"inc_join: join_cond {text!r} names no column of either side; write A's columns as a.<column> and "
            "B's as b.<column>, e.g. 'abs(a.Amount - b.Amount) < 0.01'."
        )
    return JoinCondition(text, rewritten, tuple(found["a"]), tuple(found["b"]))


def find_column_name(names: list[str], name: str, case_sensitive: bool) -> str | None:
    if case_sensitive:
        return name if name in names else None
    return next((n for n in names if n.lower() == name.lower()), None)


def condition_projection(side: str, columns: tuple[str, ...]) -> list[str]:
    """The columns a side's slice carries for join_cond (``_condition_projection``)."""
    return list(render("_condition_projection", side, columns))


def check_join_cond(condition: JoinCondition, df_a: DataFrame, df_b: DataFrame) -> None:
    """Let Spark analyse the condition over both sides' columns (no data is read): it must be boolean."""
    a_side = df_a.where("false").selectExpr(*condition_projection("a", condition.a_columns), "1 AS _a_one")
    b_side = df_b.where("false").selectExpr(*condition_projection("b", condition.b_columns), "1 AS _b_one")
    try:
        with quiet_spark_errors():
            schema = a_side.crossJoin(b_side).selectExpr(f"({condition.sql}) AS _cond").schema
    except Exception as error:  # AnalysisException, ParseException, or their Connect twins
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ValueError(
            f"inc_join: join_cond {condition.text!r} is not a valid Spark SQL condition over a. and b.: "
            f"{_original_names(first_line, condition)}"
        ) from None
    data_type = schema.fields[0].dataType.simpleString()
    if data_type != "boolean":
        raise TypeError(
            f"inc_join: join_cond {condition.text!r} is {data_type.upper()}, not a condition; it must be true or "
            "false for a pair, e.g. 'abs(a.Amount - b.Amount) < 0.01'."
        )


def _original_names(message: str, condition: JoinCondition) -> str:
    """Spark's message with the internal names back as the user wrote them."""
    for side, columns in (("a", condition.a_columns), ("b", condition.b_columns)):
        for i in reversed(range(len(columns))):
            message = message.replace(f"{SIDES[side][1]}{i}", f"{side}.{columns[i]}")
    return message
