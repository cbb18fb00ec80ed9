"""Which columns the output has, under which names, in which order (spec §5): pure name logic, no Spark."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DERIVED_COLUMNS = ("DiffArrivalTime", "WaitingTime", "JoinType", "JoinTypeName")
GROUP_TOKENS = ("join_cols", "inc_col", "df_a_cols", "df_b_cols", "inc_col_a", "inc_col_b")
AGGREGATE_TOKEN = "aggregates"
#: Tokens that name B's columns: with aggregate, B reaches the output only through the aggregates (spec §11).
B_TOKENS = ("df_b_cols", "inc_col_b")


@dataclass(frozen=True)
class OutputColumn:
    """One output column: ``name`` in the output, taken from ``source``.

    ``source`` is ``key`` (coalesce of both sides' key), ``arrival`` (the output arrival), ``a`` or ``b`` (an
    input column, ``input_name`` on that side), ``aggregate`` (one of the ``aggregate`` argument's columns) or
    ``derived`` (``DiffArrivalTime``, ``WaitingTime``, ``JoinType``, ``JoinTypeName``)."""

    name: str
    source: str
    input_name: str


@dataclass(frozen=True)
class ColumnPlan:
    keys: tuple[OutputColumn, ...]
    arrival: OutputColumn
    a_columns: tuple[OutputColumn, ...]
    b_columns: tuple[OutputColumn, ...]
    inc_col_a: OutputColumn
    inc_col_b: OutputColumn | None  #: None with aggregate: B's columns are not output
    selected: tuple[OutputColumn, ...]
    aggregates: tuple[OutputColumn, ...] = ()
    #: per aggregate, the SQL an A row without partner gets: its null_fill literal, else its value over no rows
    aggregate_fills: tuple[str, ...] = ()


def _fold(name: str, case_sensitive: bool) -> str:
    return name if case_sensitive else name.lower()


def plan_columns(
    *,
    keys: Sequence[tuple[str, str]],
    inc_col: tuple[str, str],
    a_names: Sequence[str],
    b_names: Sequence[str],
    output_select: Sequence[str],
    suffixes: tuple[str, str],
    case_sensitive: bool = False,
    aggregates: Sequence[str] = (),
) -> ColumnPlan:
    """Name every output column and resolve ``output_select``.

    ``keys`` and ``inc_col`` hold each column's spelling in (A, B). The keys appear once, under A's spelling;
    each side's other columns keep their order; a name present on both sides, and each side's arrival column,
    gets that side's suffix. With ``aggregates`` (spec §11) B's columns are not output."""
    fold = lambda name: _fold(name, case_sensitive)  # noqa: E731
    key_a = {fold(a) for a, _ in keys}
    key_b = {fold(b) for _, b in keys}
    a_rest = [n for n in a_names if fold(n) not in key_a]
    b_rest = [n for n in b_names if fold(n) not in key_b]
    if aggregates:
        b_rest = [n for n in b_rest if n == inc_col[1]]
    _refuse_derived_names((("df_a", a_rest), ("df_b", b_rest)), fold)
    shared = {fold(n) for n in a_rest} & {fold(n) for n in b_rest}

    def side_column(name: str, side: str) -> OutputColumn:
        suffix, arrival = (suffixes[0], inc_col[0]) if side == "a" else (suffixes[1], inc_col[1])
        # each side's own arrival keeps its suffix even when the sides name it differently: the output arrival
        # takes A's name
        suffixed = fold(name) in shared or fold(name) == fold(arrival)
        return OutputColumn(name + suffix if suffixed else name, side, name)

    plan_keys = tuple(OutputColumn(a, "key", a) for a, _ in keys)
    arrival = OutputColumn(inc_col[0], "arrival", inc_col[0])
    a_columns = tuple(side_column(n, "a") for n in a_rest)
    b_columns = () if aggregates else tuple(side_column(n, "b") for n in b_rest)
    aggregate_columns = tuple(OutputColumn(name, "aggregate", name) for name in aggregates)
    derived = tuple(OutputColumn(name, "derived", name) for name in DERIVED_COLUMNS)
    everything = plan_keys + (arrival,) + a_columns + b_columns + aggregate_columns + derived
    _refuse_duplicate_names(everything, fold, suffixes)

    inc_col_a = next(c for c in a_columns if c.input_name == inc_col[0])
    inc_col_b = None if aggregates else next(c for c in b_columns if c.input_name == inc_col[1])
    groups: dict[str, tuple[OutputColumn, ...]] = {
        "join_cols": plan_keys,
        "inc_col": (arrival,),
        "df_a_cols": a_columns,
        "inc_col_a": (inc_col_a,),
    }
    if inc_col_b is None:
        groups[AGGREGATE_TOKEN] = aggregate_columns
    else:
        groups.update({"df_b_cols": b_columns, "inc_col_b": (inc_col_b,)})
    selected = _select(output_select, groups, everything, fold, aggregates)
    return ColumnPlan(
        plan_keys, arrival, a_columns, b_columns, inc_col_a, inc_col_b, tuple(selected), aggregate_columns
    )


def _refuse_derived_names(sides: Sequence[tuple[str, Sequence[str]]], fold) -> None:
    """An input column may not take the name of a derived output column."""
    derived = {fold(d) for d in DERIVED_COLUMNS}
    for side, names in sides:
        for name in names:
            if fold(name) in derived:
                raise ValueError(
                    f"inc_join: {side} column {name!r} clashes with the derived output column of the same name; "
                    "rename it before joining (e.g. the JoinType of an earlier inc_join in a chain)."
                )


def _select(
    output_select: Sequence[str],
    groups: dict[str, tuple[OutputColumn, ...]],
    everything: tuple[OutputColumn, ...],
    fold,
    aggregates: Sequence[str],
) -> list[OutputColumn]:
    """The columns ``output_select`` names, token by token (a group token or an output column), each once."""
    by_name = {fold(c.name): c for c in everything}
    selected: list[OutputColumn] = []
    for token in output_select:
        if token.lower() in groups:
            selected.extend(groups[token.lower()])
        elif aggregates and token.lower() in B_TOKENS:
            raise ValueError(
                f"inc_join: output_select token {token!r} is not available with aggregate: B's columns reach "
                f"the output only through the aggregates ({', '.join(map(repr, aggregates))})."
            )
        elif fold(token) in by_name:
            selected.append(by_name[fold(token)])
        else:
            tokens = [g for g in GROUP_TOKENS if g in groups] + [g for g in groups if g not in GROUP_TOKENS]
            raise ValueError(
                f"inc_join: output_select token {token!r} is neither a token "
                f"({', '.join(tokens + list(DERIVED_COLUMNS))}) "
                f"nor an output column ({', '.join(c.name for c in everything[: -len(DERIVED_COLUMNS)])})."
            )
    seen: dict[str, OutputColumn] = {}
    for column in selected:
        if fold(column.name) in seen:
            raise ValueError(f"inc_join: output_select selects column {column.name!r} twice; list it once.")
        seen[fold(column.name)] = column
    return selected


def _refuse_duplicate_names(columns: Sequence[OutputColumn], fold, suffixes: tuple[str, str]) -> None:
    seen: dict[str, OutputColumn] = {}
    for column in columns:
        other = seen.get(fold(column.name))
        if other is not None:
            raise ValueError(
                f"inc_join: output column {column.name!r} would exist twice ({_describe_column(other)} and "
                f"{_describe_column(column)}); rename one input column or pass other suffixes (now {suffixes!r})."
            )
        seen[fold(column.name)] = column


def _describe_column(column: OutputColumn) -> str:
    if column.source in ("a", "b"):
        return f"df_{column.source} column {column.input_name!r}"
    if column.source == "key":
        return f"join key {column.input_name!r}"
    if column.source == "arrival":
        return f"the output arrival inc_col {column.input_name!r}"
    if column.source == "aggregate":
        return f"the aggregate {column.name!r}"
    return f"the derived column {column.name!r}"
