"""spec §9: the worked example, as one window and as sixteen daily windows."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from pyspark.sql import functions as F

from dbt_inc_join import inc_join

pytestmark = pytest.mark.one_engine  # engine-independent: `make test` runs it on Spark 4 only

A = [
    (1, "2025-03-06"),
    (2, "2025-03-06"),
    (3, "2025-03-06"),
    (4, "2025-03-07"),
    (5, "2025-03-07"),
    (6, "2025-03-07"),
    (7, "2025-03-08"),
]
B = [
    (1, "NL", "2025-03-05"),
    (2, "NL", "2025-03-04"),
    (3, "NL", "2025-03-06"),
    (4, "UK", "2025-03-07"),
    (5, "NL", "2025-03-12"),
    (6, "NL", "2025-03-18"),
    (7, "DE", "2025-03-06"),
]

# (TrxId, output RecDate, JoinType, DiffArrivalTime, WaitingTime): the table of spec §9.
EXPECTED_LEFT = {
    (1, "2025-03-06", 2, -1, None),
    (2, "2025-03-06", 2, -2, None),
    (3, "2025-03-06", 1, 0, None),
    (4, "2025-03-07", 1, 0, None),
    (7, "2025-03-08", 2, -2, None),
    (5, "2025-03-12", 3, 5, None),
    (6, "2025-03-17", 4, None, 10),
}
SETTINGS = dict(join_cols=["TrxId"], look_back_time=2, max_waiting_time=10)


def as_set(df):
    df = df.drop("run_day")
    return {(r.TrxId, r.RecDate.isoformat(), r.JoinType, r.DiffArrivalTime, r.WaitingTime) for r in df.collect()}


def daily_runs(df_a, df_b, first, last, **kwargs):
    """The union of one run per day, each row tagged with the day of the run that emitted it."""
    rows, day = [], first
    while day <= last:
        run = inc_join(df_a, df_b, output_window_start=day, output_window_end=day, **kwargs)
        rows.append(run.withColumn("run_day", F.lit(day)))
        day += timedelta(days=1)
    union = rows[0]
    for run in rows[1:]:
        union = union.unionByName(run)
    return union


def test_one_window_gives_the_spec_table(inputs):
    result = inc_join(*inputs, output_window_start="2025-03-05", output_window_end="2025-03-20", **SETTINGS)
    rows = result.collect()
    assert len(rows) == 7
    assert as_set(result) == EXPECTED_LEFT


def test_sixteen_daily_windows_give_the_same_rows_each_on_its_own_day(inputs):
    union = daily_runs(*inputs, date(2025, 3, 5), date(2025, 3, 20), **SETTINGS)
    rows = union.collect()
    assert len(rows) == 7
    assert {
        (r.TrxId, r.RecDate.isoformat(), r.JoinType, r.DiffArrivalTime, r.WaitingTime) for r in rows
    } == EXPECTED_LEFT
    assert all(r.RecDate == r.run_day for r in rows), "a row was emitted by a run other than its own day's"


def test_default_columns_and_order(inputs):
    result = inc_join(*inputs, output_window_start="2025-03-05", output_window_end="2025-03-20", **SETTINGS)
    assert result.columns == [
        "TrxId",
        "RecDate",
        "RecDate_A",
        "CountryCode",
        "RecDate_B",
        "DiffArrivalTime",
        "WaitingTime",
        "JoinType",
    ]
    types = dict(result.dtypes)
    assert types["RecDate"] == "date" and types["JoinType"] == "int" and types["DiffArrivalTime"] == "int"
    timed_out = result.where("TrxId = 6").collect()[0]
    assert timed_out.CountryCode is None and timed_out.RecDate_B is None
    assert timed_out.RecDate_A == date(2025, 3, 7)


def test_full_emits_the_late_b_row_at_b_plus_look_back(inputs):
    union = daily_runs(*inputs, date(2025, 3, 5), date(2025, 3, 20), how="full", **SETTINGS)
    expected = EXPECTED_LEFT | {(6, "2025-03-20", 6, None, 2)}
    assert as_set(union) == expected
    whole = inc_join(*inputs, how="full", output_window_start="2025-03-05", output_window_end="2025-03-20", **SETTINGS)
    assert as_set(whole) == expected


def test_inner_and_left_anti(inputs):
    window = dict(output_window_start="2025-03-05", output_window_end="2025-03-20")
    inner = inc_join(*inputs, how="inner", **window, **SETTINGS)
    assert as_set(inner) == {row for row in EXPECTED_LEFT if row[2] in (1, 2, 3)}
    anti = inc_join(*inputs, how="left_anti", **window, **SETTINGS)
    assert as_set(anti) == {(6, "2025-03-17", 4, None, 10)}


def test_default_end_is_the_availability_watermark(inputs):
    # max a = 03-08, max b = 03-18: nothing after 03-08 can be final yet, so TrxId 5 (03-12) and 6 (03-17) wait.
    result = inc_join(*inputs, output_window_start="2025-03-05", **SETTINGS)
    assert {r.TrxId for r in result.collect()} == {1, 2, 3, 4, 7}
    waiting = inc_join(*inputs, output_window_start="2025-03-05", include_waiting=True, **SETTINGS)
    rows = {r.TrxId: r for r in waiting.collect()}
    assert rows[5].JoinType == 5 and rows[5].RecDate == date(2025, 3, 8) and rows[5].WaitingTime == 1
    assert rows[6].JoinType == 5 and rows[6].WaitingTime == 1
