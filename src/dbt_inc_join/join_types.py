"""The JoinType codes of an inc_join output row (SPEC §3) and which join flavour emits which."""
from __future__ import annotations

from enum import IntEnum
from typing import FrozenSet, Mapping


class JoinType(IntEnum):
    """Why a row is in the output, and so where in time it was placed."""

    SAME_TIME = 1  #: partners arrived in the same unit (Δ = 0), placed at a
    A_LATE = 2  #: B came first (Δ < 0), placed at a
    B_LATE = 3  #: A came first (Δ > 0), placed at b
    A_TIMED_OUT = 4  #: no partner in A's whole sliding window, placed at a + max_waiting_time
    A_WAITING = 5  #: provisional: no partner yet, placed at the window end (include_waiting only)
    B_TIMED_OUT = 6  #: how = full: B row that no A row can claim any more, placed at b + look_back_time

    @property
    def label(self) -> str:
        """The lower-case name used in the ``JoinTypeName`` column, e.g. ``a_timed_out``."""
        return self.name.lower()


HOW_VALUES = ("inner", "left", "full", "left_anti")

#: The codes each ``how`` emits without ``include_waiting``.
CODES_BY_HOW: Mapping[str, FrozenSet[JoinType]] = {
    "inner": frozenset({JoinType.SAME_TIME, JoinType.A_LATE, JoinType.B_LATE}),
    "left": frozenset({JoinType.SAME_TIME, JoinType.A_LATE, JoinType.B_LATE, JoinType.A_TIMED_OUT}),
    "full": frozenset(
        {JoinType.SAME_TIME, JoinType.A_LATE, JoinType.B_LATE, JoinType.A_TIMED_OUT, JoinType.B_TIMED_OUT}
    ),
    "left_anti": frozenset({JoinType.A_TIMED_OUT}),
}


def emitted_codes(how: str, include_waiting: bool) -> FrozenSet[JoinType]:
    """Codes a join emits. Waiting rows are unmatched A rows, so only flavours that keep those get them."""
    codes = CODES_BY_HOW[how]
    if include_waiting and JoinType.A_TIMED_OUT in codes:
        codes = codes | {JoinType.A_WAITING}
    return codes
