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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pyspark.sql import DataFrame

from ..sql_text import render
from ..sql_text.fragments import arrival_range_sql
from ..sql_text.statement import relation, rendered, run
from ..sql_text.time_units import TimeUnit, UnitValue
from .prepared import PreparedJoin
from .validation import JoinParameters, params_of
from .window import OutputWindow, ReadRange, read_ranges


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


def range_plan(
    b_lower: UnitValue | None, end: UnitValue, look_back_time: int, max_waiting_time: int, unit: TimeUnit
) -> PlanChoice | None:
    """The plain plan when B's read range ``[b_lower, end]`` spans at most PLAN_CHOICE's range_windows join windows (the
    grouped plan's bucket width), or None: then the samples decide. No data is read (``_range_plan``)."""
    return _plan(render("_range_plan", b_lower, end, look_back_time, max_waiting_time, unit.value))


def choose_join_plan(prepared: PreparedJoin, window: OutputWindow) -> PlanChoice:
    """The plan of a run over ``window``: fixed_plan, range_plan, the grouped plan for one row per A, or
    pairs_plan from one query over A's sample and B's last join window (spec §4's read ranges)."""
    params, inputs = prepared.params, prepared.inputs
    fixed = fixed_plan(params, window.end is None or window.is_empty)
    if fixed is not None:
        return fixed
    unit = params.time_uom
    ranges = read_ranges(
        window,
        how=params.how,
        look_back_time=params.look_back_time,
        max_waiting_time=params.max_waiting_time,
        unit=unit,
    )
    short = range_plan(ranges[1][0], ranges[1][1], params.look_back_time, params.max_waiting_time, unit)
    if short is not None:
        return short
    if params.mode != "all":
        # one row per A (partner first, last, aggregate) reduces B per A's (keys, arrival) either way; over a long
        # range the buckets win, and A is often an earlier step's output, which a sample would compute
        return PlanChoice(True, "one row per A row")
    reach = pairs_ranges(ranges, window.start, ranges[1][1], params.look_back_time, params.max_waiting_time, unit)
    if reach["a"] is None:
        return pairs_plan(None, reach, unit)
    a_range = arrival_range_sql(inputs.inc_col[0], inputs.arrival_types[0], reach["a"][0], reach["a"][1], unit)
    return pairs_plan(pairs_sample(prepared.df_a, a_range, [pairs_side(prepared, reach, unit)])[0], reach, unit)


@dataclass(frozen=True)
class PairsSide:
    """A B side of 'auto''s query: its DataFrame, A's keys and its own, and its last join window (SQL)."""

    df: DataFrame
    a_keys: Sequence[str]
    b_keys: Sequence[str]
    range_sql: str


def pairs_side(prepared: PreparedJoin, reach: dict[str, Any], unit: TimeUnit) -> PairsSide:
    """A join's B as a side of the query: its keys and its last join window (``reach['b']``)."""
    inputs = prepared.inputs
    b_range = arrival_range_sql(inputs.inc_col[1], inputs.arrival_types[1], reach["b"][0], reach["b"][1], unit)
    return PairsSide(prepared.df_b, [a for a, _ in inputs.keys], [b for _, b in inputs.keys], b_range)


def pairs_sample(
    df_a: DataFrame, a_range_sql: str, sides: Sequence[PairsSide], shared: bool = False
) -> list[dict[str, Any]]:
    """Each side's counts (``sample_rows``, ``pairs``, with ``shared`` also ``shared``) from one query over A's
    first rows of ``a_range_sql`` and every side's window (``_pairs_sample_sql``): a few small Spark jobs."""
    described = [
        {
            "relation": relation(f"b{index}"),
            "a_keys": list(side.a_keys),
            "b_keys": list(side.b_keys),
            "range_sql": side.range_sql,
        }
        for index, side in enumerate(sides)
    ]
    text = rendered("_pairs_sample_sql", relation("a"), a_range_sql, described, shared)
    frames = {"a": df_a} | {f"b{index}": side.df for index, side in enumerate(sides)}
    values = run(text, frames).collect()[0].asDict()
    return [dict(render("_pairs_found", values, index)) for index in range(len(sides))]


def pairs_sample_range(reaches: Sequence[dict[str, Any]]) -> list[Any] | None:
    """The sample range of one query for several sides: A's start to the earliest end of the sides' own sample
    ranges, or None when none has one (``_pairs_sample_range``)."""
    found = render("_pairs_sample_range", list(reaches))
    return None if found is None else list(found)


def pairs_ranges(
    ranges: tuple[ReadRange, ReadRange],
    start: UnitValue | None,
    end: UnitValue,
    look_back_time: int,
    max_waiting_time: int,
    unit: TimeUnit,
    sample_width: int | None = None,
) -> dict[str, Any]:
    """What the query of 'auto' reads on a long run of partner = all: A's sample range (``a``, from its read
    range's start to the end of the output window's first join window from ``start``; None when nothing lies
    before B's last join window), B's last join window (``b``), B's read range in units (``b_units``, None
    without a lower bound) and the window's (``far_units``); ``sample_width``: the width of A's first window when
    one sample serves several inputs. The macro ``_pairs_ranges``."""
    found = render(
        "_pairs_ranges",
        [list(r) for r in ranges],
        start,
        end,
        look_back_time,
        max_waiting_time,
        unit.value,
        sample_width,
    )
    return dict(found)


def pairs_plan(found: dict[str, Any] | None, reach: dict[str, Any], unit: TimeUnit) -> PlanChoice:
    """The choice of 'auto' for a long run of partner = all, or an input of inc_join_many, from a side's counts
    (pairs_sample's ``sample_rows``, ``pairs`` and ``shared``; ``_pairs_plan``)."""
    chosen = _plan(render("_pairs_plan", found, reach, unit.value))
    assert chosen is not None, "auto always chooses"
    return chosen
