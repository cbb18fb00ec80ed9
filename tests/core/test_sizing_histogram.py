"""The pure rules on the histogram of Δ (sizing/histogram.py): quantiles by nearest rank, the minimal window
and its ties, against brute force, and what late_match_time would bring back (spec §10)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dbt_inc_join.sizing import (
    QUANTILE_LEVELS,
    LateMatchShare,
    covered_share,
    late_match_shares,
    late_match_values,
    minimal_window,
    quantiles,
    suggest_from_histogram,
)
from dbt_inc_join.sql_text import render

from .sizing_history import HAND_HISTOGRAM, HAND_QUANTILES

pytestmark = pytest.mark.one_engine  # engine-independent: `make test` runs it on Spark 4 only

# --- the pure rules on hand-made histograms ----------------------------------------------------------------


@pytest.mark.parametrize(
    "histogram, coverage, expected",
    [
        (HAND_HISTOGRAM, 1.0, (4, 10)),
        (HAND_HISTOGRAM, 0.875, (4, 2)),  # 7 of 8: drop 10 (sum 6), not −4 (sum 13)
        (HAND_HISTOGRAM, 0.75, (4, 1)),  # 6 of 8: (3, 2) and (4, 1) tie at 5; smaller mw
        (HAND_HISTOGRAM, 0.5, (1, 1)),  # 4 of 8: (1, 1) = {−1, 0, 0, 1} and (0, 2) = {0, 0, 1, 2} tie at 2
        (HAND_HISTOGRAM, 0.1, (0, 0)),  # 1 of 8: Δ = 0 alone
        ({-3: 1, 0: 2, 3: 1}, 0.75, (3, 0)),  # (3, 0) and (0, 3) tie: waiting costs latency
        ({-2: 5, 0: 10, 3: 5}, 0.75, (2, 0)),
        ({-5: 3, -2: 1}, 0.7, (5, 0)),  # only negative Δ: mw stays 0; 3 of 4 needs −5
        ({4: 2}, 0.5, (0, 4)),  # only positive Δ: lb stays 0
        ({0: 7, 5: 93}, 0.07, (0, 0)),  # exactly 7 of 100: 0.07 · 100 is 7, not 7.000000000000001
        ({0: 7, 5: 93}, 0.071, (0, 5)),
    ],
)
def test_minimal_window(histogram, coverage, expected):
    assert minimal_window(histogram, coverage) == expected


def test_minimal_window_on_a_wide_dense_histogram():
    # Its speed is the benchmark's business; here only its answer.
    histogram = {delta: 1 for delta in range(-10_000, 10_001)}
    # 20001 pairs; 0.5 needs ceil(10000.5) = 10001 consecutive distances: lb + mw = 10000, mw as small as possible.
    assert minimal_window(histogram, 0.5) == (10_000, 0)
    assert minimal_window(histogram, 1.0) == (10_000, 10_000)


def test_quantiles_are_nearest_rank_on_exact_decimals():
    assert quantiles(HAND_HISTOGRAM) == HAND_QUANTILES
    # 0.07 · 100 is exactly rank 7 (the last 0); floating point would say 7.000000000000001 → rank 8. A share
    # below 0.0001 reads 1.5e-05: its exponent counts too.
    assert [render("_required_pairs", share, 100) for share in (0.07, 0.071)] == [7, 8]
    assert [render("_required_pairs", share, 10**6) for share in (1e-05, 1.5e-05, 1.5e-07)] == [10, 15, 1]
    assert quantiles({}) == {}
    assert quantiles({3: 1}) == {p: 3 for p in QUANTILE_LEVELS}


def test_covered_share_and_empty_histogram():
    assert covered_share(HAND_HISTOGRAM, 1, 1) == 4 / 8
    assert covered_share(HAND_HISTOGRAM, 0, 0) == 2 / 8
    assert covered_share({}, 0, 0) == 1.0
    s = suggest_from_histogram({}, 0.9)
    assert (s.count, s.look_back_time, s.max_waiting_time, s.candidates) == (0, 0, 0, ())


def test_requested_coverage_joins_the_candidate_targets_once():
    assert [c.target for c in suggest_from_histogram(HAND_HISTOGRAM, 0.99).candidates] == [0.9, 0.99, 0.999, 1.0]
    assert [c.target for c in suggest_from_histogram(HAND_HISTOGRAM, 0.5).candidates] == [0.5, 0.9, 0.99, 0.999, 1.0]


def test_histogram_is_checked():
    with pytest.raises(ValueError, match=r"inc_join: histogram pair count must not be negative \(got -1 at Δ=2\)"):
        minimal_window({2: -1}, 0.5)
    with pytest.raises(TypeError, match=r"inc_join: histogram arrival distance must be a whole number \(got 1.5\)"):
        minimal_window({1.5: 1}, 0.5)


# --- properties against brute force ------------------------------------------------------------------------


def brute_force_window(histogram, permille):
    """Every (lb, mw) of the allowed ranges; the smallest (lb + mw, mw) keeping ≥ permille/1000 of the pairs."""
    n = sum(histogram.values())
    best = None
    for lb in range(0, max(0, -min(histogram)) + 1):
        for mw in range(0, max(0, max(histogram)) + 1):
            kept = sum(c for d, c in histogram.items() if -lb <= d <= mw)
            if kept * 1000 >= permille * n and (best is None or (lb + mw, mw) < (best[0] + best[1], best[1])):
                best = (lb, mw)
    return best


histograms = st.dictionaries(st.integers(-40, 40), st.integers(1, 30), min_size=1, max_size=25)


@settings(max_examples=25 * settings().max_examples, deadline=None)
@given(histogram=histograms, permille=st.integers(1, 1000))
def test_minimal_window_equals_brute_force(histogram, permille):
    assert minimal_window(histogram, permille / 1000) == brute_force_window(histogram, permille)


@settings(max_examples=19 * settings().max_examples, deadline=None)
@given(histogram=histograms, permille=st.integers(1, 1000))
def test_suggestion_agrees_with_the_sorted_pairs(histogram, permille):
    pairs = sorted(d for d, c in histogram.items() for _ in range(c))
    n = len(pairs)
    s = suggest_from_histogram(histogram, permille / 1000)
    assert (s.count, s.minimum, s.maximum) == (n, pairs[0], pairs[-1])
    # every level is a whole number of thousandths: rank = max(1, ceil(level_permille · n / 1000)), exactly
    assert s.quantiles == {p: pairs[max(1, -(-round(p * 1000) * n // 1000)) - 1] for p in QUANTILE_LEVELS}
    kept = sum(1 for d in pairs if -s.look_back_time <= d <= s.max_waiting_time)
    assert kept * 1000 >= permille * n and s.covered == kept / n
    for c in s.candidates:
        assert (c.look_back_time, c.max_waiting_time) == brute_force_window(histogram, round(c.target * 1000))
        assert c.lost == 1 - sum(1 for d in pairs if -c.look_back_time <= d <= c.max_waiting_time) / n


# --- spec §10: what late_match_time would bring back ------------------------------------------------------------


def test_late_match_shares_count_the_pairs_just_after_the_window():
    # Δ: 3 pairs at -1, 5 at 0, 2 at 3, 1 at 4, 4 at 6, 1 at 9 (16 pairs); window mw = 3
    histogram = {-1: 3, 0: 5, 3: 2, 4: 1, 6: 4, 9: 1}
    assert late_match_values(3) == (1, 3, 6)
    assert late_match_shares(histogram, 3) == (
        LateMatchShare(1, 1, 1 / 16),  # Δ = 4
        LateMatchShare(3, 5, 5 / 16),  # Δ = 4, 6
        LateMatchShare(6, 6, 6 / 16),  # Δ = 4, 6, 9
    )
    assert late_match_values(0) == (1,)


def test_suggestion_counts_late_matches_for_the_window_in_use_or_the_suggested_one():
    histogram = {-1: 3, 0: 5, 3: 2, 4: 1, 6: 4, 9: 1}
    suggested = suggest_from_histogram(histogram, coverage=0.5)
    assert suggested.late_window == (suggested.look_back_time, suggested.max_waiting_time) == (1, 0)  # 8 of 16
    in_use = suggest_from_histogram(histogram, coverage=0.5, window=(1, 3))
    assert in_use.late_window == (1, 3)
    assert [m.pairs for m in in_use.late_matches] == [1, 5, 6]
    report = in_use.report()
    assert "late matches with look_back_time=1, max_waiting_time=3: pairs with 3 < Δ ≤ 3 + late_match_time" in report
    assert report.splitlines()[-1].split() == ["6", "6", "37.5%"]
