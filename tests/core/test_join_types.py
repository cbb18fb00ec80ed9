"""Each JoinType, each ``how``, waiting rows, the compatibility mode and empty windows, on hand-made data.

Times are whole days after an origin; rows read back as (k, out_day, a_id, b_id, JoinType, Diff, Waiting)."""

from __future__ import annotations

from collections import Counter

import pytest

from dbt_inc_join import inc_join

from .frames import bound, oracle_rows, side_frame

LB, MW = 2, 4
A_ROWS = [
    dict(id=1, k=1, t=5),
    dict(id=2, k=2, t=5),
    dict(id=3, k=3, t=5),
    dict(id=4, k=4, t=5),
    dict(id=5, k=5, t=5),
    dict(id=7, k=None, t=5),
    dict(id=8, k=8, t=5),
    dict(id=9, k=9, t=None),
]
B_ROWS = [
    dict(id=11, k=1, t=5),  # same time
    dict(id=12, k=2, t=3),  # B came 2 days first: a_late
    dict(id=13, k=3, t=8),  # B 3 days late: b_late
    dict(id=15, k=5, t=10),  # 5 days late > max_waiting_time: A times out, B orphaned
    dict(id=16, k=6, t=7),  # no A at all
    dict(id=17, k=None, t=5),  # NULL key never matches
    dict(id=18, k=8, t=4),
    dict(id=19, k=8, t=5),
    dict(id=20, k=8, t=7),  # three partners
    dict(id=21, k=1, t=None),  # NULL arrival: excluded
]
MATCHES = {
    (1, 5, 1, 11, 1, 0, None),
    (2, 5, 2, 12, 2, -2, None),
    (3, 8, 3, 13, 3, 3, None),
    (8, 5, 8, 18, 2, -1, None),
    (8, 5, 8, 19, 1, 0, None),
    (8, 7, 8, 20, 3, 2, None),
}
A_TIMEOUTS = {(4, 9, 4, None, 4, None, MW), (5, 9, 5, None, 4, None, MW), (None, 9, 7, None, 4, None, MW)}
B_TIMEOUTS = {(5, 12, None, 15, 6, None, LB), (6, 9, None, 16, 6, None, LB), (None, 7, None, 17, 6, None, LB)}


@pytest.fixture(scope="module")
def frames(spark):
    return (
        side_frame(spark, A_ROWS, "a", "day", "date").cache(),
        side_frame(spark, B_ROWS, "b", "day", "date").cache(),
    )


def run(frames, start, end, **kwargs):
    result = inc_join(
        *frames,
        join_cols="k",
        look_back_time=LB,
        max_waiting_time=MW,
        output_window_start=bound(start, "day"),
        output_window_end=bound(end, "day"),
        **kwargs,
    )
    rows = oracle_rows(result, "day")
    assert len(rows) == len(set(rows)), f"duplicate output rows: {Counter(rows).most_common(3)}"
    return set(rows)


@pytest.mark.parametrize(
    "how, expected",
    [
        ("left", MATCHES | A_TIMEOUTS),
        ("inner", MATCHES),
        ("full", MATCHES | A_TIMEOUTS | B_TIMEOUTS),
        ("left_anti", A_TIMEOUTS),
    ],
)
def test_each_how_emits_its_join_types(frames, how, expected):
    assert run(frames, 0, 20, how=how) == expected


def test_a_window_emits_only_rows_placed_inside_it(frames):
    assert run(frames, 6, 9, how="full") == {r for r in MATCHES | A_TIMEOUTS | B_TIMEOUTS if 6 <= r[1] <= 9}


def test_waiting_rows_are_provisional_and_placed_at_the_window_end(frames):
    # At day 7: k=3's partner (day 8) and k=5's (day 10) have not arrived; k=4 has none. k=8 matched on day 5
    # (and 7), so it is not waiting even though its b_late partner is also due.
    rows = run(frames, 7, 7, include_waiting=True)
    waiting = {r for r in rows if r[4] == 5}
    assert waiting == {
        (3, 7, 3, None, 5, None, 2),
        (4, 7, 4, None, 5, None, 2),
        (5, 7, 5, None, 5, None, 2),
        (None, 7, 7, None, 5, None, 2),
    }
    assert rows - waiting == {(8, 7, 8, 20, 3, 2, None)}
    # the next day's run shows k=3 matched, the final answer the waiting row anticipated
    assert (3, 8, 3, 13, 3, 3, None) in run(frames, 8, 8, include_waiting=True)


def test_inner_never_has_waiting_rows(frames):
    assert {r[4] for r in run(frames, 7, 7, how="inner", include_waiting=True)} <= {1, 2, 3}


def test_empty_window_is_a_run_with_nothing_to_do(frames):
    result = inc_join(*frames, join_cols="k", output_window_start=bound(9, "day"), output_window_end=bound(8, "day"))
    assert result.count() == 0
    assert result.columns[:2] == ["k", "RecDate"]


def test_compatibility_mode_depends_on_the_window_size(frames):
    """enforce_sliding_join_window=False bounds partners only by the pre-filtered slices: a yearly run finds
    the 5-day-late partner of k=5 that daily runs time out."""
    daily = run(frames, 9, 9, enforce_sliding_join_window=False) | run(
        frames, 10, 10, enforce_sliding_join_window=False
    )
    whole = run(frames, 0, 20, enforce_sliding_join_window=False)
    assert (5, 10, 5, 15, 3, 5, None) in whole and (5, 9, 5, None, 4, None, MW) not in whole
    assert (5, 9, 5, None, 4, None, MW) in daily and (5, 10, 5, 15, 3, 5, None) not in daily
    # the enforced default agrees with the daily answer whatever the window
    assert run(frames, 0, 20) == MATCHES | A_TIMEOUTS


def test_several_join_columns(spark):
    df_a = spark.sql(
        "SELECT * FROM VALUES (1, 'x', DATE'2025-03-06', 10), (1, 'y', DATE'2025-03-06', 11) "
        "AS a(acct, ccy, RecDate, amount)"
    )
    df_b = spark.sql("SELECT * FROM VALUES (1, 'x', DATE'2025-03-07', 'ok') AS b(acct, ccy, RecDate, status)")
    result = inc_join(
        df_a,
        df_b,
        join_cols=["acct", "ccy"],
        max_waiting_time=3,
        output_window_start="2025-03-01",
        output_window_end="2025-03-31",
    )
    rows = {(r.acct, r.ccy, r.RecDate.isoformat(), r.amount, r.status, r.JoinType) for r in result.collect()}
    assert rows == {(1, "x", "2025-03-07", 10, "ok", 3), (1, "y", "2025-03-09", 11, None, 4)}
    assert result.columns == [
        "acct",
        "ccy",
        "RecDate",
        "RecDate_A",
        "amount",
        "RecDate_B",
        "status",
        "DiffArrivalTime",
        "WaitingTime",
        "JoinType",
    ]
