"""spec §5: output columns, suffixes and output_select tokens; spec §2: bounds in the session time zone."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from dbt_inc_join import inc_join
from dbt_inc_join.time_units import TimeUnit
from dbt_inc_join.window import parse_bound

WINDOW = dict(output_window_start="2025-03-01", output_window_end="2025-03-31")


@pytest.fixture(scope="module")
def frames(spark):
    df_a = spark.sql("SELECT 1 AS TrxId, DATE'2025-03-06' AS RecDate, 700.3 AS Amount, 'x' AS Note")
    df_b = spark.sql("SELECT 1 AS TrxId, 'NL' AS Country, 'y' AS Note, DATE'2025-03-08' AS RecDate")
    return df_a, df_b


@pytest.mark.parametrize(
    "output_select, columns",
    [
        (
            None,
            [
                "TrxId",
                "RecDate",
                "RecDate_A",
                "Amount",
                "Note_A",
                "Country",
                "Note_B",
                "RecDate_B",
                "DiffArrivalTime",
                "WaitingTime",
                "JoinType",
            ],
        ),
        ("join_cols, inc_col, JoinType, JoinTypeName", ["TrxId", "RecDate", "JoinType", "JoinTypeName"]),
        ("inc_col_a, inc_col_b, DiffArrivalTime", ["RecDate_A", "RecDate_B", "DiffArrivalTime"]),
        (["trxid", "Amount", "note_b", "country"], ["TrxId", "Amount", "Note_B", "Country"]),
        ("df_b_cols,join_cols", ["Country", "Note_B", "RecDate_B", "TrxId"]),
    ],
)
def test_output_select(frames, output_select, columns):
    result = inc_join(*frames, join_cols="TrxId", max_waiting_time=3, output_select=output_select, **WINDOW)
    assert result.columns == columns
    assert result.count() == 1


def test_values_behind_tokens(frames):
    row = inc_join(
        *frames,
        join_cols="TrxId",
        max_waiting_time=3,
        output_select="join_cols, inc_col, inc_col_a, "
        "inc_col_b, Note_A, Note_B, DiffArrivalTime, WaitingTime, JoinType, JoinTypeName",
        **WINDOW,
    ).first()
    assert row.asDict() == dict(
        TrxId=1,
        RecDate=date(2025, 3, 8),
        RecDate_A=date(2025, 3, 6),
        RecDate_B=date(2025, 3, 8),
        Note_A="x",
        Note_B="y",
        DiffArrivalTime=2,
        WaitingTime=None,
        JoinType=3,
        JoinTypeName="b_late",
    )


def test_custom_suffixes(frames):
    result = inc_join(*frames, join_cols="TrxId", suffixes=("_fin", "_sepa"), **WINDOW)
    assert "RecDate_fin" in result.columns and "Note_sepa" in result.columns


def test_odd_column_names_survive(spark):
    df_a = spark.sql("SELECT 1 AS `trx id`, DATE'2025-03-06' AS `rec.date`, 2 AS `select`")
    df_b = spark.sql("SELECT 1 AS `trx id`, DATE'2025-03-06' AS `rec.date`, 3 AS `from`")
    result = inc_join(df_a, df_b, join_cols="trx id", inc_col="rec.date", **WINDOW)
    assert result.columns[:5] == ["trx id", "rec.date", "rec.date_A", "select", "rec.date_B"]
    assert result.first()["from"] == 3


def test_chained_join_stays_lean(spark):
    """The output of one inc_join is the A of the next, its output arrival the new arrival."""
    orders = spark.sql("SELECT 1 AS id, DATE'2025-03-06' AS RecDate, 'o' AS what")
    payments = spark.sql("SELECT 1 AS id, DATE'2025-03-07' AS RecDate, 'p' AS paid")
    shipments = spark.sql("SELECT 1 AS id, DATE'2025-03-09' AS RecDate, 's' AS shipped")
    first = inc_join(
        orders, payments, join_cols="id", max_waiting_time=2, output_select="join_cols, inc_col, what, paid", **WINDOW
    )
    second = inc_join(first, shipments, join_cols="id", max_waiting_time=2, **WINDOW)
    assert second.columns == [
        "id",
        "RecDate",
        "RecDate_A",
        "what",
        "paid",
        "RecDate_B",
        "shipped",
        "DiffArrivalTime",
        "WaitingTime",
        "JoinType",
    ]
    row = second.first()
    assert (row.RecDate, row.RecDate_A, row.JoinType) == (date(2025, 3, 9), date(2025, 3, 7), 3)


def test_bounds_parse_in_the_session_time_zone():
    assert parse_bound("2025-03-06", "b", TimeUnit.DAY) == date(2025, 3, 6)
    assert parse_bound("2025-03-06 10:45:12", "b", TimeUnit.DAY) == date(2025, 3, 6)
    assert parse_bound("2025-03-06T10:45:12", "b", TimeUnit.HOUR) == datetime(2025, 3, 6, 10)
    assert parse_bound(date(2025, 3, 6), "b", TimeUnit.MINUTE) == datetime(2025, 3, 6, 0, 0)
    assert parse_bound("2025-03-06T22:30:00Z", "b", TimeUnit.HOUR, "Europe/Amsterdam") == datetime(2025, 3, 6, 23)
    aware = datetime(2025, 3, 6, 22, 30, tzinfo=timezone.utc)
    assert parse_bound(aware, "b", TimeUnit.DAY, "Europe/Amsterdam") == date(2025, 3, 6)
    assert parse_bound(aware, "b", TimeUnit.DAY, "Asia/Tokyo") == date(2025, 3, 7)


def test_aware_bounds_select_the_session_wall_clock_hour(spark):
    spark.conf.set("spark.sql.session.timeZone", "Europe/Amsterdam")
    try:
        df_a = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-06 23:10:00' AS RecDate")
        df_b = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-06 23:50:00' AS RecDate")
        at = datetime(2025, 3, 6, 22, 0, tzinfo=timezone.utc)  # 23:00 in Amsterdam
        rows = (
            inc_join(df_a, df_b, join_cols="k", time_uom="hour", output_window_start=at, output_window_end=at)
            .selectExpr("date_format(RecDate, 'HH:mm') AS hour", "JoinType")
            .collect()
        )
        assert [(r.hour, r.JoinType) for r in rows] == [("23:00", 1)]
    finally:
        spark.conf.set("spark.sql.session.timeZone", "UTC")
