"""One function per JoinType: everything its scenario decides, as Spark SQL over the joined pairs.

A joined pair has the truncated arrivals ``_a_arrival`` and ``_b_arrival``; a side is absent exactly when its
arrival is NULL (every input slice drops NULL arrivals). Each scenario returns its code and name, the WHERE
clause that picks its rows, its output arrival, DiffArrivalTime and WaitingTime. The scenarios are disjoint,
so render.py combines them as the branches of one classification. The SQL twins are macros/scenarios/*.sql,
one file per function, rendering the same text.

With late matches (spec §10) A's slice holds a second copy of each timed-out A row, flagged ``_a_late``, that
pairs only with B rows after its window: those rows are the late_match scenario's, and no other scenario's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .join_types import JoinType
from .placement import (
    ARRIVAL_A,
    ARRIVAL_B,
    LATE_COPY,
    PlacementContext,
    a_row,
    matched_arrival,
    window_closes,
)
from .time_units import add_units_sql, diff_units_sql

BOTH = f"{ARRIVAL_A} IS NOT NULL AND {ARRIVAL_B} IS NOT NULL"
A_ONLY = f"{ARRIVAL_A} IS NOT NULL AND {ARRIVAL_B} IS NULL"
B_ONLY = f"{ARRIVAL_A} IS NULL"


@dataclass(frozen=True)
class Scenario:
    """What one JoinType decides for its rows (SQL text; None: NULL)."""

    code: int
    name: str
    where: str
    arrival: str
    diff: str | None
    waiting: str | None


def _delta(ctx: PlacementContext) -> str:
    return diff_units_sql(ARRIVAL_B, ARRIVAL_A, ctx.time_uom)


def same_time(ctx: PlacementContext) -> Scenario:
    """Partners that arrived in the same unit; placed at a (partner = last: at a + max_waiting_time)."""
    return Scenario(
        JoinType.SAME_TIME,
        JoinType.SAME_TIME.label,
        where=a_row(ctx, f"{BOTH} AND {ARRIVAL_B} = {ARRIVAL_A}"),
        arrival=matched_arrival(ctx, ARRIVAL_A),
        diff=_delta(ctx),
        waiting=None,
    )


def a_late(ctx: PlacementContext) -> Scenario:
    """Partners where B came first (Δ < 0); placed at a, when the A row arrives (partner = last: when its window
    closes)."""
    return Scenario(
        JoinType.A_LATE,
        JoinType.A_LATE.label,
        where=a_row(ctx, f"{BOTH} AND {ARRIVAL_B} < {ARRIVAL_A}"),
        arrival=matched_arrival(ctx, ARRIVAL_A),
        diff=_delta(ctx),
        waiting=None,
    )


def b_late(ctx: PlacementContext) -> Scenario:
    """Partners where A came first (Δ > 0); placed at b, when the B row arrives (partner = last: when A's window
    closes)."""
    return Scenario(
        JoinType.B_LATE,
        JoinType.B_LATE.label,
        where=a_row(ctx, f"{BOTH} AND {ARRIVAL_B} > {ARRIVAL_A}"),
        arrival=matched_arrival(ctx, ARRIVAL_B),
        diff=_delta(ctx),
        waiting=None,
    )


def a_timed_out(ctx: PlacementContext) -> Scenario:
    """An A row with no partner in its whole sliding window; placed at a + max_waiting_time."""
    return Scenario(
        JoinType.A_TIMED_OUT,
        JoinType.A_TIMED_OUT.label,
        where=a_row(ctx, A_ONLY),
        arrival=window_closes(ctx),
        diff=None,
        waiting=str(ctx.mw),
    )


def a_waiting(ctx: PlacementContext) -> Scenario:
    """Provisional: an A row whose window is still open at the output window end, with no partner up to it;
    placed at the end. With partner = last or aggregate every such A row, with its partners so far."""
    open_rows = A_ONLY if ctx.mode in ("all", "first") else f"{ARRIVAL_A} IS NOT NULL"
    return Scenario(
        JoinType.A_WAITING,
        JoinType.A_WAITING.label,
        where=a_row(ctx, f"{open_rows} AND {window_closes(ctx)} > {ctx.end_sql}"),
        arrival=ctx.end_sql,
        diff=None,
        waiting=diff_units_sql(ctx.end_sql, ARRIVAL_A, ctx.time_uom),
    )


def b_timed_out(ctx: PlacementContext) -> Scenario:
    """how = full: a B row that no A row can claim any more; placed at b + look_back_time."""
    return Scenario(
        JoinType.B_TIMED_OUT,
        JoinType.B_TIMED_OUT.label,
        where=B_ONLY,
        arrival=add_units_sql(ARRIVAL_B, ctx.lb, ctx.time_uom),
        diff=None,
        waiting=str(ctx.lb),
    )


def late_match(ctx: PlacementContext) -> Scenario:
    """late_match_time (spec §10): a timed-out A row and a partner that came after its window closed, at most
    late_match_time later; placed at b. The A row's own a_timed_out row stays: this is an additional fact."""
    return Scenario(
        JoinType.LATE_MATCH,
        JoinType.LATE_MATCH.label,
        where=f"{BOTH} AND {LATE_COPY}",
        arrival=ARRIVAL_B,
        diff=_delta(ctx),
        waiting=None,
    )


def a_aggregated(ctx: PlacementContext) -> Scenario:
    """aggregate: an A row with at least one partner, its partners aggregated; placed at a + max_waiting_time,
    when its window closes."""
    return Scenario(
        JoinType.A_AGGREGATED,
        JoinType.A_AGGREGATED.label,
        where=BOTH,
        arrival=window_closes(ctx),
        diff=None,
        waiting=None,
    )


#: JoinType -> its scenario; render.py picks those that the run's ``how`` emits (join_types.py).
SCENARIOS: dict[JoinType, Callable[[PlacementContext], Scenario]] = {
    JoinType.SAME_TIME: same_time,
    JoinType.A_LATE: a_late,
    JoinType.B_LATE: b_late,
    JoinType.A_TIMED_OUT: a_timed_out,
    JoinType.A_WAITING: a_waiting,
    JoinType.B_TIMED_OUT: b_timed_out,
    JoinType.LATE_MATCH: late_match,
    JoinType.A_AGGREGATED: a_aggregated,
}
