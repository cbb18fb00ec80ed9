"""The plan of one row per A (spec §11, Cost): everything a row of A gets from B depends only on its keys and
its arrival, so B is joined to the distinct (keys, arrival) of A's slice, never to A's rows.

A key may have thousands of rows a unit on each side. The join of the distinct (keys, a) with B is an
equi-join on the keys and a time bucket of width ``look_back_time + max_waiting_time + 1``: B's row falls into
one bucket, and the window ``[a − lb, a + mw]`` of an arrival touches one or two, so each (a, b) pair in the
window is found exactly once and a key's rows are compared only with the B rows of neighbouring buckets.
The result, at most one row per (keys, a) for ``first``, ``last`` and ``aggregate``, is joined back to A by
equality. With join_cond (spec §12) the distinct rows of A also carry the A columns its pair conjuncts read
(``_ac<i>``), which come back as ``_gc<i>`` and join back null-safe; its A-only conjuncts filter those distinct
rows and test the A row in the join back instead (an A row that fails them stays, without partner). SQL twin:
macros/internal/_arrival_groups.sql, same names, same text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .join_cond import a_column_indexes, condition_parts
from .placement import ARRIVAL_B, keys_equal_sql, sliding_window_sql
from .predicates import quote
from .time_units import TimeUnit, unit_number_sql

GROUP_ARRIVAL = "_g_arrival"
GROUP_KEY = "_gk"  #: A's keys in the distinct (keys, arrival) of A: _gk0, _gk1, ...
GROUP_CONDITION = "_gc"  #: join_cond's A columns (_ac<i>) in the reduced rows, for the join back
BUCKET = "_bucket"


def pairs_by_bucket(mode: str, how: str) -> bool:
    """Every partner with how = inner: the pairs are the output, so A's rows themselves go into the buckets
    (one join, no distinct, no join back). Any outer side needs one row per A row or per B row first."""
    return mode == "all" and how == "inner"


def group_key(index: int) -> str:
    """The name of A's key ``index`` in the distinct (keys, arrival) of A."""
    return f"{GROUP_KEY}{index}"


def bucket_width(look_back_time: int, max_waiting_time: int) -> int:
    return look_back_time + max_waiting_time + 1


def b_bucket_sql(look_back_time: int, max_waiting_time: int, unit: TimeUnit) -> str:
    """The one bucket of a B row's arrival."""
    width = bucket_width(look_back_time, max_waiting_time)
    return f"CAST(floor({unit_number_sql(ARRIVAL_B, unit)} / {width}) AS BIGINT)"


def arrival_buckets_sql(look_back_time: int, max_waiting_time: int, unit: TimeUnit) -> str:
    """The buckets that the sliding join window ``[a − lb, a + mw]`` of an arrival touches (one or two)."""
    width = bucket_width(look_back_time, max_waiting_time)
    number = unit_number_sql(GROUP_ARRIVAL, unit)
    return (
        f"sequence(CAST(floor(({number} - {look_back_time}) / {width}) AS BIGINT), "
        f"CAST(floor(({number} + {max_waiting_time}) / {width}) AS BIGINT))"
    )


def arrival_projection(key_count: int) -> list[str]:
    """The distinct (keys, arrival) of A's slice, under the group names. A NULL key never has a partner."""
    return [f"_ak{i} AS {group_key(i)}" for i in range(key_count)] + [f"_a_arrival AS {GROUP_ARRIVAL}"]


def arrival_filter_sql(key_count: int, a_only: str | None = None) -> str:
    """The A rows whose (keys, arrival) may have partners: no NULL key, and join_cond's A-only conjuncts."""
    tests = [f"_ak{i} IS NOT NULL" for i in range(key_count)] + ([a_only] if a_only else [])
    return " AND ".join(tests)


def group_condition(condition: str | None) -> tuple[list[int], str | None, str | None]:
    """join_cond in this plan: the A columns (i of ``_ac<i>``) its pair conjuncts read, which the distinct rows
    carry; its A-only conjuncts, which filter those rows (and the join back); the rest, B-only and pair, for the
    match with B (Spark pushes a B-only conjunct of an inner match into B's slice)."""
    if condition is None:
        return [], None, None
    parts = condition_parts(condition)
    matched = " AND ".join(p for p in (parts.b_only, parts.pair) if p) or None
    return a_column_indexes(parts.pair), parts.a_only, matched


def group_window_sql(key_count: int, look_back_time: int, max_waiting_time: int, unit: TimeUnit) -> str:
    """A B row of the arrival's keys inside its window ``[a − lb, a + mw]``."""
    window = sliding_window_sql(look_back_time, max_waiting_time, unit, GROUP_ARRIVAL)
    return f"{keys_equal_sql(key_count, GROUP_KEY)} AND {window}"


def group_match_sql(
    key_count: int,
    look_back_time: int,
    max_waiting_time: int,
    unit: TimeUnit,
    condition: str | None = None,
    bucketed: bool = True,
) -> str:
    """Equal keys, the same bucket (unless the plain key join of inc_join_many's inputs without hot keys), b
    inside the arrival's window, and join_cond (over the internal names)."""
    test = group_window_sql(key_count, look_back_time, max_waiting_time, unit)
    test = f"{BUCKET} = _b_bucket AND {test}" if bucketed else test
    return f"{test} AND ({condition})" if condition else test


def condition_group_projection(indexes: Sequence[int]) -> list[str]:
    """join_cond's A columns of a reduced row, renamed for the join back (A's own are ``_ac<i>`` too)."""
    return [f"_ac{i} AS {GROUP_CONDITION}{i}" for i in indexes]


def back_to_a_sql(key_count: int, indexes: Sequence[int] = (), a_only: str | None = None) -> str:
    """An A row and the result for its (keys, arrival): plain equality (a NULL key gets nothing); the A columns
    of join_cond's pair conjuncts null-safe (a NULL there may still meet the condition); its A-only conjuncts
    over the A row (one that fails them gets no partner, and stays)."""
    tests = [f"_ak{i} = {group_key(i)}" for i in range(key_count)]
    tests.append(f"_a_arrival = {GROUP_ARRIVAL}")
    tests += [f"_ac{i} <=> {GROUP_CONDITION}{i}" for i in indexes]
    return " AND ".join(tests + ([a_only] if a_only else []))


def projected_names(projection: Sequence[str]) -> list[str]:
    """The names a select list (``expression AS name`` items) gives its columns."""
    return [item.rsplit(" AS ", 1)[1] for item in projection]


#: Internal names of the arrival-group plan; a B column named like one is not visible to the aggregates.
INTERNAL_NAME = r"^_(bk?\d+|bo\d+|gk?\d+|[abg]c\d+|b_arrival|b_bucket|g_arrival|bucket|pick)$"


def own_columns(b_names: Sequence[str]) -> list[str]:
    """B's own columns, quoted, for the aggregates to name (all but those named like an internal column)."""
    return [quote(name) for name in b_names if re.match(INTERNAL_NAME, name.lower()) is None]


def order_projection(order_by: Sequence[str]) -> list[str]:
    """partner_order_by's B columns, under internal names (they need not be selected for the output)."""
    return [f"{quote(name)} AS _bo{i}" for i, name in enumerate(order_by)]


def partner_order(order_by_count: int, tie_breakers: Sequence[str]) -> list[str]:
    """How the partners of an arrival are ordered (spec §11): by b, then partner_order_by, then the selected B
    columns that Spark can order, so that the same inputs always give the same row."""
    return [ARRIVAL_B] + [f"_bo{i}" for i in range(order_by_count)] + list(tie_breakers)


def pick_sql(mode: str, fields: Sequence[str], order: Sequence[str]) -> str:
    """The first or the last partner of a (keys, arrival): the smallest or largest by ``order``."""
    function = "min_by" if mode == "first" else "max_by"
    payload = ", ".join(f"'{f}', {f}" for f in fields)
    return f"{function}(named_struct({payload}), struct({', '.join(order)})) AS _pick"
