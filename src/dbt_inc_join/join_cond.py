"""join_cond (spec §12): an extra SQL condition partners must also meet, written over both sides' columns with
the side aliases ``a.`` and ``b.`` (e.g. ``abs(a.Amount - b.Amount) < 0.01``).

The join itself runs over internal column names, so each ``a.<column>`` becomes ``_ac<i>`` and each
``b.<column>`` ``_bc<i>``, and each side's slice carries those columns. Spark then analyses the rewritten
condition over both sides' schemas (no data is read): a condition that is not boolean, or that Spark cannot
resolve, is refused with one message naming join_cond. SQL twin: macros/internal/_join_cond.sql, same rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pyspark.sql import DataFrame

from .predicates import quote
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
    """The columns a side's slice carries for join_cond."""
    prefix = SIDES[side][1]
    return [f"{quote(c)} AS {prefix}{i}" for i, c in enumerate(columns)]


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


# Splitting the condition (spec §12, "What join_cond costs"). The split runs on the rewritten text (internal names
# only) and is conservative: it splits only on an AND at the top level (outside parentheses, string literals and
# CASE ... END, and not the AND of BETWEEN ... AND), and not at all when the text has an OR or a leading NOT at the
# top level (OR binds looser than AND), a comment, a quoted name or a semicolon. A conjunct is A-only (B-only)
# when it reads only A's (B's) columns and every other word in it is a literal, a keyword or a deterministic
# function of PURE_WORDS; anything else (rand(), an unqualified name, a subquery) stays a pair conjunct.

#: the words a one-sided conjunct may use besides its side's columns and literals: keywords, type names and
#: deterministic functions (evaluated once per row instead of once per pair, they give the same answer)
PURE_WORDS = frozenset(
    [
        "and",
        "or",
        "not",
        "is",
        "null",
        "true",
        "false",
        "in",
        "like",
        "ilike",
        "rlike",
        "between",
        "case",
        "when",
        "then",
        "else",
        "end",
        "cast",
        "as",
        "distinct",
        "from",
        "interval",
        "abs",
        "coalesce",
        "nvl",
        "ifnull",
        "nullif",
        "if",
        "lower",
        "upper",
        "trim",
        "ltrim",
        "rtrim",
        "length",
        "substr",
        "substring",
        "concat",
        "round",
        "floor",
        "ceil",
        "ceiling",
        "greatest",
        "least",
        "sign",
        "sqrt",
        "year",
        "month",
        "day",
        "date_add",
        "date_sub",
        "datediff",
        "to_date",
        "int",
        "integer",
        "bigint",
        "smallint",
        "tinyint",
        "double",
        "float",
        "decimal",
        "string",
        "date",
        "timestamp",
        "boolean",
    ]
)
#: a word, one parenthesis, or a run of other symbols
TOKEN = re.compile(r"\w+|[()]|[^\w\s()]+")
INTERNAL_COLUMN = re.compile(r"_([ab])c(\d+)", re.IGNORECASE)
UNSPLITTABLE = ("`", "--", "/*", ";")


@dataclass(frozen=True)
class ConditionParts:
    """join_cond split by what its conjuncts read (each the AND of its conjuncts, in the order written, or None)."""

    a_only: str | None  #: reads only A's columns: a filter on A's rows as the pairing sees them
    b_only: str | None  #: reads only B's columns
    pair: str | None  #: reads both, or could not be proven one-sided


def _code_tokens(sql: str) -> list[tuple[int, int, str]]:
    """(start, end, lower-case token) of the code outside string literals."""
    tokens, position = [], 0
    for piece, code in _code_pieces(sql):
        if code:
            tokens += [(position + t.start(), position + t.end(), t.group(0).lower()) for t in TOKEN.finditer(piece)]
        position += len(piece)
    return tokens


def split_conjuncts(sql: str) -> list[str]:
    """The top-level AND conjuncts of a condition, or the whole condition when a split is not provably safe."""
    if any(marker in piece for piece, code in _code_pieces(sql) if code for marker in UNSPLITTABLE):
        return [sql]
    depth, between, cuts, leading_not = 0, False, [], []
    previous = "and"  #: the last top-level token: a conjunct starts after an AND
    for start, end, token in _code_tokens(sql):
        at_top = depth == 0
        if token in ("(", "case"):
            depth += 1
        elif token in (")", "end"):
            depth -= 1
        elif at_top and token == "or":
            return [sql]
        elif at_top and token == "between":
            between = True
        elif at_top and token == "and" and between:
            between = False
        elif at_top and token == "and":
            cuts.append((start, end))
        elif at_top and token == "not" and previous == "and":
            leading_not.append(len(cuts))
        if depth < 0:
            return [sql]
        previous = token if at_top else previous
    # NOT x AND y: whether NOT takes y too depends on precedence; only a last conjunct may start with NOT
    if depth != 0 or any(segment < len(cuts) for segment in leading_not):
        return [sql]
    bounds = [0] + [i for cut in cuts for i in cut] + [len(sql)]
    conjuncts = [sql[bounds[i] : bounds[i + 1]].strip() for i in range(0, len(bounds), 2)]
    return conjuncts if all(conjuncts) else [sql]


def conjunct_side(conjunct: str) -> str:
    """'a' or 'b' when the conjunct provably reads only that side's columns, else 'pair'."""
    sides = set()
    for _, _, token in _code_tokens(conjunct):
        column = INTERNAL_COLUMN.fullmatch(token)
        if column is not None:
            sides.add(column.group(1))
        elif (token[0].isalpha() or token[0] == "_") and token not in PURE_WORDS:
            return "pair"
    return sides.pop() if len(sides) == 1 else "pair"


def condition_parts(sql: str) -> ConditionParts:
    """The condition as the AND of its A-only, B-only and pair conjuncts (their AND is the condition)."""
    found: dict[str, list[str]] = {"a": [], "b": [], "pair": []}
    for conjunct in split_conjuncts(sql):
        found[conjunct_side(conjunct)].append(conjunct)
    joined = {part: " AND ".join(f"({c})" for c in items) if items else None for part, items in found.items()}
    return ConditionParts(joined["a"], joined["b"], joined["pair"])


def a_column_indexes(sql: str | None) -> list[int]:
    """The i of each ``_ac<i>`` a text reads, ascending."""
    if sql is None:
        return []
    columns = [INTERNAL_COLUMN.fullmatch(token) for _, _, token in _code_tokens(sql)]
    return sorted({int(c.group(2)) for c in columns if c is not None and c.group(1) == "a"})


def renamed_a_columns(sql: str, names: list[str]) -> str:
    """The text with each ``_ac<i>`` as ``names[i]`` (string literals untouched)."""

    def rename(match: re.Match) -> str:
        return names[int(match.group(2))] if match.group(1).lower() == "a" else match.group(0)

    pattern = re.compile(r"\b" + INTERNAL_COLUMN.pattern + r"\b", re.IGNORECASE)
    return "".join(pattern.sub(rename, piece) if code else piece for piece, code in _code_pieces(sql))
