"""Late matches (spec §10): a timed-out A row still pairs with the B rows of its key that arrive up to
``late_match_time`` after its window closed, code 7 at b, one row per pair; its a_timed_out row stays.

The A rows of the slice without any B row in their window are found first (an anti-join with B's slice, whose
columns it needs are only keys and arrival); each gets a second copy, flagged ``_a_late``, in the same join: a
copy pairs only with B rows in ``(a + mw, a + mw + L]``, and only the late_match scenario takes its rows. With
how = full a B row so paired is no longer unmatched, so it is no b_timed_out: spec §10's rule falls out of the
one join. SQL twin: macros/internal/_late_matches.sql.
"""

from __future__ import annotations

from .scenarios import ARRIVAL_A, ARRIVAL_B, LATE_COPY
from .time_units import TimeUnit, add_units_sql


def late_window_sql(window: str, max_waiting_time: int, late_match_time: int, unit: TimeUnit) -> str:
    """The pairing rule with late copies: an A row's own copy pairs inside ``window``, a late copy only in
    ``(a + mw, a + mw + L]``."""
    closes = add_units_sql(ARRIVAL_A, max_waiting_time, unit)
    late_end = add_units_sql(ARRIVAL_A, max_waiting_time + late_match_time, unit)
    late = f"{LATE_COPY} AND {ARRIVAL_B} > {closes} AND {ARRIVAL_B} <= {late_end}"
    return f"((NOT {LATE_COPY} AND {window}) OR ({late}))"
