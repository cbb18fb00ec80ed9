"""The JoinType table (docs/spec.md §3): code, name, placement rule and which ``how`` emits each type.

Everything else derives from this table: the scenarios (macros/sql_text/scenarios/, which the core renders too), the
rows a ``how`` keeps, the names in ``JoinTypeName``, the pictures. Its rows live in shared_tables.py
(``JOIN_TYPES``), the one source of both languages: the macros read the generated copy
macros/tables/generated/_join_types.sql (``make generate``). Adding a JoinType means one row there, its member in
``JoinType`` (a test checks that the two agree), and its scenario macro.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from . import shared_tables
from .shared_tables import HOW_VALUES, PARTNER_VALUES, ROW_MODES

__all__ = [
    "HOW_VALUES",
    "JOIN_TYPE_TABLE",
    "PARTNER_VALUES",
    "ROW_MODES",
    "JoinType",
    "JoinTypeRule",
]


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


def _rule(row: dict) -> JoinTypeRule:
    """One row of shared_tables.JOIN_TYPES as a rule of its JoinType (the member of the same code and name)."""
    join_type = JoinType(row["code"])
    assert join_type.label == row["name"], f"JoinType {join_type!r} is named {row['name']!r} in shared_tables.py"
    return JoinTypeRule(
        join_type,
        row["placed_at"],
        frozenset(row["hows"]),
        matched=row["matched"],
        modes=frozenset(row["modes"]),
        provisional=row["provisional"],
        late=row["late"],
    )


JOIN_TYPE_TABLE: tuple[JoinTypeRule, ...] = tuple(_rule(row) for row in shared_tables.JOIN_TYPES)
