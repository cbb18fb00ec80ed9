"""SPEC §7: every bad argument gets one clear message naming the parameter, before any data is read."""
from __future__ import annotations

import re

import pytest

from dbt_inc_join import inc_join


@pytest.fixture(scope="module")
def frames(spark):
    df_a = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate, TIMESTAMP'2025-03-06 10:00:00' AS ts, "
                     "'2025-03-06' AS text_day, 5 AS amount")
    df_b = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate, TIMESTAMP'2025-03-06 10:00:00' AS ts, "
                     "'2025-03-06' AS text_day, 'x' AS status")
    return df_a, df_b


CASES = [
    # (kwargs, exception, pattern that must be in the message)
    (dict(how="outer"), ValueError, r"how='outer' is not supported; accepted values: 'inner', 'left', 'full', 'left_anti'"),
    (dict(time_uom="week"), ValueError, r"time_uom='week' is not supported; accepted values: 'day', 'hour', 'minute'"),
    (dict(look_back_time=-1), ValueError, r"look_back_time must be a non-negative whole number .* \(got -1\)"),
    (dict(max_waiting_time=-3), ValueError, r"max_waiting_time must be a non-negative whole number .* \(got -3\)"),
    (dict(look_back_time="2"), TypeError, r"look_back_time must be a non-negative whole number .* \(got str '2'\)"),
    (dict(max_waiting_time=2.0), TypeError, r"max_waiting_time must be a non-negative whole number .* \(got float 2.0\)"),
    (dict(max_waiting_time=True), TypeError, r"max_waiting_time must be a non-negative whole number .* \(got bool True\)"),
    (dict(join_cols="nope"), ValueError, r"join_cols column 'nope' is missing from df_a; its columns are 'k', 'RecDate'"),
    (dict(join_cols=["k", "amount"]), ValueError, r"join_cols column 'amount' is missing from df_b"),
    (dict(join_cols=[]), ValueError, r"join_cols must name at least one column"),
    (dict(join_cols=5), TypeError, r"join_cols must be a column name or a list of column names \(got int 5\)"),
    (dict(join_cols=["k", "K"]), ValueError, r"join_cols lists 'K', 'k' more than once"),
    (dict(join_cols=["k", "RecDate"]), ValueError, r"join_cols must not contain the arrival column inc_col='RecDate'"),
    (dict(inc_col="amount"), ValueError, r"inc_col column 'amount' is missing from df_b"),
    (dict(inc_col="text_day"), TypeError, r"inc_col 'text_day' of df_a is STRING; it must be DATE or TIMESTAMP"),
    (dict(time_uom="hour"), TypeError, r"time_uom='hour' needs a TIMESTAMP arrival column, but inc_col 'RecDate' of df_a is DATE"),
    (dict(inc_col=None), TypeError, r"inc_col must be the name of the arrival column"),
    (dict(output_window_start="yesterday"), ValueError, r"output_window_start='yesterday' is not an ISO-8601 date or timestamp"),
    (dict(output_window_end=20250306), TypeError, r"output_window_end must be a date, a datetime or an ISO-8601 string .* \(got int 20250306\)"),
    (dict(output_select="join_cols, colour"), ValueError, r"output_select token 'colour' is neither a token"),
    (dict(output_select=" , "), ValueError, r"output_select selects no column"),
    (dict(output_select="join_cols, k"), ValueError, r"output_select selects column 'k' twice"),
    (dict(output_select="df_a_cols, inc_col_a"), ValueError, r"output_select selects column 'RecDate_A' twice"),
    (dict(suffixes=("_x", "_x")), ValueError, r"suffixes must differ"),
    (dict(suffixes="_A"), TypeError, r"suffixes must be a pair of strings"),
    (dict(suffixes=("", "_B")), ValueError, r"output column 'RecDate' would exist twice \(the output arrival inc_col 'RecDate' and df_a column 'RecDate'\)"),
    (dict(enforce_sliding_join_window="yes"), TypeError, r"enforce_sliding_join_window must be True or False"),
    (dict(include_waiting=1), TypeError, r"include_waiting must be True or False"),
]


@pytest.mark.parametrize("kwargs, error, pattern", CASES, ids=[next(iter(c[0])) + "-" + str(i) for i, c in enumerate(CASES)])
def test_bad_argument_is_named_before_any_spark_job(spark, frames, kwargs, error, pattern):
    arguments = dict(join_cols="k", output_window_start="2025-03-01", output_window_end="2025-03-31")
    arguments.update(kwargs)
    group = f"validation-{abs(hash(pattern))}"
    spark.sparkContext.setJobGroup(group, "validation must not run jobs")
    try:
        with pytest.raises(error) as caught:
            inc_join(*frames, **arguments)
    finally:
        spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
    message = str(caught.value)
    assert message.startswith("inc_join: ")
    assert re.search(pattern, message), message
    assert "\n" not in message and "Traceback" not in message
    assert list(spark.sparkContext.statusTracker().getJobIdsForGroup(group)) == []


def test_inputs_must_be_dataframes(frames):
    with pytest.raises(TypeError, match=r"inc_join: df_b must be a pyspark DataFrame \(got list\)"):
        inc_join(frames[0], [], join_cols="k")


def test_key_types_must_agree(spark):
    df_a = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    df_b = spark.sql("SELECT '1' AS k, DATE'2025-03-06' AS RecDate")
    with pytest.raises(TypeError, match=r"join_cols column 'k' is INT in df_a but STRING in df_b; cast one side"):
        inc_join(df_a, df_b, join_cols="k", output_window_end="2025-03-06")
    wider = spark.sql("SELECT CAST(1 AS BIGINT) AS k, DATE'2025-03-06' AS RecDate")
    assert inc_join(df_a, wider, join_cols="k", output_window_end="2025-03-06").count() == 1


@pytest.mark.parametrize("column", ["JoinType", "DiffArrivalTime", "waitingtime", "JoinTypeName"])
def test_input_column_clashing_with_a_derived_column(spark, column):
    df_a = spark.sql(f"SELECT 1 AS k, DATE'2025-03-06' AS RecDate, 3 AS `{column}`")
    df_b = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    with pytest.raises(ValueError, match=rf"df_a column '{column}' clashes with the derived output column"):
        inc_join(df_a, df_b, join_cols="k", output_window_end="2025-03-06")


def test_suffixed_name_clashing_with_an_input_column(spark):
    df_a = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate, 'x' AS RecDate_A")
    df_b = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    with pytest.raises(ValueError, match=r"output column 'RecDate_A' would exist twice \(df_a column 'RecDate' and "
                                         r"df_a column 'RecDate_A'\)"):
        inc_join(df_a, df_b, join_cols="k", output_window_end="2025-03-06")
