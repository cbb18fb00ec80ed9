"""Which columns the output has, under which names, in which order (spec §5): pure name logic, no Spark."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

DERIVED_COLUMNS = ("DiffArrivalTime", "WaitingTime", "JoinType", "JoinTypeName")
GROUP_TOKENS = ("join_cols", "inc_col", "df_a_cols", "df_b_cols", "inc_col_a", "inc_col_b")
AGGREGATE_TOKEN = "aggregates"
#: Tokens that name B's columns: with aggregate, B reaches the output only through the aggregates (spec §11).
B_TOKENS = ("df_b_cols", "inc_col_b")


#: where an output column comes from (a typed field, not a free string)
Source = Literal["key", "arrival", "a", "b", "aggregate", "derived"]


@dataclass(frozen=True)
class OutputColumn:
    """One output column: ``name`` in the output, taken from ``source``.

    ``source`` is ``key`` (coalesce of both sides' key), ``arrival`` (the output arrival), ``a`` or ``b`` (an
    input column, ``input_name`` on that side), ``aggregate`` (one of the ``aggregate`` argument's columns) or
    ``derived`` (``DiffArrivalTime``, ``WaitingTime``, ``JoinType``, ``JoinTypeName``)."""

    name: str
    source: Source
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
    each side's other columns keep their order. With ``aggregates`` (spec §11) B's columns are not output.
    Names follow spec §5: the join's own columns (keys, output arrival, aggregates, derived columns) keep their
    names; the input columns are named by ``_name_input_columns``, so no two output columns share a name."""
    fold = lambda name: _fold(name, case_sensitive)  # noqa: E731
    key_a = {fold(a) for a, _ in keys}
    key_b = {fold(b) for _, b in keys}
    a_rest = [n for n in a_names if fold(n) not in key_a]
    b_rest = [n for n in b_names if fold(n) not in key_b]
    if aggregates:
        b_rest = [n for n in b_rest if n == inc_col[1]]

    plan_keys = tuple(OutputColumn(a, "key", a) for a, _ in keys)
    arrival = OutputColumn(inc_col[0], "arrival", inc_col[0])
    aggregate_columns = tuple(OutputColumn(name, "aggregate", name) for name in aggregates)
    derived = tuple(OutputColumn(name, "derived", name) for name in DERIVED_COLUMNS)
    taken = _refuse_duplicate_own_names(plan_keys + (arrival,) + aggregate_columns + derived, fold)
    sides: list[tuple[Source, Sequence[str], str, str]] = [("a", a_rest, suffixes[0], inc_col[0])]
    if not aggregates:
        sides.append(("b", b_rest, suffixes[1], inc_col[1]))
    shared = {fold(n) for n in a_rest} & {fold(n) for n in b_rest}
    named = _name_input_columns(sides, shared, taken, fold, suffixes)
    a_columns = tuple(named["a"])
    b_columns = tuple(named.get("b", ()))
    everything = plan_keys + (arrival,) + a_columns + b_columns + aggregate_columns + derived

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


def _refuse_duplicate_own_names(columns: Sequence[OutputColumn], fold) -> dict[str, OutputColumn]:
    """The join's own columns (keys, output arrival, aggregates, derived columns) by folded name; they never give
    way, so two of them under one name is an error of the argument that named them."""
    taken: dict[str, OutputColumn] = {}
    for column in columns:
        other = taken.get(fold(column.name))
        if other is not None:
            advice = (
                "give the aggregate another name"
                if "aggregate" in (other.source, column.source)
                else "rename the column before joining"
            )
            raise ValueError(
                f"inc_join: output column {column.name!r} would exist twice ({_describe_column(other)} and "
                f"{_describe_column(column)}); {advice}."
            )
        taken[fold(column.name)] = column
    return taken


def _name_input_columns(
    sides: Sequence[tuple[Source, Sequence[str], str, str]],
    shared: set[str],
    taken: dict[str, OutputColumn],
    fold,
    suffixes: tuple[str, str],
) -> dict[str, list[OutputColumn]]:
    """Each side's input columns named (spec §5); ``sides``: (side, names, suffix, the side's arrival column).

    A column asks for its name, with its side's suffix when the name is in ``shared`` (on both sides) or is its
    side's arrival (the output arrival takes A's name); while that name is taken, its side's suffix is appended
    again. Columns ask shortest input name first (A before B, then each side's order, on a tie): a name a suffix
    makes (A's ``RecDate`` as ``RecDate_A``) goes before an input column already called so, which becomes
    ``RecDate_A_A``, and in a chain each suffix is one step up. ``taken`` (the join's own names) grows."""
    asking = sorted((len(name), s, i) for s, (_, names, _, _) in enumerate(sides) for i, name in enumerate(names))
    named: dict[str, dict[int, OutputColumn]] = {side: {} for side, _, _, _ in sides}
    for _, s, i in asking:
        side, names, suffix, arrival = sides[s]
        suffixed = fold(names[i]) in shared or fold(names[i]) == fold(arrival)
        column = OutputColumn(names[i] + suffix if suffixed else names[i], side, names[i])
        while fold(column.name) in taken:
            if not suffix:  # the name cannot change: one of the suffixes is empty
                raise ValueError(
                    f"inc_join: output column {column.name!r} would exist twice "
                    f"({_describe_column(taken[fold(column.name)])} and {_describe_column(column)}); rename one "
                    f"input column or pass other suffixes (now {suffixes!r})."
                )
            column = OutputColumn(column.name + suffix, side, names[i])
        taken[fold(column.name)] = column
        named[side][i] = column
    return {side: [columns[i] for i in range(len(columns))] for side, columns in named.items()}


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
