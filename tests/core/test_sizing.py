"""suggest_windows: the histogram of Δ on real Spark, and the pure rules on it (quantiles, minimal window, ties);
for one row per A (partner first, last, aggregate) the nearest partners and the 2-D coverage of A rows.

Every expected number below is computed by hand in the comments, or by a brute-force search written here."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dbt_inc_join import suggest_windows
from dbt_inc_join.sizing import (
    QUANTILE_LEVELS,
    ARowWindowSuggestion,
    LateMatchShare,
    WindowCandidate,
    covered_a_row_share,
    covered_a_rows,
    covered_share,
    delta_histogram,
    late_match_shares,
    late_match_values,
    minimal_a_row_window,
    minimal_window,
    nearest_partners,
    normalise_nearest,
    quantiles,
    suggest_from_histogram,
    suggest_from_nearest,
)
from dbt_inc_join.time_units import TimeUnit

from .frames import side_frame

# Days after an origin; jitter puts some arrivals late in their day (hours), which truncation must ignore.
A_ROWS = [
    dict(id=1, k=1, t=5),
    dict(id=2, k=1, t=6, jitter=23),  # duplicate key: each A pairs with each B of k=1
    dict(id=3, k=2, t=5),
    dict(id=4, k=None, t=5),  # NULL key never pairs
    dict(id=5, k=3, t=None),  # NULL arrival never pairs
    dict(id=6, k=4, t=5),
    dict(id=7, k=5, t=8, jitter=22),
    dict(id=8, k=6, t=3),  # no B
]
B_ROWS = [
    dict(id=11, k=1, t=5, jitter=1),
    dict(id=12, k=1, t=7),
    dict(id=13, k=1, t=2),
    dict(id=14, k=2, t=15),
    dict(id=15, k=None, t=5),
    dict(id=16, k=3, t=5),
    dict(id=17, k=4, t=None),
    dict(id=18, k=5, t=8, jitter=1),
    dict(id=19, k=7, t=1),  # no A
]
# a=5 (k=1): 0, 2, −3; a=6 (k=1): −1, 1, −4; k=2: 10; k=5: 0 (22:00 vs 01:00 of the same day).
HAND_HISTOGRAM = {-4: 1, -3: 1, -1: 1, 0: 2, 1: 1, 2: 1, 10: 1}
# n = 8, sorted: −4 −3 −1 0 0 1 2 10. Ranks max(1, ceil(8p)): 1 1 1 2 4 6 8 8 8.
HAND_QUANTILES = {0.001: -4, 0.01: -4, 0.05: -4, 0.25: -3, 0.5: 0, 0.75: 1, 0.95: 10, 0.99: 10, 0.999: 10}


@pytest.fixture(scope="module")
def frames(spark):
    return (
        side_frame(spark, A_ROWS, "a", "day", "timestamp").cache(),
        side_frame(spark, B_ROWS, "b", "day", "timestamp").cache(),
    )


def test_distribution_of_a_hand_made_history(frames):
    s = suggest_windows(*frames, join_cols="k", coverage=0.75)
    assert s.histogram == HAND_HISTOGRAM
    assert (s.count, s.minimum, s.maximum) == (8, -4, 10)
    assert s.quantiles == HAND_QUANTILES
    # Need 6 of 8. (3, 2) drops −4 and 10; (4, 1) drops 2 and 10: both sum 5, the smaller mw wins.
    assert (s.look_back_time, s.max_waiting_time, s.covered) == (4, 1, 0.75)
    # 0.9 and above need all 8 pairs (ceil(7.2) = 8): the whole range [−4, +10].
    assert s.candidates == (
        WindowCandidate(0.75, 4, 1, 0.25),
        WindowCandidate(0.9, 4, 10, 0.0),
        WindowCandidate(0.99, 4, 10, 0.0),
        WindowCandidate(0.999, 4, 10, 0.0),
        WindowCandidate(1.0, 4, 10, 0.0),
    )
    report = s.report()
    assert "8 partner pairs" in report
    assert "look_back_time=4, max_waiting_time=1" in report
    assert "keeps 75% of the pairs, loses 2" in report
    assert [line.split() for line in report.splitlines() if line.strip().startswith(("75%", "90%"))] == [
        ["75%", "4", "1", "25%", "2"],
        ["90%", "4", "10", "0%", "0"],
    ]


def test_the_report_of_pairs_is_unchanged(frames):
    # partner='all' (the default) prints what it printed before one row per A came, then the late matches (spec
    # §10); every number is above.
    assert suggest_windows(*frames, join_cols="k", coverage=0.75, partner="all").report() == (
        "inc_join window sizing: 8 partner pairs, Δ = b − a in days\n"
        "  Δ from -4 to 10 days\n"
        "  quantile  0.1%  1%  5%  25%  50%  75%  95%  99%  99.9%\n"
        "  Δ           -4  -4  -4   -3    0    1   10   10     10\n"
        "suggested for coverage 75%: look_back_time=4, max_waiting_time=1 (window [−4, +1] keeps 75% of the pairs, "
        "loses 2)\n"
        "  coverage  look_back_time  max_waiting_time  lost  lost pairs\n"
        "  75%                    4                 1   25%           2\n"
        "  90%                    4                10    0%           0\n"
        "  99%                    4                10    0%           0\n"
        "  99.9%                  4                10    0%           0\n"
        "  100%                   4                10    0%           0\n"
        # spec §10: HAND_HISTOGRAM has one pair (of 8) at Δ = 2, in (1, 1 + L] for L = 1 and 2
        "late matches with look_back_time=4, max_waiting_time=1: pairs with 1 < Δ ≤ 1 + late_match_time (late "
        "matches when their A row has no partner in the window)\n"
        "  late_match_time  pairs  share\n"
        "  1                    1  12.5%\n"
        "  2                    1  12.5%"
    )


# One row per A on the same history. A rows with a known arrival: 1, 2, 3, 4, 6, 7, 8 (5 has none).
#   1 (k=1, a=5): B at 5, 7, 2 → nearest at or before: 5 (a − b = 0); at or after: 5 (b − a = 0)
#   2 (k=1, a=6): B at 5, 7, 2 → before: 5 (1); after: 7 (1)
#   3 (k=2, a=5): B at 15 → before: none; after: 10
#   7 (k=5, a=8 at 22:00): B at 8 (01:00) → (0, 0)
#   4 (NULL key), 6 (k=4: its B has no arrival), 8 (k=6: no B): no partner at all
HAND_NEAREST = {(0, 0): 2, (1, 1): 1, (None, 10): 1}


def test_one_row_per_a_of_a_hand_made_history(frames):
    for partner in ("first", "last", "aggregate"):
        s = suggest_windows(*frames, join_cols="k", coverage=0.75, partner=partner)
        assert isinstance(s, ARowWindowSuggestion)
        assert (s.partner, s.nearest, s.count, s.without_partner) == (partner, HAND_NEAREST, 4, 3)
        # before: 0 0 1 (n = 3, ranks 1 1 1 1 2 3 3 3 3); after: 0 0 1 10 (n = 4, ranks 1 1 1 1 2 3 4 4 4)
        assert (s.before, s.after) == (3, 4)
        assert list(s.before_quantiles.values()) == [0, 0, 0, 0, 0, 1, 1, 1, 1]
        assert list(s.after_quantiles.values()) == [0, 0, 0, 0, 0, 1, 10, 10, 10]
        # 3 of 4 A rows: (1, 0) and (0, 1) both keep rows 1, 2, 7 at sum 1; the smaller mw wins. All 4 need
        # mw = 10 for row 3, and then lb = 0 does: (0, 10), where the pairs needed (4, 10).
        assert (s.look_back_time, s.max_waiting_time, s.covered) == (1, 0, 0.75)
        assert s.candidates == (
            WindowCandidate(0.75, 1, 0, 0.25),
            WindowCandidate(0.9, 0, 10, 0.0),
            WindowCandidate(0.99, 0, 10, 0.0),
            WindowCandidate(0.999, 0, 10, 0.0),
            WindowCandidate(1.0, 0, 10, 0.0),
        )
    assert s.report() == (
        "inc_join window sizing, partner='aggregate': 4 A rows with a partner, distances in days "
        "(counts A rows, not pairs)\n"
        "  3 A rows without any partner of equal keys are left out: no window gives them one\n"
        "  an A row is kept when at least one partner arrives in [a − lb, a + mw], else it times out\n"
        "  nearest partner        A rows  0.1%  1%  5%  25%  50%  75%  95%  99%  99.9%\n"
        "  at or before a: a − b       3     0   0   0    0    0    1    1    1      1\n"
        "  at or after a: b − a        4     0   0   0    0    0    1   10   10     10\n"
        "suggested for coverage 75%: look_back_time=1, max_waiting_time=0 (window [−1, 0] keeps 75% of the A rows, "
        "loses 1)\n"
        "  coverage  look_back_time  max_waiting_time  lost  lost A rows\n"
        "  75%                    1                 0   25%            1\n"
        "  90%                    0                10    0%            0\n"
        "  99%                    0                10    0%            0\n"
        "  99.9%                  0                10    0%            0\n"
        "  100%                   0                10    0%            0"
    )


def test_one_row_per_a_without_any_partner(spark, frames):
    df_b = spark.sql("SELECT 99 AS k, TIMESTAMP'2025-03-06 00:00:00' AS RecDate")
    s = suggest_windows(frames[0], df_b, join_cols="k", partner="first")
    # the 7 A rows with a known arrival have no partner
    assert (s.count, s.without_partner, s.nearest, s.candidates) == (0, 7, {}, ())
    assert (s.look_back_time, s.max_waiting_time, s.covered) == (0, 0, 1.0)
    assert s.report().splitlines()[1:] == [
        "  7 A rows without any partner of equal keys are left out: no window gives them one",
        "  no A row has a partner: no key occurs in both inputs with both arrivals known, so the history says "
        "nothing about the window; lb = mw = 0 is a placeholder",
        "  suggested: look_back_time=0, max_waiting_time=0",
    ]


def test_keys_and_arrival_names_are_resolved_like_inc_join(spark):
    df_a = spark.sql("SELECT 1 AS `Trx Id`, 'x' AS region, DATE'2025-03-06' AS `Rec Date`")
    df_b = spark.sql("SELECT 1 AS `trx id`, 'x' AS REGION, DATE'2025-03-09' AS `rec date`")
    s = suggest_windows(df_a, df_b, join_cols=["Trx Id", "region"], inc_col="Rec Date", coverage=1)
    assert (s.histogram, s.look_back_time, s.max_waiting_time) == ({3: 1}, 0, 3)


@pytest.mark.parametrize(
    "unit, expected",
    [
        # 23:30→00:10 next day, 22:59:59→01:00, 00:45→23:15 the day before, 23:05→23:55
        ("hour", {1: 1, 3: 1, -1: 1, 0: 1}),
        ("minute", {40: 1, 121: 1, -90: 1, 50: 1}),
    ],
)
def test_hours_and_minutes_across_midnight(spark, unit, expected):
    df_a = spark.sql(
        "SELECT * FROM VALUES (1, TIMESTAMP'2025-03-01 23:30:00'), (2, TIMESTAMP'2025-03-01 22:59:59'),"
        " (3, TIMESTAMP'2025-03-02 00:45:00'), (4, TIMESTAMP'2025-03-01 23:05:00') AS t(k, RecDate)"
    )
    df_b = spark.sql(
        "SELECT * FROM VALUES (1, TIMESTAMP'2025-03-02 00:10:00'), (2, TIMESTAMP'2025-03-02 01:00:00'),"
        " (3, TIMESTAMP'2025-03-01 23:15:00'), (4, TIMESTAMP'2025-03-01 23:55:00') AS t(k, RecDate)"
    )
    s = suggest_windows(df_a, df_b, join_cols="k", time_uom=unit, coverage=1.0)
    assert s.histogram == expected
    assert (s.look_back_time, s.max_waiting_time) == (-min(expected), max(expected))
    assert f"in {unit}s" in s.report()


def test_no_pairs_is_a_suggestion_not_an_error(spark, frames):
    df_b = spark.sql("SELECT 99 AS k, TIMESTAMP'2025-03-06 00:00:00' AS RecDate")
    s = suggest_windows(frames[0], df_b, join_cols="k")
    assert (s.count, s.minimum, s.maximum, s.quantiles, s.candidates) == (0, None, None, {}, ())
    assert (s.look_back_time, s.max_waiting_time, s.histogram) == (0, 0, {})
    assert "no partner pairs" in s.note and "no partner pairs" in s.report()
    assert suggest_windows(frames[0].where("false"), frames[1].where("false"), join_cols="k").count == 0


BAD_ARGUMENTS = [
    (
        dict(coverage=0),
        ValueError,
        r"inc_join: coverage must be in \(0, 1\], the share of partner pairs the window keeps \(got 0\)",
    ),
    (dict(coverage=1.5), ValueError, r"inc_join: coverage must be in \(0, 1\].* \(got 1.5\)"),
    (dict(coverage=float("nan")), ValueError, r"inc_join: coverage must be in \(0, 1\].* \(got nan\)"),
    (dict(coverage="0.9"), TypeError, r"inc_join: coverage must be a number in \(0, 1\], e.g. 0.999 \(got str '0.9'\)"),
    (dict(coverage=True), TypeError, r"inc_join: coverage must be a number in \(0, 1\], e.g. 0.999 \(got bool True\)"),
    (
        dict(join_cols="nope"),
        ValueError,
        r"inc_join: join_cols column 'nope' is missing from df_a; its columns are 'id', 'k'",
    ),
    (dict(inc_col="a_val"), ValueError, r"inc_join: inc_col column 'a_val' is missing from df_b"),
    (dict(inc_col="id"), TypeError, r"inc_join: inc_col 'id' of df_a is INT; it must be DATE or TIMESTAMP"),
    (
        dict(time_uom="week"),
        ValueError,
        r"inc_join: time_uom='week' is not supported; accepted values: 'day', 'hour', 'minute'",
    ),
    (
        dict(partner="x"),
        ValueError,
        r"^inc_join: partner='x' is not supported; accepted values: 'all', 'first', 'last', 'aggregate'\.$",
    ),
    (
        dict(partner=None),
        ValueError,
        r"^inc_join: partner=None is not supported; accepted values: 'all', 'first', 'last', 'aggregate'\.$",
    ),
]


@pytest.mark.parametrize(
    "kwargs, error, pattern", BAD_ARGUMENTS, ids=[f"{next(iter(c[0]))}-{i}" for i, c in enumerate(BAD_ARGUMENTS)]
)
def test_bad_argument_is_named_before_any_spark_job(spark, frames, kwargs, error, pattern):
    arguments = dict(join_cols="k")
    arguments.update(kwargs)
    group = f"sizing-validation-{abs(hash(pattern))}"
    spark.sparkContext.setJobGroup(group, "validation must not run jobs")
    try:
        with pytest.raises(error, match=pattern):
            suggest_windows(*frames, **arguments)
    finally:
        spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
    assert list(spark.sparkContext.statusTracker().getJobIdsForGroup(group)) == []


def test_hour_needs_timestamps(spark):
    df = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    with pytest.raises(TypeError, match=r"time_uom='hour' needs a TIMESTAMP arrival column"):
        suggest_windows(df, df, join_cols="k", time_uom="hour")


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


def test_minimal_window_on_a_wide_dense_histogram_is_fast():
    histogram = {delta: 1 for delta in range(-10_000, 10_001)}
    started = time.perf_counter()
    # 20001 pairs; 0.5 needs ceil(10000.5) = 10001 consecutive distances: lb + mw = 10000, mw as small as possible.
    assert minimal_window(histogram, 0.5) == (10_000, 0)
    assert minimal_window(histogram, 1.0) == (10_000, 10_000)
    assert time.perf_counter() - started < 2.0


def test_quantiles_are_nearest_rank_on_exact_decimals():
    assert quantiles(HAND_HISTOGRAM) == HAND_QUANTILES
    # 0.07 · 100 is exactly rank 7 (the last 0); floating point would say 7.000000000000001 → rank 8.
    assert quantiles({0: 7, 5: 93}, levels=(0.07, 0.071)) == {0.07: 0, 0.071: 5}
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


@settings(max_examples=400, deadline=None)
@given(histogram=histograms, permille=st.integers(1, 1000))
def test_minimal_window_equals_brute_force(histogram, permille):
    assert minimal_window(histogram, permille / 1000) == brute_force_window(histogram, permille)


@settings(max_examples=300, deadline=None)
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


@settings(max_examples=400, deadline=None)
@given(nearest=nearest_histograms, permille=st.integers(1, 1000))
def test_minimal_a_row_window_equals_brute_force(nearest, permille):
    assert minimal_a_row_window(nearest, permille / 1000) == brute_force_a_row_window(nearest, permille)


@settings(max_examples=200, deadline=None)
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


# --- the histograms from counts against every pair of rows (Spark) -----------------------------------------


def random_history(seed):
    """Rows of A and B with two hot keys (dozens of rows on 5 arrivals), rare keys, NULL keys and arrivals;
    jitter puts rows anywhere inside their unit (frames.moment), so t is the truncated arrival."""
    rng = random.Random(seed)
    return [
        [
            dict(
                id=i,
                k=(k := rng.choice([1, 1, 1, 2, 2, 3, 4, 5, 6, None])),
                t=None if rng.random() < 0.05 else rng.randint(0, 4) if k in (1, 2) else rng.randint(0, 15),
                jitter=rng.randint(0, 59),
            )
            for i in range(rng.randint(60, 120))
        ]
        for _side in ("a", "b")
    ]


def brute_force_pairs(rows_a, rows_b):
    """Δ of every pair of rows with equal keys (not NULL) and both arrivals known."""
    return Counter(
        rb["t"] - ra["t"]
        for ra in rows_a
        for rb in rows_b
        if ra["k"] is not None and ra["k"] == rb["k"] and ra["t"] is not None and rb["t"] is not None
    )


def brute_force_nearest(rows_a, rows_b):
    """Per A row (arrival known): the nearest partner at or before and at or after a; and those without any."""
    nearest, without = Counter(), 0
    for ra in rows_a:
        if ra["t"] is None:
            continue
        deltas = [
            rb["t"] - ra["t"] for rb in rows_b if ra["k"] is not None and rb["k"] == ra["k"] and rb["t"] is not None
        ]
        if not deltas:
            without += 1
            continue
        before = min((-d for d in deltas if d <= 0), default=None)
        after = min((d for d in deltas if d >= 0), default=None)
        nearest[(before, after)] += 1
    return dict(nearest), without


@pytest.mark.parametrize("seed, unit", [(1, "day"), (2, "hour"), (3, "minute")])
def test_histograms_from_counts_equal_every_pair(spark, seed, unit):
    rows_a, rows_b = random_history(seed)
    df_a = side_frame(spark, rows_a, "a", unit, "timestamp")
    df_b = side_frame(spark, rows_b, "b", unit, "timestamp")
    keys, inc_cols, time_unit = [("k", "k")], ("RecDate", "RecDate"), TimeUnit(unit)
    expected = brute_force_pairs(rows_a, rows_b)
    assert max(expected.values()) > 100  # the hot keys make bins of many pairs from few arrivals
    assert delta_histogram(df_a, df_b, keys, inc_cols, time_unit) == dict(expected)
    assert nearest_partners(df_a, df_b, keys, inc_cols, time_unit) == brute_force_nearest(rows_a, rows_b)
    s = suggest_windows(df_a, df_b, join_cols="k", time_uom=unit)
    assert (s.histogram, s.count) == (dict(sorted(expected.items())), sum(expected.values()))


def test_a_hot_key_costs_its_arrivals_not_its_pairs(spark):
    # One key, 200,000 rows on each side over 10 days: 4·10^10 pairs, which no pairwise join would finish.
    # Δ = d comes from the 10 − |d| day pairs (a, a + d), each 20,000 × 20,000 = 4·10^8 pairs.
    rows = spark.range(200_000).selectExpr("1 AS k", "date_add(DATE'2025-03-01', CAST(id % 10 AS INT)) AS RecDate")
    s = suggest_windows(rows, rows, join_cols="k", coverage=1.0)
    assert s.histogram == {d: (10 - abs(d)) * 400_000_000 for d in range(-9, 10)}
    assert (s.count, s.look_back_time, s.max_waiting_time) == (40_000_000_000, 9, 9)
    # one row per A: every A row has a partner on its own day
    r = suggest_windows(rows, rows, join_cols="k", coverage=1.0, partner="first")
    assert (r.nearest, r.count, r.look_back_time, r.max_waiting_time) == ({(0, 0): 200_000}, 200_000, 0, 0)


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


def test_suggest_windows_takes_both_window_lengths_or_neither(spark):
    df = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    with pytest.raises(ValueError) as caught:
        suggest_windows(df, df, join_cols="k", look_back_time=2)
    assert str(caught.value) == (
        "inc_join: suggest_windows takes the window in use as look_back_time and max_waiting_time together "
        "(got only one of them)."
    )
