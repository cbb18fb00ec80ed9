"""The pure rules for one row per A (sizing/nearest.py): the 2-D coverage of A rows by their nearest partners,
the minimal window and its ties, against brute force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dbt_inc_join.sizing import (
    QUANTILE_LEVELS,
    covered_a_row_share,
    covered_a_rows,
    minimal_a_row_window,
    normalise_nearest,
    suggest_from_nearest,
)

from .sizing_history import HAND_NEAREST

pytestmark = pytest.mark.one_engine  # engine-independent: `make test` runs it on Spark 4 only

# --- one row per A: the pure rules on hand-made nearest-partner histograms ---------------------------------


@pytest.mark.parametrize(
    "nearest, coverage, expected",
    [
        (HAND_NEAREST, 1.0, (0, 10)),
        (HAND_NEAREST, 0.75, (1, 0)),  # 3 of 4: (1, 0) and (0, 1) tie at 1; smaller mw
        (HAND_NEAREST, 0.5, (0, 0)),  # 2 of 4: the two A rows with a partner at a itself
        ({(0, None): 3, (None, 2): 1}, 0.75, (0, 0)),  # 3 of 4: the partners at a
        ({(0, None): 3, (None, 2): 1}, 1.0, (0, 2)),
        ({(3, None): 1, (None, 3): 1}, 0.5, (3, 0)),  # (3, 0) and (0, 3) tie: waiting costs latency
        # 5 of 5: (None, 1) needs mw ≥ 1; then (2, 5) needs lb ≥ 2 or mw ≥ 5: (2, 1) sums 3, (0, 5) sums 5
        ({(2, 5): 4, (None, 1): 1}, 1.0, (2, 1)),
        ({(2, 5): 4, (None, 1): 1}, 0.8, (2, 0)),  # 4 of 5: lb = 2 alone, sum 2 (mw = 1 keeps only 1)
        ({(4, 0): 2, (None, 3): 2}, 0.5, (0, 0)),  # 2 of 4: a partner at a keeps the row at mw = 0
        # 3 of 4: an A row counts once however many sides cover it: (2, 1) keeps rows 1-3 at sum 3
        ({(2, 1): 1, (2, 9): 1, (7, 1): 1, (None, 9): 1}, 0.75, (2, 1)),
        ({(0, None): 7, (None, 5): 93}, 0.07, (0, 0)),  # exactly 7 of 100
        ({(0, None): 7, (None, 5): 93}, 0.071, (0, 5)),
        ({}, 0.999, (0, 0)),
    ],
)
def test_minimal_a_row_window(nearest, coverage, expected):
    assert minimal_a_row_window(nearest, coverage) == expected


def test_covered_a_rows_counts_each_a_row_once():
    nearest = {(2, 1): 1, (2, 9): 1, (7, 1): 1, (None, 9): 1}
    assert covered_a_rows(nearest, 2, 1) == 3  # not 4: the first A row has both sides in the window
    assert covered_a_rows(nearest, 0, 0) == 0
    assert covered_a_rows(nearest, 7, 0) == 3
    assert covered_a_rows(nearest, 0, 9) == 4
    assert covered_a_row_share(nearest, 2, 1) == 0.75
    assert covered_a_row_share({}, 0, 0) == 1.0


def test_nearest_histogram_is_checked():
    assert list(normalise_nearest({(None, 3): 1, (2, None): 1, (2, 0): 0, (0, 5): 2})) == [(0, 5), (2, None), (None, 3)]
    with pytest.raises(ValueError, match=r"inc_join: nearest-partner \(None, None\) is an A row without partner"):
        minimal_a_row_window({(None, None): 1}, 0.5)
    with pytest.raises(ValueError, match=r"inc_join: nearest-partner distance must not be negative \(got -1 at"):
        minimal_a_row_window({(-1, 2): 1}, 0.5)
    with pytest.raises(TypeError, match=r"inc_join: nearest-partner A row count must be a whole number \(got 1.5\)"):
        minimal_a_row_window({(1, 2): 1.5}, 0.5)
    with pytest.raises(ValueError, match=r"inc_join: suggest_from_nearest counts A rows; partner='all' counts pairs"):
        suggest_from_nearest({(1, 2): 1}, 0.5, partner="all")
    with pytest.raises(ValueError, match=r"^inc_join: partner='x' is not supported; accepted values: 'all', 'first'"):
        suggest_from_nearest({(1, 2): 1}, 0.5, partner="x")


def brute_force_a_row_window(nearest, permille):
    """Every (lb, mw) of the allowed ranges; the smallest (lb + mw, mw) keeping ≥ permille/1000 of the A rows."""
    n = sum(nearest.values())
    best = None
    for lb in range(0, max([b for b, _ in nearest if b is not None], default=0) + 1):
        for mw in range(0, max([a for _, a in nearest if a is not None], default=0) + 1):
            kept = sum(c for (b, a), c in nearest.items() if (b is not None and b <= lb) or (a is not None and a <= mw))
            if kept * 1000 >= permille * n and (best is None or (lb + mw, mw) < (best[0] + best[1], best[1])):
                best = (lb, mw)
    return best


distances = st.one_of(st.none(), st.integers(0, 30))
nearest_histograms = st.dictionaries(
    st.tuples(distances, distances).filter(lambda point: point != (None, None)),
    st.integers(1, 30),
    min_size=1,
    max_size=20,
)


@settings(max_examples=25 * settings().max_examples, deadline=None)
@given(nearest=nearest_histograms, permille=st.integers(1, 1000))
def test_minimal_a_row_window_equals_brute_force(nearest, permille):
    assert minimal_a_row_window(nearest, permille / 1000) == brute_force_a_row_window(nearest, permille)


@settings(max_examples=12 * settings().max_examples, deadline=None)
@given(nearest=nearest_histograms, permille=st.integers(1, 1000))
def test_a_row_suggestion_agrees_with_the_listed_a_rows(nearest, permille):
    rows = [point for point, c in nearest.items() for _ in range(c)]
    s = suggest_from_nearest(nearest, permille / 1000, partner="last", without_partner=5)
    before = sorted(b for b, _ in rows if b is not None)
    after = sorted(a for _, a in rows if a is not None)
    assert (s.count, s.without_partner, s.before, s.after) == (len(rows), 5, len(before), len(after))
    for side, found in ((before, s.before_quantiles), (after, s.after_quantiles)):
        rank = {p: max(1, -(-round(p * 1000) * len(side) // 1000)) for p in QUANTILE_LEVELS}
        assert found == ({p: side[rank[p] - 1] for p in QUANTILE_LEVELS} if side else {})
    for c in s.candidates:
        assert (c.look_back_time, c.max_waiting_time) == brute_force_a_row_window(nearest, round(c.target * 1000))
        kept = sum(
            1
            for b, a in rows
            if (b is not None and b <= c.look_back_time) or (a is not None and a <= c.max_waiting_time)
        )
        assert c.lost == 1 - kept / len(rows)
