"""Hour and minute units, and day units over TIMESTAMP arrivals, with runs that straddle midnight."""

from __future__ import annotations

from datetime import datetime

import pytest

from dbt_inc_join import inc_join

from .frames import bound, oracle_rows, side_frame
from .oracle import expected_rows

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine

# Times in units after the origin (20:00 for hours, 23:50 for minutes); jitter is sub-unit noise that
# truncation must remove (minutes within the hour, seconds within the minute).
A_ROWS = [
    dict(id=1, k=1, t=2, jitter=59),
    dict(id=2, k=2, t=3, jitter=1),
    dict(id=3, k=3, t=4, jitter=30),
    dict(id=4, k=4, t=5, jitter=0),
    dict(id=5, k=5, t=6, jitter=45),
]
B_ROWS = [
    dict(id=11, k=1, t=2, jitter=0),
    dict(id=12, k=2, t=1, jitter=59),
    dict(id=13, k=3, t=7, jitter=5),
    dict(id=14, k=4, t=12, jitter=10),
    dict(id=15, k=5, t=5, jitter=20),
]


@pytest.mark.parametrize("unit", ["hour", "minute"])
@pytest.mark.parametrize("how", ["left", "full"])
def test_sub_day_units_across_midnight(spark, unit, how):
    df_a = side_frame(spark, A_ROWS, "a", unit, "timestamp")
    df_b = side_frame(spark, B_ROWS, "b", unit, "timestamp")
    kwargs = dict(join_cols="k", how=how, look_back_time=2, max_waiting_time=3, time_uom=unit)
    whole = oracle_rows(
        inc_join(df_a, df_b, output_window_start=bound(0, unit), output_window_end=bound(14, unit), **kwargs), unit
    )
    expected = expected_rows(A_ROWS, B_ROWS, how=how, lb=2, mw=3, start=0, end=14)
    assert sorted(whole, key=repr) == sorted(expected, key=repr)
    # the b_late match lands after midnight (hour 7 = 03:00, minute 7 = 23:57 -> check both sides of midnight)
    pieces = []
    for first, last in [(0, 3), (4, 4), (5, 9), (10, 14)]:
        pieces += oracle_rows(
            inc_join(df_a, df_b, output_window_start=bound(first, unit), output_window_end=bound(last, unit), **kwargs),
            unit,
        )
    assert sorted(pieces, key=repr) == sorted(whole, key=repr)


def test_output_arrival_type_follows_the_unit(spark):
    df_a = side_frame(spark, A_ROWS, "a", "hour", "timestamp")
    df_b = side_frame(spark, B_ROWS, "b", "hour", "timestamp")
    hourly = inc_join(
        df_a,
        df_b,
        join_cols="k",
        time_uom="hour",
        max_waiting_time=3,
        output_window_start="2025-03-01 20:00",
        output_window_end="2025-03-02 10:00",
    )
    daily = inc_join(
        df_a, df_b, join_cols="k", max_waiting_time=3, output_window_start="2025-03-01", output_window_end="2025-03-02"
    )
    assert dict(hourly.dtypes)["RecDate"] == "timestamp" and dict(daily.dtypes)["RecDate"] == "date"
    assert dict(hourly.dtypes)["RecDate_A"] == "timestamp"  # raw arrivals keep their type and precision


def test_day_unit_keeps_matches_late_on_the_last_day(spark):
    """The peer loses a match whose later timestamp falls after midnight of the window's last day; here a
    B row at 23:59:59 on the last day is part of that day."""
    df_a = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-06 08:00:00' AS RecDate")
    df_b = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-07 23:59:59' AS RecDate, 'x' AS v")
    result = inc_join(
        df_a, df_b, join_cols="k", max_waiting_time=2, output_window_start="2025-03-07", output_window_end="2025-03-07"
    ).collect()
    assert [(r.RecDate.isoformat(), r.JoinType, r.DiffArrivalTime, r.v) for r in result] == [("2025-03-07", 3, 1, "x")]


def test_hour_window_end_includes_the_whole_last_hour(spark):
    df_a = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-06 22:10:00' AS RecDate")
    df_b = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-07 00:59:59' AS RecDate")
    result = inc_join(
        df_a,
        df_b,
        join_cols="k",
        max_waiting_time=2,
        time_uom="hour",
        output_window_start=datetime(2025, 3, 7, 0),
        output_window_end=datetime(2025, 3, 7, 0, 30),
    )
    rows = result.selectExpr("date_format(RecDate, 'yyyy-MM-dd HH:mm') AS out", "JoinType", "DiffArrivalTime").collect()
    assert [(r.out, r.JoinType, r.DiffArrivalTime) for r in rows] == [("2025-03-07 00:00", 3, 2)]


def test_date_and_timestamp_arrivals_mix_with_the_day_unit(spark):
    df_a = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    df_b = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-06 17:00:00' AS RecDate")
    rows = inc_join(
        df_a, df_b, join_cols="k", output_window_start="2025-03-06", output_window_end="2025-03-06"
    ).collect()
    assert [(r.RecDate.isoformat(), r.JoinType) for r in rows] == [("2025-03-06", 1)]
