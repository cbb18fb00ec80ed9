"""A brute-force reference of spec §3, §10 and §11, written straight from their text, independent of the package.

Times are whole units counted from an origin (ints); rows are dicts. Used to check the Spark core on
random data: every pair of rows is compared, no pre-filter, no join, no cleverness.

§11 (one row per A): ``partner='first'|'last'`` keeps one partner per A row, chosen by the order of §11
(``b``, then the ``partner_order_by`` fields, then the B row's output fields ``b_cols`` in their order, each
ascending with NULL first); ``aggregate`` maps output names to Python twins of the Spark SQL aggregates,
each a function of the list of partner B rows (dicts), and ``null_fill`` gives the value of an aggregate for
an A row without partners.

§10 (late matches, ``late_match_time = L > 0``, partner 'all' only): an A row without partner in its window
also pairs with each B row of its key arriving in ``(a + mw, a + mw + L]``, code 7 at ``b``; with how = full
such a B row is not ``b_timed_out``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

CODES = {"inner": {1, 2, 3}, "left": {1, 2, 3, 4}, "full": {1, 2, 3, 4, 6}, "left_anti": {4}}
AGGREGATE_CODES = {"inner": {8}, "left": {4, 8}}

# An output row: (key, out_time, a_id, b_id, code, diff, waiting)
OutRow = tuple[int | None, int, int | None, int | None, int, int | None, int | None]
# In aggregate mode the same, b_id always None, followed by the tuple of the aggregates in their given order.
AggregateRow = tuple[int | None, int, int | None, None, int, int | None, int | None, tuple]


def expected_rows(
    a_rows: Iterable[dict],
    b_rows: Iterable[dict],
    *,
    how: str,
    lb: int,
    mw: int,
    start: int | None,
    end: int,
    include_waiting: bool = False,
    partner: str = "all",
    partner_order_by: Sequence[str] = (),
    b_cols: Sequence[str] = ("id",),
    b_fields: Sequence[str] = ("id",),
    aggregate: Mapping[str, Callable[[list[dict]], Any]] | None = None,
    null_fill: Mapping[str, Any] | None = None,
    late_match_time: int = 0,
    join_cond: Callable[[dict, dict], bool] | None = None,
) -> list:
    """Rows of one run over ``[start, end]`` (start None: unbounded). Rows with time None are excluded.
    ``join_cond`` (spec §12): a further test a pair (A row, B row) must pass to be partners, in every mode.

    ``partner='all'`` without ``aggregate`` is spec §3 (the default); the other modes are spec §11. A B row is
    named in the output rows by its ``b_fields`` (one field: its value; more: the tuple of their values)."""
    a_rows = [r for r in a_rows if r["t"] is not None]
    b_rows = [r for r in b_rows if r["t"] is not None]
    if aggregate is not None:
        assert partner == "all", "spec §11: aggregate needs partner = 'all'"
        assert late_match_time == 0, "spec §10: late matches need partner = 'all' without aggregate"
        return _aggregated(
            a_rows, b_rows, how, lb, mw, start, end, include_waiting, aggregate, null_fill or {}, join_cond
        )
    assert partner in ("all", "first", "last")
    assert late_match_time == 0 or partner == "all", "spec §10: late matches need partner = 'all'"
    assert late_match_time == 0 or how != "left_anti", "spec §10: no late matches with left_anti"

    meets = join_cond or (lambda a, b: True)

    def keys_meet(a, b):
        return a["k"] is not None and a["k"] == b["k"] and meets(a, b)

    def partners(a):
        return [b for b in b_rows if keys_meet(a, b) and a["t"] - lb <= b["t"] <= a["t"] + mw]

    def late_partners(a):
        """spec §10: B rows of a's key after its window closed, up to late_match_time later."""
        return [b for b in b_rows if keys_meet(a, b) and a["t"] + mw < b["t"] <= a["t"] + mw + late_match_time]

    def name(b):
        return b[b_fields[0]] if len(b_fields) == 1 else tuple(b[f] for f in b_fields)

    def pair_code(delta):
        return 1 if delta == 0 else (2 if delta < 0 else 3)

    rows: list[OutRow] = []
    for a in a_rows:
        found = partners(a)
        if partner == "all":
            for b in found:
                delta = b["t"] - a["t"]
                rows.append((a["k"], a["t"] if delta <= 0 else b["t"], a["id"], name(b), pair_code(delta), delta, None))
            if include_waiting and end - mw < a["t"] <= end and not [b for b in found if b["t"] <= end]:
                rows.append((a["k"], end, a["id"], None, 5, None, end - a["t"]))
        elif partner == "first":
            if found:
                b = _chosen(found, "first", partner_order_by, b_cols, name)
                delta = b["t"] - a["t"]
                rows.append((a["k"], max(a["t"], b["t"]), a["id"], name(b), pair_code(delta), delta, None))
            # the window is still open at end and no partner has come by end: waiting
            if include_waiting and end - mw < a["t"] <= end and not [b for b in found if b["t"] <= end]:
                rows.append((a["k"], end, a["id"], None, 5, None, end - a["t"]))
        else:  # last
            if found:
                b = _chosen(found, "last", partner_order_by, b_cols, name)
                delta = b["t"] - a["t"]
                rows.append((a["k"], a["t"] + mw, a["id"], name(b), pair_code(delta), delta, None))
            # every A row whose window is still open at end waits, with the latest partner by end (or none)
            if include_waiting and end - mw < a["t"] <= end:
                so_far = [b for b in found if b["t"] <= end]
                latest = name(_chosen(so_far, "last", partner_order_by, b_cols, name)) if so_far else None
                rows.append((a["k"], end, a["id"], latest, 5, None, end - a["t"]))
        if not found:
            rows.append((a["k"], a["t"] + mw, a["id"], None, 4, None, mw))
            for b in late_partners(a) if late_match_time else []:
                rows.append((a["k"], b["t"], a["id"], name(b), 7, b["t"] - a["t"], None))
    timed_out = [a for a in a_rows if not partners(a)]
    for b in b_rows:
        claimed = [a for a in a_rows if keys_meet(a, b) and b["t"] - mw <= a["t"] <= b["t"] + lb]
        late_of = [a for a in timed_out if keys_meet(a, b) and a["t"] + mw < b["t"] <= a["t"] + mw + late_match_time]
        if not claimed and not late_of:
            rows.append((b["k"], b["t"] + lb, None, name(b), 6, None, lb))

    codes = set(CODES[how]) | ({5} if include_waiting and how != "inner" else set())
    codes |= {7} if late_match_time and how != "left_anti" else set()
    return [r for r in rows if r[4] in codes and r[1] <= end and (start is None or r[1] >= start)]


def _nulls_first(value):
    return (0,) if value is None else (1, value)


def _chosen(found: list[dict], which: str, order_by: Sequence[str], b_cols: Sequence[str], name) -> dict:
    """The first or last of an A row's partners in the order of spec §11. Partners equal in every field of the
    order are the same output row: they must have the same ``name``, or the test data does not pin the choice."""

    def key(b):
        return (b["t"], *[_nulls_first(b[c]) for c in order_by], *[_nulls_first(b[c]) for c in b_cols])

    ordered = sorted(found, key=key)
    pick = ordered[0] if which == "first" else ordered[-1]
    for b in found:
        if key(b) == key(pick):
            assert name(b) == name(pick), f"partners {b} and {pick} tie in every ordered field"
    return pick


def _aggregated(a_rows, b_rows, how, lb, mw, start, end, include_waiting, aggregate, null_fill, join_cond) -> list:
    assert how in AGGREGATE_CODES, "spec §11: aggregate takes how = left or inner"
    assert set(null_fill) <= set(aggregate)
    meets = join_cond or (lambda a, b: True)

    def partners(a):
        return [
            b
            for b in b_rows
            if a["k"] is not None and a["k"] == b["k"] and meets(a, b) and a["t"] - lb <= b["t"] <= a["t"] + mw
        ]

    def values(found):
        if not found:  # null_fill only where there is no partner, else each aggregate over no rows
            return tuple(null_fill[name] if name in null_fill else fn([]) for name, fn in aggregate.items())
        return tuple(fn(found) for fn in aggregate.values())

    rows: list[AggregateRow] = []
    for a in a_rows:
        found = partners(a)
        if found:
            rows.append((a["k"], a["t"] + mw, a["id"], None, 8, None, None, values(found)))
        else:
            rows.append((a["k"], a["t"] + mw, a["id"], None, 4, None, mw, values([])))
        if include_waiting and end - mw < a["t"] <= end:
            so_far = [b for b in found if b["t"] <= end]
            rows.append((a["k"], end, a["id"], None, 5, None, end - a["t"], values(so_far)))

    codes = set(AGGREGATE_CODES[how]) | ({5} if include_waiting and how != "inner" else set())
    return [r for r in rows if r[4] in codes and r[1] <= end and (start is None or r[1] >= start)]


def expected_many_rows(
    a_rows: Iterable[dict],
    inputs: Sequence[Mapping[str, Any]],
    *,
    start: int | None,
    end: int,
    include_waiting: bool = False,
) -> list:
    """spec §12, inc_join_many over ``[start, end]``: one row per A row, ``(a_id, out_time, per input)``, where
    per input is ``(b_id, code)`` for partner first / last (b_id None: no partner) and ``(aggregates, code)`` for
    aggregate. Each input: ``rows``, ``lb``, ``mw``, ``partner`` or ``aggregate`` (name -> function of the
    partner list) with ``null_fill``, and optionally ``cond`` (join_cond: a test of the pair (A row, B row));
    keys are ``k``, B rows are ordered by (t, id) among equal arrivals.

    ``include_waiting``: an A row with ``a <= end`` whose row is not settled by ``end`` is also a row, at
    ``end``: each input settled by then as above, each other input code 5 with what its partners up to ``end``
    give (first: none; last: the latest; aggregate: aggregated, or the fill without any)."""
    rows = []
    for a in (r for r in a_rows if r["t"] is not None):
        settled, values, so_far = [], [], []
        for spec in inputs:
            lb, mw, meets = spec["lb"], spec["mw"], spec.get("cond") or (lambda a, b: True)
            found = [
                b
                for b in spec["rows"]
                if b["t"] is not None
                and a["k"] is not None
                and a["k"] == b["k"]
                and meets(a, b)
                and a["t"] - lb <= b["t"] <= a["t"] + mw
            ]
            resolved = _many_input_value(spec, a, found)
            settled.append(resolved[0])
            values.append(resolved[1])
            so_far.append(_many_input_value(spec, a, [b for b in found if b["t"] <= end])[1])
        out = max(settled)
        if out <= end and (start is None or out >= start):
            rows.append((a["id"], out, tuple(values)))
        elif include_waiting and out > end and a["t"] <= end and (start is None or end >= start):
            waiting = [
                final if at <= end else (now[0], 5) for at, final, now in zip(settled, values, so_far, strict=True)
            ]
            rows.append((a["id"], end, tuple(waiting)))
    return rows


def _many_input_value(spec: Mapping[str, Any], a: dict, found: list[dict]) -> tuple[int, tuple]:
    """(r_i, (value, code)) of one input of inc_join_many for an A row with these partners."""
    mw = spec["mw"]
    if spec.get("aggregate") is not None:
        fill = spec.get("null_fill") or {}
        aggregated = tuple(
            fill[name] if not found and name in fill else fn(found) for name, fn in spec["aggregate"].items()
        )
        return a["t"] + mw, (aggregated, 8 if found else 4)
    if not found:
        return a["t"] + mw, (None, 4)
    b = _chosen(found, spec["partner"], (), ("id",), lambda row: row["id"])
    delta = b["t"] - a["t"]
    settled = max(a["t"], b["t"]) if spec["partner"] == "first" else a["t"] + mw
    return settled, (b["id"], 1 if delta == 0 else (2 if delta < 0 else 3))


# ---------------------------------------------------------------------------------------------------------------
# Window sizing over a live history (suggest_windows): the A rows whose partners may not have arrived yet.
# Rows are dicts with ``k`` (key, None never matches) and ``t`` (arrival in whole units, None: unknown).


def sizing_watermark(a_rows: Sequence[dict], b_rows: Sequence[dict]) -> int | None:
    """min(latest arrival of A, latest arrival of B), None when either has no known arrival."""
    latest = [max((r["t"] for r in rows if r["t"] is not None), default=None) for rows in (a_rows, b_rows)]
    return None if None in latest else min(latest)  # type: ignore[type-var]


def _partner_deltas(a: dict, b_rows: Sequence[dict]) -> list[int]:
    """b − a for every B row of the A row's key, both arrivals known."""
    if a["k"] is None or a["t"] is None:
        return []
    return [b["t"] - a["t"] for b in b_rows if b["k"] == a["k"] and b["t"] is not None]


def censored_sizing(
    a_rows: Sequence[dict], b_rows: Sequence[dict], partner: str = "all"
) -> tuple[dict, int, int, int | None, int]:
    """What suggest_windows counts over a live history, by brute force: an A row counts only when its whole
    candidate window [a − max lb, a + max mw] lies at or before the watermark, i.e. a + reach ≤ watermark, with
    reach the largest max_waiting_time the suggestion considers (at least 0): the largest Δ = b − a of all pairs
    for partner 'all', the largest distance to the nearest partner at or after a for one row per A.

    Returns (counts, without_partner, left_out, watermark, reach): counts are pairs per Δ (partner 'all') or A
    rows per (before, after) of the nearest partners (one row per A); without_partner counts the kept A rows
    without any partner (0 for 'all'); left_out the A rows with a known arrival that are not kept."""
    watermark = sizing_watermark(a_rows, b_rows)
    known = [a for a in a_rows if a["t"] is not None]
    deltas = {id(a): _partner_deltas(a, b_rows) for a in known}
    if partner == "all":
        reach = max([0, *(d for found in deltas.values() for d in found)])
    else:
        reach = max([0, *(min(d for d in found if d >= 0) for found in deltas.values() if any(d >= 0 for d in found))])
    counts: dict = {}
    without_partner = left_out = 0
    for a in known:
        if watermark is None or a["t"] + reach > watermark:
            left_out += 1
            continue
        found = deltas[id(a)]
        if partner == "all":
            for d in found:
                counts[d] = counts.get(d, 0) + 1
        elif not found:
            without_partner += 1
        else:
            before = min((-d for d in found if d <= 0), default=None)
            after = min((d for d in found if d >= 0), default=None)
            counts[(before, after)] = counts.get((before, after), 0) + 1
    return counts, without_partner, left_out, watermark, reach


# ---------------------------------------------------------------------------------------------------------------
# Restated inputs (spec §14): the dbt life cycle by brute force. An input version is a sequence of row lists (A
# and B, or A and each input of inc_join_many); ``one_run(version, start, end)`` gives the oracle's rows of one
# run over ``[start, end]`` (a list of tuples, each with its output arrival at index 1), for example a wrapper of
# ``expected_rows`` or ``expected_many_rows``.

Version = Sequence[Sequence[dict]]
OneRun = Callable[[Version, int | None, int], list]


def loaded_by(version: Version, until: int) -> list[list[dict]]:
    """The rows each input holds once it is loaded up to ``until`` (rows without an arrival are always there)."""
    return [[r for r in rows if r["t"] is None or r["t"] <= until] for rows in version]


def _unit_contents(rows: Sequence[dict], unit: int) -> Counter:
    """The rows of one arrival unit as a multiset of whole rows: their order is no part of it."""
    return Counter(tuple(sorted(r.items())) for r in rows if r["t"] == unit)


def earliest_restated_unit(before: Version, after: Version, read_until: int) -> int | None:
    """The earliest unit ``<= read_until`` whose rows differ, in any input, between the two versions (None:
    none). Units after ``read_until`` were never read, and rows without an arrival belong to no unit."""
    assert len(before) == len(after)
    units = sorted({r["t"] for rows in (*before, *after) for r in rows if r["t"] is not None and r["t"] <= read_until})
    for unit in units:
        if any(_unit_contents(old, unit) != _unit_contents(new, unit) for old, new in zip(before, after, strict=True)):
            return unit
    return None


def committed_tiling(version: Version, one_run: OneRun, tiles: Sequence[tuple[int, int]]) -> list:
    """The table after a run per tile, in order, each over the rows loaded by its own end."""
    return [row for lo, hi in tiles for row in one_run(loaded_by(version, hi), lo, hi)]


def table_after_restatement_and_redo(
    before: Version,
    after: Version,
    one_run: OneRun,
    tiles: Sequence[tuple[int, int]],
    redo_end: int,
    redo_from: int | None = None,
) -> list:
    """The table of the dbt life cycle of spec §14: the runs of ``tiles`` (contiguous, in order) committed over
    ``before``; the inputs become ``after``; then a redo drops every row placed at or after ``u`` and writes one
    run over ``[u, redo_end]`` on ``after`` (loaded by ``redo_end``). ``u`` is the earliest restated unit (no
    earlier than the first tile's start; the unit after the last tile when nothing was restated), or
    ``redo_from`` when given (a test of a redo that starts elsewhere)."""
    start, read_until = tiles[0][0], tiles[-1][1]
    assert redo_end > read_until
    if redo_from is None:
        restated = earliest_restated_unit(before, after, read_until)
        redo_from = read_until + 1 if restated is None else max(restated, start)
    kept = [row for row in committed_tiling(before, one_run, tiles) if row[1] < redo_from]
    return kept + one_run(loaded_by(after, redo_end), redo_from, redo_end)


def table_after_warn_then_redo(
    before: Version,
    after: Version,
    one_run: OneRun,
    tiles: Sequence[tuple[int, int]],
    warn_end: int,
    redo_end: int,
) -> list:
    """spec §14's outstanding units: the runs of ``tiles`` committed over ``before``; the inputs become ``after``;
    a plain run (``warn``) over the next units up to ``warn_end`` commits as usual on ``after``, the restated units
    staying outstanding; then a redo from the earliest outstanding unit ``u`` drops every row placed at or after
    ``u`` (the warn run's among them) and writes one run over ``[u, redo_end]``."""
    start, read_until = tiles[0][0], tiles[-1][1]
    assert redo_end >= warn_end > read_until
    restated = earliest_restated_unit(before, after, read_until)
    table = committed_tiling(before, one_run, tiles) + one_run(loaded_by(after, warn_end), read_until + 1, warn_end)
    if restated is None:  # nothing outstanding: the next run goes on after the warn run
        return table + one_run(loaded_by(after, redo_end), warn_end + 1, redo_end)
    redo_from = max(restated, start)
    return [row for row in table if row[1] < redo_from] + one_run(loaded_by(after, redo_end), redo_from, redo_end)


# ---------------------------------------------------------------------------------------------------------------
# The files of a table partitioned by its arrival column (spec §14, the test restated_inputs): a listing is a list
# of files, each a dict {"path", "unit", "length", "modified"} (modified: epoch ms).


def changed_file_units(before: Sequence[dict], after: Sequence[dict], read_until: str) -> set[str]:
    """The units up to ``read_until`` whose files differ between two listings: a file added, removed, or written
    again (another size or modification time). Rows are not looked at: a unit whose files changed may hold the
    same rows (that is for the fingerprints to confirm)."""

    def files(listing: Sequence[dict], unit: str) -> Counter:
        return Counter((f["path"], f["length"], f["modified"]) for f in listing if f["unit"] == unit)

    units = {f["unit"] for f in (*before, *after) if f["unit"] <= read_until}
    return {unit for unit in units if files(before, unit) != files(after, unit)}
