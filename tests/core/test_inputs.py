"""The inputs resolved against their schemas (macros/plan/_inputs.sql): the type rules that let a join through.
The rejected inputs and their exact messages are cases of tests/bad_input_cases.py (run in
tests/core/test_validation.py)."""

from __future__ import annotations

from dbt_inc_join import inc_join


def test_numeric_keys_of_different_widths_join(spark):
    df_a = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    wider = spark.sql("SELECT CAST(1 AS BIGINT) AS k, DATE'2025-03-06' AS RecDate")
    decimal = spark.sql("SELECT CAST(1 AS DECIMAL(10, 2)) AS k, DATE'2025-03-06' AS RecDate")
    for df_b in (wider, decimal):
        assert [r.JoinType for r in inc_join(df_a, df_b, join_cols="k", output_window_end="2025-03-06").collect()] == [
            1
        ]


def test_date_and_timestamp_arrivals_mix_for_days(spark):
    """A DATE arrival on one side and a TIMESTAMP on the other compare by day; the output arrival is a day."""
    df_a = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-06 23:30:00' AS RecDate")
    df_b = spark.sql("SELECT 1 AS k, DATE'2025-03-07' AS RecDate")
    result = inc_join(df_a, df_b, join_cols="k", max_waiting_time=1, output_window_end="2025-03-07").collect()
    assert [(r.JoinType, r.DiffArrivalTime, str(r.RecDate)) for r in result] == [(3, 1, "2025-03-07")]
