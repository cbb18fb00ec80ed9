"""suggest_windows on real Spark (sizing/spark.py): the histogram of Δ and the nearest partners of a hand-made
history with their reports, names resolved like inc_join, bad arguments named before any Spark job, and the
histograms from counts against every pair of rows.

Every expected number below is computed by hand in the comments (sizing_history.py), or by a brute-force
search written here."""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from dbt_inc_join import suggest_windows as suggest_windows_live
from dbt_inc_join.sizing import ARowWindowSuggestion, WindowCandidate, delta_histogram, nearest_partners
from dbt_inc_join.sql_text.time_units import TimeUnit

from . import oracle
from .frames import moment, side_frame
from .sizing_history import A_ROWS, B_ROWS, HAND_HISTOGRAM, HAND_NEAREST, HAND_QUANTILES

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine

#: The histories below are closed (every partner has arrived): each A row counts, none is censored. Censoring over a
#: live history is tested apart (test_a_live_history_leaves_out_its_censored_a_rows).
suggest_windows = functools.partial(suggest_windows_live, complete_history=True)


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


@pytest.mark.one_engine
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


def test_suggest_windows_takes_both_window_lengths_or_neither(spark):
    df = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    with pytest.raises(ValueError) as caught:
        suggest_windows(df, df, join_cols="k", look_back_time=2)
    assert str(caught.value) == (
        "inc_join: suggest_windows takes the window in use as look_back_time and max_waiting_time together "
        "(got only one of them)."
    )


def live_history() -> tuple[list[dict], list[dict]]:
    """Day t = 0..20: A row t (key t) and its partners at t + d for d = t % 5 − 1 and, every third key, t + 6,
    loaded up to day 20 only: the partners of the recent A rows have not all arrived."""
    rows_a = [dict(id=t, k=t, t=t) for t in range(21)] + [dict(id=100, k=None, t=4), dict(id=101, k=3, t=None)]
    rows_b = [dict(id=200 + t, k=t, t=t + t % 5 - 1) for t in range(21)]
    rows_b += [dict(id=300 + t, k=t, t=t + 6) for t in range(0, 21, 3)]
    return rows_a, [b for b in rows_b if b["t"] <= 20]


@pytest.mark.parametrize("partner", ["all", "first"])
def test_a_live_history_leaves_out_its_censored_a_rows(spark, partner):
    """Only the A rows whose whole candidate window [a − max lb, a + max mw] lies at or before the watermark
    count, as the brute-force oracle counts them; counting every A row gives other numbers (the bias)."""
    rows_a, rows_b = live_history()
    df_a, df_b = side_frame(spark, rows_a, "a", "day", "date"), side_frame(spark, rows_b, "b", "day", "date")
    counts, without_partner, left_out, watermark, reach = oracle.censored_sizing(rows_a, rows_b, partner)
    s = suggest_windows_live(df_a, df_b, join_cols="k", coverage=0.9, partner=partner)
    whole = suggest_windows(df_a, df_b, join_cols="k", coverage=0.9, partner=partner)
    found = s.histogram if partner == "all" else s.nearest
    assert found == counts and s.censoring.left_out == left_out > 0
    assert (s.censoring.reach, s.censoring.watermark) == (reach, moment(watermark, "day").strftime("%Y-%m-%d"))
    assert (found, s.count) != (whole.histogram if partner == "all" else whole.nearest, whole.count)
    # the largest Δ, and the farthest nearest partner after a (key 0: −1 and +6), are 6 days: a + 6 ≤ 20 keeps the
    # A rows of days 0..14 and the one of the NULL key; those of days 15..20 are left out
    assert reach == 6 and left_out == 6
    if partner == "all":
        assert s.count == sum(counts.values()) == 20
    else:
        assert s.count == sum(counts.values()) == 15 and s.without_partner == without_partner == 1  # the NULL key
    assert f"{left_out:,} A rows left out as censored: a + {reach} days is after the watermark" in s.report()
    assert "left out as censored" not in whole.report()
