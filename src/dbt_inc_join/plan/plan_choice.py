"""Which plan pairs the rows of one run (docs/spec.md §15): the plain key join, or the grouped plan of spec §11
(A's distinct (keys, arrival) in time buckets). The SQL twin is macros/plan/_plan_choice.sql.

The rows never depend on the choice, only the cost does. many_rows_per_key=True always groups; late
matches, the compatibility mode and many_rows_per_key=False never do. With 'auto' (the default) a run whose
B read range spans at most a few join windows (a daily run) takes the plain join: the grouped plan would
compare each of A's distinct (keys, arrival) with the B rows of the one or two buckets its window touches,
about as many as such a range holds, and add work of its own. A longer run of one row per A groups; a longer
run of partner = all measures what the plain join would compare: one query counts, for the first rows of A's
range before B's last join window, the B rows of that window with the same key. Scaled to B's read range, from
a few B rows per A row on (a dense key, or keys that come back day after day) the grouped plan wins. The query
is small (a few short Spark jobs); the plan is decided before the join is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pyspark.sql import DataFrame

from ..sql_text import render
from ..sql_text.macros import port
from ..sql_text.statement import relation, run
from ..sql_text.time_units import TimeUnit
from .arguments import inputs_of, window_of
from .prepared import PreparedJoin
from .validation import JoinParameters, params_of
from .window import OutputWindow


@dataclass(frozen=True)
class PlanChoice:
    """The plan of a run and why: the text of the run's log line and of the ledger's ``plan`` column."""

    grouped: bool
    reason: str
    #: the plain plan may pair B with A's rows as they are: A's sample showed (nearly) unique keys, so a pick
    #: (first, last) needs no distinct (keys, arrival) of A first; an aggregate always takes it (spec §15)
    pairs_a_rows: bool = False

    @property
    def text(self) -> str:
        return f"{'grouped' if self.grouped else 'plain'} ({self.reason})"


def _plan(found: dict[str, Any] | None) -> PlanChoice | None:
    """A macro's plan ({'grouped', 'reason', 'pairs_a_rows', 'text'}, or none) as a PlanChoice."""
    return None if found is None else PlanChoice(found["grouped"], found["reason"], found["pairs_a_rows"])


def choice_of(choice: PlanChoice) -> dict[str, Any]:
    """``_plan_choice``'s dict."""
    return {
        "grouped": choice.grouped,
        "reason": choice.reason,
        "text": choice.text,
        "pairs_a_rows": choice.pairs_a_rows,
    }


def named_plan(grouped: bool, reason: str) -> PlanChoice:
    """A plan given with its reason (the macro ``_plan_choice``), e.g. the audit's plain plan."""
    chosen = _plan(render("_plan_choice", grouped, reason))
    assert chosen is not None
    return chosen


def fixed_plan(params: JoinParameters, reads_nothing: bool) -> PlanChoice | None:
    """The plan when the read ranges need not be known, or None (many_rows_per_key='auto': range_plan, then
    the samples or, for one row per A, the grouped plan decide); the macro ``_fixed_plan``."""
    return _plan(render("_fixed_plan", params_of(params), reads_nothing))


def forced_plan(params: JoinParameters, reads_nothing: bool) -> PlanChoice | None:
    """The plan many_rows_per_key sets, or the plain one for a run that reads nothing; None: 'auto' decides (also
    for each input of inc_join_many, whose one row per A may take either plan); the macro ``_forced_plan``."""
    return _plan(render("_forced_plan", params_of(params), reads_nothing))


def plan_of(found: dict[str, Any]) -> PlanChoice:
    """A macro's plan of a run (it always has one) as a PlanChoice."""
    chosen = _plan(found)
    assert chosen is not None, "a run always has a plan"
    return chosen


def choose_join_plan(
    prepared: PreparedJoin, window: OutputWindow, open_state: Mapping[str, Any] | None = None
) -> PlanChoice:
    """The plan of a run over ``window``: the macro ``_choose_join_plan`` (fixed, range, one row per A, or the
    pairs of one query over A's sample and B's last join window), its query run by Spark over the DataFrames.
    open_state: the state the run reads ({'kind', 'relation'}, spec §18), whose read ranges the choice takes."""
    frames = {"a": prepared.df_a, "b": prepared.df_b}
    return plan_of(
        port(lambda text: run(text, frames))(
            "_choose_join_plan",
            relation("a"),
            relation("b"),
            params_of(prepared.params),
            inputs_of(prepared),
            {**window_of(window, prepared.params.time_uom.value), "open_state": open_state},
        )
    )


@dataclass(frozen=True)
class PairsSide:
    """A B side of 'auto''s query: its DataFrame, A's keys and its own, and its last join window (SQL)."""

    df: DataFrame
    a_keys: Sequence[str]
    b_keys: Sequence[str]
    range_sql: str


def pairs_sample(
    df_a: DataFrame, a_range_sql: str, sides: Sequence[PairsSide], shared: bool = False
) -> list[dict[str, Any]]:
    """Each side's counts (``sample_rows``, ``pairs``, with ``shared`` also ``shared``) from A's first rows of
    ``a_range_sql`` and every side's window: the macro ``_pairs_query`` (two small queries) through the port."""
    described = [
        {
            "relation": relation(f"b{index}"),
            "a_keys": list(side.a_keys),
            "b_keys": list(side.b_keys),
            "range_sql": side.range_sql,
        }
        for index, side in enumerate(sides)
    ]
    frames = {"a": df_a} | {f"b{index}": side.df for index, side in enumerate(sides)}
    values = port(lambda text: run(text, frames))("_pairs_query", relation("a"), a_range_sql, described, shared)
    return [dict(render("_pairs_found", values, index)) for index in range(len(sides))]


def pairs_sample_range(reaches: Sequence[dict[str, Any]]) -> list[Any] | None:
    """The sample range of one query for several sides: A's start to the earliest end of the sides' own sample
    ranges, or None when none has one (``_pairs_sample_range``)."""
    found = render("_pairs_sample_range", list(reaches))
    return None if found is None else list(found)


def pairs_plan(found: dict[str, Any] | None, reach: dict[str, Any], unit: TimeUnit) -> PlanChoice:
    """The choice of 'auto' for a long run of partner = all, or an input of inc_join_many, from a side's counts
    (pairs_sample's ``sample_rows``, ``pairs`` and ``shared``; ``_pairs_plan``)."""
    chosen = _plan(render("_pairs_plan", found, reach, unit.value))
    assert chosen is not None, "auto always chooses"
    return chosen
