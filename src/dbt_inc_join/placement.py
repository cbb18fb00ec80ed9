"""Placement helpers the scenarios share, and the pairing rule's two tests: the internal column names of a joined
pair, what placing a row may depend on besides the row (PlacementContext), equal keys, the sliding window. The
SQL twin is macros/scenarios/_placement.sql (the same names, a leading ``_`` there)."""

from __future__ import annotations

from dataclasses import dataclass

from .time_units import TimeUnit, add_units_sql

ARRIVAL_A, ARRIVAL_B = "_a_arrival", "_b_arrival"
LATE_COPY = "_a_late"


def keys_equal_sql(key_count: int, a_key: str = "_ak") -> str:
    """A's keys (named ``<a_key><i>``) equal B's (plain SQL equality: NULL never matches)."""
    return " AND ".join(f"{a_key}{i} = _bk{i}" for i in range(key_count))


def sliding_window_sql(look_back_time: int, max_waiting_time: int, unit: TimeUnit, a_arrival: str = ARRIVAL_A) -> str:
    """b inside the sliding window ``[a − lb, a + mw]`` of the A arrival ``a_arrival``."""
    return (
        f"{ARRIVAL_B} >= {add_units_sql(a_arrival, -look_back_time, unit)} AND "
        f"{ARRIVAL_B} <= {add_units_sql(a_arrival, max_waiting_time, unit)}"
    )


@dataclass(frozen=True)
class PlacementContext:
    """What placing a row may depend on besides the row: the unit, the two windows, the output window end."""

    time_uom: TimeUnit
    lb: int  #: look_back_time
    mw: int  #: max_waiting_time
    end_sql: str  #: the output window end as a SQL literal
    mode: str = "all"  #: the row mode of spec §11: "all", "first", "last" or "aggregate"
    late_match: bool = False  #: late_match_time > 0: A's slice holds the late copies (spec §10)


def a_row(ctx: PlacementContext, where: str) -> str:
    """``where`` for rows of an A row itself, never of its late copy (spec §10)."""
    return f"{where} AND NOT {LATE_COPY}" if ctx.late_match else where


def window_closes(ctx: PlacementContext) -> str:
    return add_units_sql(ARRIVAL_A, ctx.mw, ctx.time_uom)


def matched_arrival(ctx: PlacementContext, arrival: str) -> str:
    """Where a partner row is placed: when it is known. The last partner is known only when A's window
    closes (spec §11); any pair, and the first partner, as soon as both rows are there."""
    return window_closes(ctx) if ctx.mode == "last" else arrival
