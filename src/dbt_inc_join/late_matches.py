"""Late matches (spec §10): a timed-out A row still pairs with the B rows of its key that arrive up to
``late_match_time`` after its window closed, code 7 at b, one row per pair; its a_timed_out row stays.

The A rows of the slice without any B row in their window are found first (an anti-join with B's slice, whose
columns it needs are only keys and arrival); each gets a second copy, flagged ``_a_late``, in the same join: a
copy pairs only with B rows in ``(a + mw, a + mw + L]``, and only the late_match scenario takes its rows. With
how = full a B row so paired is no longer unmatched, so it is no b_timed_out: spec §10's rule falls out of the
one join. SQL twin: macros/internal/_late_matches.sql.
"""

from __future__ import annotations

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from .placement import ARRIVAL_A, ARRIVAL_B, LATE_COPY, keys_equal_sql, sliding_window_sql
from .time_units import TimeUnit, add_units_sql
from .validation import JoinParameters


def late_window_sql(window: str, max_waiting_time: int, late_match_time: int, unit: TimeUnit) -> str:
    """The pairing rule with late copies: an A row's own copy pairs inside ``window``, a late copy only in
    ``(a + mw, a + mw + L]``."""
    closes = add_units_sql(ARRIVAL_A, max_waiting_time, unit)
    late_end = add_units_sql(ARRIVAL_A, max_waiting_time + late_match_time, unit)
    late = f"{LATE_COPY} AND {ARRIVAL_B} > {closes} AND {ARRIVAL_B} <= {late_end}"
    return f"((NOT {LATE_COPY} AND {window}) OR ({late}))"


def late_copies(
    a_side: DataFrame, b_side: DataFrame, params: JoinParameters, key_count: int, condition: str | None = None
) -> DataFrame:
    """A's slice, and a copy flagged ``_a_late`` of each A row without a B row in its window; ``condition``:
    join_cond over the internal names, or None."""
    window = sliding_window_sql(params.look_back_time, params.max_waiting_time, params.time_uom)
    # an A row with a B row in its window did not time out
    partner = f"{keys_equal_sql(key_count)}{f' AND ({condition})' if condition else ''} AND {window}"
    copies = a_side.join(b_side, F.expr(partner), "left_anti")
    return a_side.selectExpr("*", f"false AS {LATE_COPY}").unionByName(copies.selectExpr("*", f"true AS {LATE_COPY}"))
