"""A brute-force reference of spec §3, written straight from its table, independent of the package.

Times are whole units counted from an origin (ints); rows are dicts. Used to check the Spark core on
random data: every pair of rows is compared, no pre-filter, no join, no cleverness.
"""

from __future__ import annotations

from collections.abc import Iterable

CODES = {"inner": {1, 2, 3}, "left": {1, 2, 3, 4}, "full": {1, 2, 3, 4, 6}, "left_anti": {4}}

# An output row: (key, out_time, a_id, b_id, code, diff, waiting)
OutRow = tuple[int | None, int, int | None, int | None, int, int | None, int | None]


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
) -> list[OutRow]:
    """Rows of one run over ``[start, end]`` (start None: unbounded). Rows with time None are excluded."""
    a_rows = [r for r in a_rows if r["t"] is not None]
    b_rows = [r for r in b_rows if r["t"] is not None]

    def partners(a):
        return [b for b in b_rows if a["k"] is not None and a["k"] == b["k"] and a["t"] - lb <= b["t"] <= a["t"] + mw]

    rows: list[OutRow] = []
    for a in a_rows:
        found = partners(a)
        for b in found:
            delta = b["t"] - a["t"]
            code = 1 if delta == 0 else (2 if delta < 0 else 3)
            rows.append((a["k"], a["t"] if delta <= 0 else b["t"], a["id"], b["id"], code, delta, None))
        if not found:
            rows.append((a["k"], a["t"] + mw, a["id"], None, 4, None, mw))
        if include_waiting and end - mw < a["t"] <= end and not [b for b in found if b["t"] <= end]:
            rows.append((a["k"], end, a["id"], None, 5, None, end - a["t"]))
    for b in b_rows:
        claimed = [
            a for a in a_rows if a["k"] is not None and a["k"] == b["k"] and b["t"] - mw <= a["t"] <= b["t"] + lb
        ]
        if not claimed:
            rows.append((b["k"], b["t"] + lb, None, b["id"], 6, None, lb))

    codes = set(CODES[how]) | ({5} if include_waiting and how != "inner" else set())
    return [r for r in rows if r[4] in codes and r[1] <= end and (start is None or r[1] >= start)]
