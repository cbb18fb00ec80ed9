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
is one small Spark job; the plan is decided before the join is built.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pyspark.sql import DataFrame

from ..sql_text import render
from ..sql_text.arguments import params_of
from ..sql_text.fragments import arrival_range_sql, quote
from ..sql_text.statement import relation, rendered, run
from ..tables.shared_tables import PLAN_CHOICE
from .prepared import PreparedJoin
from .time_units import TimeUnit, UnitValue
from .validation import JoinParameters
from .window import OutputWindow, ReadRange, read_ranges

RANGE_WINDOWS: int = PLAN_CHOICE["range_windows"]
SAMPLE_ROWS: int = PLAN_CHOICE["sample_rows"]
SHARED_ROWS: int = PLAN_CHOICE["shared_rows"]


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


@dataclass(frozen=True)
class KeySharing:
    """A sample of one side: its rows, and how many rows of the sample a row shares its key with, on average
    over the rows (itself included: sum of squared key counts / rows; 1.0 when every key is unique)."""

    rows: int
    shared: float


def _plan(found: dict[str, Any] | None) -> PlanChoice | None:
    """A macro's plan ({'grouped', 'reason', 'pairs_a_rows', 'text'}, or none) as a PlanChoice."""
    return None if found is None else PlanChoice(found["grouped"], found["reason"], found["pairs_a_rows"])


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
    """The plain plan when B's read range ``[b_lower, end]`` spans at most RANGE_WINDOWS join windows (the
    grouped plan's bucket width), or None: then the samples decide. No data is read (``_range_plan``)."""
    return _plan(render("_range_plan", b_lower, end, look_back_time, max_waiting_time, unit.value))


def key_sharing(keys: Iterable[Sequence[object]]) -> KeySharing:
    """The sharing of a sample of key tuples (``_key_sharing``)."""
    found = render("_key_sharing", [list(key) for key in keys])
    return KeySharing(found["rows"], found["shared"])


def auto_plan(a: KeySharing, b: KeySharing | None) -> PlanChoice:
    """The choice of many_rows_per_key='auto' for an input of inc_join_many from A's sample and, when A's is
    dense, the input's (``_auto_plan``)."""
    chosen = _plan(render("_auto_plan", vars(a), None if b is None else vars(b)))
    assert chosen is not None, "auto always chooses"
    return chosen


def sample_predicate(keys: Sequence[str], range_sql: str) -> str:
    """The rows a side's sample is drawn from: its read range, keys not NULL (``_sample_predicate``)."""
    return str(render("_sample_predicate", keys, range_sql))


def choose_join_plan(prepared: PreparedJoin, window: OutputWindow) -> PlanChoice:
    """The plan of a run over ``window``: fixed_plan, range_plan, the grouped plan for one row per A, or
    pairs_plan from one query over A's sample and B's last join window (spec §4's read ranges): one Spark job."""
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
    reach = pairs_ranges(ranges, ranges[1][1], params.look_back_time, params.max_waiting_time, unit)
    if reach["a"] is None:
        return pairs_plan(None, reach, unit)
    range_sqls = [
        arrival_range_sql(inputs.inc_col[index], inputs.arrival_types[index], reach[side][0], reach[side][1], unit)
        for index, side in enumerate(("a", "b"))
    ]
    keys = [[key[index] for key in inputs.keys] for index in (0, 1)]
    text = rendered("_pairs_sample_sql", relation("a"), relation("b"), *keys, *range_sqls)
    row = run(text, {"a": prepared.df_a, "b": prepared.df_b}).collect()[0]
    return pairs_plan(row.asDict(), reach, unit)


def pairs_ranges(
    ranges: tuple[ReadRange, ReadRange], end: UnitValue, look_back_time: int, max_waiting_time: int, unit: TimeUnit
) -> dict[str, Any]:
    """What the query of 'auto' reads on a long run of partner = all: A's sample range (``a``, None when nothing
    lies before B's last join window), B's last join window (``b``), B's read range in units (``b_units``, None
    without a lower bound) and the window's (``far_units``); the macro ``_pairs_ranges``."""
    return dict(render("_pairs_ranges", [list(r) for r in ranges], end, look_back_time, max_waiting_time, unit.value))


def pairs_plan(found: dict[str, int] | None, reach: dict[str, Any], unit: TimeUnit) -> PlanChoice:
    """The choice of 'auto' for a long run of partner = all from the query's ``sample_rows`` and ``pairs``
    (``_pairs_plan``)."""
    chosen = _plan(render("_pairs_plan", found, reach, unit.value))
    assert chosen is not None, "auto always chooses"
    return chosen


def sample_sharing(df: DataFrame, keys: Sequence[str], range_sql: str) -> KeySharing:
    """The key sharing of a side's first SAMPLE_ROWS rows in ``range_sql`` (inc_join_many): one Spark job."""
    sliced = df.where(sample_predicate(keys, range_sql)).select(*[quote(k) for k in keys])
    # one partition read in order: a single job even when the first split holds fewer rows than the sample
    rows = sliced.coalesce(1).limit(SAMPLE_ROWS)
    return key_sharing(tuple(row) for row in rows.collect())
