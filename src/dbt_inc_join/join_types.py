"""The JoinType table (docs/spec.md §3): code, name, placement rule and which ``how`` emits each type.

Everything else derives from this table: the scenarios (scenarios.py), the rows a ``how`` keeps, the names
in ``JoinTypeName``, the pictures. Its SQL twin is macros/join_types.sql; a test keeps the two
equal. Adding a JoinType means one member and one row here, one row there, and a scenario in each language.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class JoinType(IntEnum):
    """Why a row is in the output, and so where in time it was placed."""

    SAME_TIME = 1  #: partners arrived in the same unit (Δ = 0)
    A_LATE = 2  #: B came first (Δ < 0)
    B_LATE = 3  #: A came first (Δ > 0)
    A_TIMED_OUT = 4  #: no partner in A's whole sliding window
    A_WAITING = 5  #: provisional: no partner yet (include_waiting only)
    B_TIMED_OUT = 6  #: how = full: a B row that no A row can claim any more
    LATE_MATCH = 7  #: late_match_time: a timed-out A row and a partner that came after its window (spec §10)
    A_AGGREGATED = 8  #: aggregate: an A row with its partners aggregated

    @property
    def label(self) -> str:
        """The lower-case name used in the ``JoinTypeName`` column, e.g. ``a_timed_out``."""
        return self.name.lower()

    @property
    def rule(self) -> JoinTypeRule:
        return RULES[self]


HOW_VALUES = ("inner", "left", "full", "left_anti")
PARTNER_VALUES = ("all", "first", "last")
#: The row modes of spec §11: a partner choice, or "aggregate" (an ``aggregate`` argument was given).
ROW_MODES = PARTNER_VALUES + ("aggregate",)


@dataclass(frozen=True)
class JoinTypeRule:
    """One row of the JoinType table."""

    join_type: JoinType
    placed_at: str  #: the output arrival, in the terms of docs/spec.md §2 (e: the output window end)
    hows: frozenset[str]  #: the ``how`` values that emit it
    matched: bool  #: a row of an A row and its partner (or its partners, aggregated)
    modes: frozenset[str]  #: the row modes (partner values, or "aggregate") that emit it
    provisional: bool = False  #: only with include_waiting; a later run emits the A row again
    late: bool = False  #: only with late_match_time > 0 (spec §10)


_MATCH_HOWS = frozenset({"inner", "left", "full"})
_A_ONLY_HOWS = frozenset({"left", "full", "left_anti"})
_PAIR_MODES = frozenset(PARTNER_VALUES)
_EVERY_MODE = frozenset(ROW_MODES)

# placed_at is the rule of partner = all; partner = last places codes 1-3 at a + max_waiting_time (spec §11).
JOIN_TYPE_TABLE: tuple[JoinTypeRule, ...] = (
    JoinTypeRule(JoinType.SAME_TIME, "a", _MATCH_HOWS, matched=True, modes=_PAIR_MODES),
    JoinTypeRule(JoinType.A_LATE, "a", _MATCH_HOWS, matched=True, modes=_PAIR_MODES),
    JoinTypeRule(JoinType.B_LATE, "b", _MATCH_HOWS, matched=True, modes=_PAIR_MODES),
    JoinTypeRule(JoinType.A_TIMED_OUT, "a + max_waiting_time", _A_ONLY_HOWS, matched=False, modes=_EVERY_MODE),
    JoinTypeRule(JoinType.A_WAITING, "e", _A_ONLY_HOWS, matched=False, modes=_EVERY_MODE, provisional=True),
    JoinTypeRule(JoinType.B_TIMED_OUT, "b + look_back_time", frozenset({"full"}), matched=False, modes=_PAIR_MODES),
    JoinTypeRule(JoinType.LATE_MATCH, "b", _MATCH_HOWS, matched=True, modes=frozenset({"all"}), late=True),
    JoinTypeRule(
        JoinType.A_AGGREGATED,
        "a + max_waiting_time",
        frozenset({"inner", "left"}),
        matched=True,
        modes=frozenset({"aggregate"}),
    ),
)
RULES = {rule.join_type: rule for rule in JOIN_TYPE_TABLE}
MATCHED_CODES = frozenset(rule.join_type for rule in JOIN_TYPE_TABLE if rule.matched)


def emitted_join_types(
    how: str, include_waiting: bool, mode: str = "all", late_match: bool = False
) -> tuple[JoinType, ...]:
    """The JoinTypes a run emits, in code order: those of ``how`` and the row ``mode`` (spec §11), provisional
    ones only with include_waiting, late matches only with late_match_time > 0 (spec §10)."""
    return tuple(
        rule.join_type
        for rule in JOIN_TYPE_TABLE
        if how in rule.hows
        and mode in rule.modes
        and (include_waiting or not rule.provisional)
        and (late_match or not rule.late)
    )
