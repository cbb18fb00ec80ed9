"""spec §7 and issue 6: every bad argument or input gets one exact message naming the parameter, raised
before any Spark job runs. The same cases for the SQL macro are in tests/integration/test_bad_input.py."""

from __future__ import annotations

import pytest

from dbt_inc_join import inc_join

A_COLUMNS = "'k', 'RecDate', 'ts', 'text_day', 'amount', 'key_text', 'key_day', 'key_map'"
B_COLUMNS = "'k', 'RecDate', 'ts', 'text_day', 'status', 'key_text', 'key_day', 'key_map'"
TOKENS = (
    "join_cols, inc_col, df_a_cols, df_b_cols, inc_col_a, inc_col_b, DiffArrivalTime, WaitingTime, JoinType, "
    "JoinTypeName"
)
OUTPUT_COLUMNS = (
    "k, RecDate, RecDate_A, ts_A, text_day_A, amount, key_text_A, key_day_A, key_map_A, RecDate_B, "
    "ts_B, text_day_B, status, key_text_B, key_day_B, key_map_B"
)


@pytest.fixture(scope="module")
def frames(spark):
    """Two one-row inputs whose columns of the same name differ in type where a case needs it: B's `ts` is a
    STRING, its `text_day` an INT, its `key_text` an INT and its `key_day` a TIMESTAMP."""
    df_a = spark.sql(
        "SELECT 1 AS k, DATE'2025-03-06' AS RecDate, TIMESTAMP'2025-03-06 10:00:00' AS ts, "
        "'2025-03-06' AS text_day, 5 AS amount, 'x1' AS key_text, DATE'2025-03-06' AS key_day, "
        "map('a', 1) AS key_map"
    )
    df_b = spark.sql(
        "SELECT 1 AS k, DATE'2025-03-06' AS RecDate, '2025-03-06 10:00:00' AS ts, "
        "20250306 AS text_day, 'x' AS status, 1 AS key_text, TIMESTAMP'2025-03-06 00:00:00' AS key_day, "
        "map('a', 1) AS key_map"
    )
    return df_a, df_b


WINDOW_LENGTH = "must be a non-negative whole number of time_uom units"
CASES = [
    # (id, kwargs, exception, the exact message)
    (
        "how-unknown",
        dict(how="outer"),
        ValueError,
        "inc_join: how='outer' is not supported; accepted values: 'inner', 'left', 'full', 'left_anti'.",
    ),
    (
        "how-none",
        dict(how=None),
        ValueError,
        "inc_join: how=None is not supported; accepted values: 'inner', 'left', 'full', 'left_anti'.",
    ),
    (
        "time_uom-unknown",
        dict(time_uom="week"),
        ValueError,
        "inc_join: time_uom='week' is not supported; accepted values: 'day', 'hour', 'minute'.",
    ),
    (
        "look_back_time-negative",
        dict(look_back_time=-1),
        ValueError,
        f"inc_join: look_back_time {WINDOW_LENGTH} (got -1).",
    ),
    (
        "max_waiting_time-negative",
        dict(max_waiting_time=-3),
        ValueError,
        f"inc_join: max_waiting_time {WINDOW_LENGTH} (got -3).",
    ),
    (
        "look_back_time-string",
        dict(look_back_time="2"),
        TypeError,
        f"inc_join: look_back_time {WINDOW_LENGTH}, e.g. 2 (got str '2').",
    ),
    (
        "look_back_time-float",
        dict(look_back_time=1.5),
        TypeError,
        f"inc_join: look_back_time {WINDOW_LENGTH}, e.g. 2 (got float 1.5).",
    ),
    (
        "max_waiting_time-whole-float",
        dict(max_waiting_time=2.0),
        TypeError,
        f"inc_join: max_waiting_time {WINDOW_LENGTH}, e.g. 2 (got float 2.0).",
    ),
    (
        "max_waiting_time-bool",
        dict(max_waiting_time=True),
        TypeError,
        f"inc_join: max_waiting_time {WINDOW_LENGTH}, e.g. 2 (got bool True).",
    ),
    (
        "join_cols-missing-a",
        dict(join_cols="nope"),
        ValueError,
        f"inc_join: join_cols column 'nope' is missing from df_a; its columns are {A_COLUMNS}.",
    ),
    (
        "join_cols-missing-b",
        dict(join_cols=["k", "amount"]),
        ValueError,
        f"inc_join: join_cols column 'amount' is missing from df_b; its columns are {B_COLUMNS}.",
    ),
    (
        "join_cols-empty",
        dict(join_cols=[]),
        ValueError,
        "inc_join: join_cols must name at least one column and no empty names (got []).",
    ),
    (
        "join_cols-int",
        dict(join_cols=5),
        TypeError,
        "inc_join: join_cols must be a column name or a list of column names (got int 5).",
    ),
    ("join_cols-twice", dict(join_cols=["k", "K"]), ValueError, "inc_join: join_cols lists 'K', 'k' more than once."),
    (
        "join_cols-arrival",
        dict(join_cols=["k", "RecDate"]),
        ValueError,
        "inc_join: join_cols must not contain the arrival column inc_col='RecDate'.",
    ),
    (
        "join_cols-types-differ",
        dict(join_cols="key_text"),
        TypeError,
        "inc_join: join_cols column 'key_text' is STRING in df_a but INT in df_b; cast one side so both have the "
        "same type.",
    ),
    (
        "join_cols-date-vs-timestamp",
        dict(join_cols=["k", "key_day"]),
        TypeError,
        "inc_join: join_cols column 'key_day' is DATE in df_a but TIMESTAMP in df_b; cast one side so both have the "
        "same type.",
    ),
    (
        "join_cols-map",
        dict(join_cols="key_map"),
        TypeError,
        "inc_join: join_cols column 'key_map' is MAP<STRING,INT>, which Spark cannot compare; join on columns of "
        "a comparable type (cast or extract a field).",
    ),
    (
        "inc_col-missing-b",
        dict(inc_col="amount"),
        ValueError,
        f"inc_join: inc_col column 'amount' is missing from df_b; its columns are {B_COLUMNS}.",
    ),
    (
        "inc_col-string",
        dict(inc_col="text_day"),
        TypeError,
        "inc_join: inc_col 'text_day' of df_a is STRING; it must be DATE or TIMESTAMP (cast it, e.g. "
        "to_date(text_day) or to_timestamp(text_day)).",
    ),
    (
        "inc_col-types-differ",
        dict(inc_col="ts"),
        TypeError,
        "inc_join: inc_col 'ts' of df_b is STRING; it must be DATE or TIMESTAMP (cast it, e.g. to_date(ts) or "
        "to_timestamp(ts)).",
    ),
    (
        "inc_col-date-for-hours",
        dict(time_uom="hour"),
        TypeError,
        "inc_join: time_uom='hour' needs a TIMESTAMP arrival column, but inc_col 'RecDate' of df_a is DATE; use "
        "time_uom='day' or a TIMESTAMP column.",
    ),
    (
        "inc_col-none",
        dict(inc_col=None),
        TypeError,
        "inc_join: inc_col must be the name of the arrival column present in both inputs, e.g. 'RecDate', or an "
        "(A column, B column) pair (got NoneType None).",
    ),
    (
        "output_window_start-text",
        dict(output_window_start="yesterday"),
        ValueError,
        "inc_join: output_window_start='yesterday' is not an ISO-8601 date or timestamp; use e.g. '2025-03-06' or "
        "'2025-03-06 10:00:00'.",
    ),
    (
        "output_window_end-int",
        dict(output_window_end=20250306),
        TypeError,
        "inc_join: output_window_end must be a date, a datetime or an ISO-8601 string such as '2025-03-06' or "
        "'2025-03-06 10:00:00' (got int 20250306).",
    ),
    (
        "output_select-unknown",
        dict(output_select="join_cols, colour"),
        ValueError,
        f"inc_join: output_select token 'colour' is neither a token ({TOKENS}) nor an output column "
        f"({OUTPUT_COLUMNS}).",
    ),
    (
        "output_select-empty",
        dict(output_select=" , "),
        ValueError,
        "inc_join: output_select selects no column; list tokens such as 'join_cols, inc_col, df_a_cols, df_b_cols, "
        "DiffArrivalTime, WaitingTime, JoinType' or column names.",
    ),
    (
        "output_select-twice",
        dict(output_select="join_cols, k"),
        ValueError,
        "inc_join: output_select selects column 'k' twice; list it once.",
    ),
    (
        "output_select-token-twice",
        dict(output_select="df_a_cols, inc_col_a"),
        ValueError,
        "inc_join: output_select selects column 'RecDate_A' twice; list it once.",
    ),
    (
        "suffixes-equal",
        dict(suffixes=("_x", "_x")),
        ValueError,
        "inc_join: suffixes must differ, or the two sides' columns would clash (got ('_x', '_x')).",
    ),
    (
        "suffixes-string",
        dict(suffixes="_A"),
        TypeError,
        "inc_join: suffixes must be a pair of strings such as ('_A', '_B') (got str '_A').",
    ),
    (
        "suffixes-clash",
        dict(suffixes=("", "_B")),
        ValueError,
        "inc_join: output column 'RecDate' would exist twice (the output arrival inc_col 'RecDate' and df_a column "
        "'RecDate'); rename one input column or pass other suffixes (now ('', '_B')).",
    ),
    (
        "enforce_sliding_join_window-string",
        dict(enforce_sliding_join_window="yes"),
        TypeError,
        "inc_join: enforce_sliding_join_window must be True or False (got str 'yes').",
    ),
    (
        "include_waiting-int",
        dict(include_waiting=1),
        TypeError,
        "inc_join: include_waiting must be True or False (got int 1).",
    ),
    # spec §11: one row per A
    (
        "partner-unknown",
        dict(partner="latest"),
        ValueError,
        "inc_join: partner='latest' is not supported; accepted values: 'all', 'first', 'last'.",
    ),
    (
        "partner_order_by-without-partner",
        dict(partner_order_by="status"),
        ValueError,
        "inc_join: partner_order_by orders the partners for partner='first' or 'last'; with partner='all' every "
        "partner is a row of its own (set partner, or drop partner_order_by).",
    ),
    (
        "partner_order_by-missing",
        dict(partner="first", partner_order_by=["status", "seq"]),
        ValueError,
        f"inc_join: partner_order_by column 'seq' is missing from df_b; its columns are {B_COLUMNS}.",
    ),
    (
        "partner_order_by-map",
        dict(partner="last", partner_order_by="key_map"),
        TypeError,
        "inc_join: partner_order_by column 'key_map' is MAP<STRING,INT>, which Spark cannot order; order by a "
        "column of another type (or a field of it).",
    ),
    (
        "aggregate-with-partner",
        dict(partner="first", aggregate={"n": "count(*)"}),
        ValueError,
        "inc_join: aggregate combines all partners of an A row, so partner must be 'all' (got partner='first'); "
        "use one or the other.",
    ),
    (
        "aggregate-full",
        dict(how="full", aggregate={"n": "count(*)"}),
        ValueError,
        "inc_join: aggregate gives one row per A row, so how must be 'left' or 'inner' (got how='full').",
    ),
    (
        "aggregate-left_anti",
        dict(how="left_anti", aggregate={"n": "count(*)"}),
        ValueError,
        "inc_join: aggregate gives one row per A row, so how must be 'left' or 'inner' (got how='left_anti').",
    ),
    (
        "aggregate-not-an-aggregate",
        dict(aggregate={"n": "count(*)", "late": "text_day + 1"}),
        ValueError,
        "inc_join: aggregate 'late' = 'text_day + 1' is not an aggregate: every B column it uses must be inside "
        "an aggregate function, e.g. sum(Amount), count(*), max_by(Price, Seq).",
    ),
    (
        "aggregate-unknown-column",
        dict(aggregate={"paid": "sum(amount)"}),
        ValueError,
        f"inc_join: aggregate 'paid' = 'sum(amount)' names a column df_b does not have: 'amount'; df_b's columns "
        f"are {B_COLUMNS}.",
    ),
    (
        "aggregate-unknown-function",
        dict(aggregate={"paid": "summ(text_day)"}),
        ValueError,
        "inc_join: aggregate 'paid' = 'summ(text_day)' calls a function Spark does not know: 'summ'.",
    ),
    (
        "aggregate-unbalanced",
        dict(aggregate={"paid": "sum(text_day"}),
        ValueError,
        "inc_join: aggregate['paid'] = 'sum(text_day' has unbalanced parentheses or quotes.",
    ),
    (
        "aggregate-clashes",
        dict(aggregate={"amount": "count(*)"}),
        ValueError,
        "inc_join: output column 'amount' would exist twice (df_a column 'amount' and the aggregate 'amount'); "
        "rename one input column or pass other suffixes (now ('_A', '_B')).",
    ),
    (
        "aggregate-empty",
        dict(aggregate={}),
        TypeError,
        "inc_join: aggregate must be a non-empty mapping of output column to Spark SQL aggregate, e.g. "
        "{'n': 'count(*)'} (got dict {}).",
    ),
    (
        "null_fill-unknown-key",
        dict(aggregate={"n": "count(*)"}, null_fill={"n": 0, "total": 0}),
        ValueError,
        "inc_join: null_fill key 'total' is not an aggregate name; the aggregates are 'n'.",
    ),
    (
        "null_fill-without-aggregate",
        dict(null_fill={"n": 0}),
        ValueError,
        "inc_join: null_fill gives values to aggregate columns; it needs aggregate.",
    ),
    (
        "null_fill-not-a-literal",
        dict(aggregate={"n": "count(*)"}, null_fill={"n": [0]}),
        TypeError,
        "inc_join: null_fill['n'] must be a literal: a number, string, boolean, date, datetime or None (got list [0]).",
    ),
    (
        "output_select-b-columns-with-aggregate",
        dict(aggregate={"n": "count(*)"}, output_select="join_cols, df_b_cols"),
        ValueError,
        "inc_join: output_select token 'df_b_cols' is not available with aggregate: B's columns reach the output "
        "only through the aggregates ('n').",
    ),
    (
        "partner-compatibility-mode",
        dict(partner="last", enforce_sliding_join_window=False),
        ValueError,
        "inc_join: partner needs the sliding join window; enforce_sliding_join_window=False (the compatibility "
        "mode) only supports partner='all' without aggregate.",
    ),
    (
        "many_rows_per_key-string",
        dict(many_rows_per_key="yes"),
        TypeError,
        "inc_join: many_rows_per_key must be True or False (got str 'yes').",
    ),
    (
        "late_match_time-negative",
        dict(late_match_time=-2),
        ValueError,
        "inc_join: late_match_time must be a non-negative whole number of time_uom units (got -2).",
    ),
    (
        "late_match_time-string",
        dict(late_match_time="3"),
        TypeError,
        "inc_join: late_match_time must be a non-negative whole number of time_uom units, e.g. 2 (got str '3').",
    ),
    (
        "late_match_time-left_anti",
        dict(how="left_anti", late_match_time=3),
        ValueError,
        "inc_join: late_match_time pairs timed-out A rows with partners that came later, but how='left_anti' "
        "outputs no pairs; use how='left' (or late_match_time=0).",
    ),
    (
        "late_match_time-first",
        dict(partner="first", late_match_time=3),
        ValueError,
        "inc_join: late_match_time needs partner='all' without aggregate (got partner='first'): a late partner is "
        "a row of its own, and one row per A row would have to change after it was final.",
    ),
    (
        "late_match_time-aggregate",
        dict(aggregate={"n": "count(*)"}, late_match_time=1),
        ValueError,
        "inc_join: late_match_time needs partner='all' without aggregate (got aggregate): a late partner is a row "
        "of its own, and one row per A row would have to change after it was final.",
    ),
    (
        "late_match_time-compatibility-mode",
        dict(enforce_sliding_join_window=False, late_match_time=1),
        ValueError,
        "inc_join: late_match_time needs the sliding join window; enforce_sliding_join_window=False (the "
        "compatibility mode) has no window to be late for.",
    ),
]


# spec §12: keys and arrival named per side, and join_cond
CASES += [
    (
        "join_cols-mapping-missing-b",
        dict(join_cols={"k": "kk"}),
        ValueError,
        f"inc_join: join_cols column 'kk' is missing from df_b; its columns are {B_COLUMNS}.",
    ),
    (
        "join_cols-mapping-not-names",
        dict(join_cols={"k": 1}),
        TypeError,
        "inc_join: join_cols must be a column name, a list of them, or a mapping {A column: B column} of names "
        "(got dict {'k': 1}).",
    ),
    (
        "join_cols-mapping-types-differ",
        dict(join_cols={"key_text": "k"}),
        TypeError,
        "inc_join: join_cols column 'key_text (df_b: k)' is STRING in df_a but INT in df_b; cast one side so both "
        "have the same type.",
    ),
    (
        "inc_col-pair-missing-b",
        dict(inc_col=("RecDate", "paid_on")),
        ValueError,
        f"inc_join: inc_col column 'paid_on' is missing from df_b; its columns are {B_COLUMNS}.",
    ),
    (
        "inc_col-three-names",
        dict(inc_col=["RecDate", "RecDate", "ts"]),
        TypeError,
        "inc_join: inc_col must be the name of the arrival column present in both inputs, e.g. 'RecDate', or an "
        "(A column, B column) pair (got list ['RecDate', 'RecDate', 'ts']).",
    ),
    (
        "join_cond-unknown-alias",
        dict(join_cond="c.amount > 0"),
        ValueError,
        "inc_join: join_cond 'c.amount > 0' names 'c.amount': the side alias 'c' is unknown; write a.<column> for "
        "A's columns and b.<column> for B's.",
    ),
    (
        "join_cond-unknown-column",
        dict(join_cond="a.amount > 0 AND b.amount > 0"),
        ValueError,
        "inc_join: join_cond 'a.amount > 0 AND b.amount > 0' names b.amount, a column df_b does not have; df_b's "
        f"columns are {B_COLUMNS}.",
    ),
    (
        "join_cond-no-side",
        dict(join_cond="1 = 1"),
        ValueError,
        "inc_join: join_cond '1 = 1' names no column of either side; write A's columns as a.<column> and B's as "
        "b.<column>, e.g. 'abs(a.Amount - b.Amount) < 0.01'.",
    ),
    (
        "join_cond-not-boolean",
        dict(join_cond="a.amount + b.text_day"),
        TypeError,
        "inc_join: join_cond 'a.amount + b.text_day' is INT, not a condition; it must be true or false for a "
        "pair, e.g. 'abs(a.Amount - b.Amount) < 0.01'.",
    ),
]


@pytest.mark.parametrize("kwargs, error, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_argument_gets_one_exact_message_before_any_spark_job(spark, frames, kwargs, error, message):
    arguments = dict(join_cols="k", output_window_start="2025-03-01", output_window_end="2025-03-31")
    arguments.update(kwargs)
    group = f"validation-{abs(hash(message))}"
    spark.sparkContext.setJobGroup(group, "validation must not run jobs")
    try:
        with pytest.raises(error) as caught:
            inc_join(*frames, **arguments)
    finally:
        spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
    assert str(caught.value) == message
    assert list(spark.sparkContext.statusTracker().getJobIdsForGroup(group)) == []


def test_inputs_must_be_dataframes(frames):
    with pytest.raises(TypeError) as caught:
        inc_join(frames[0], [], join_cols="k")
    assert str(caught.value) == "inc_join: df_b must be a pyspark DataFrame (got list)."


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


@pytest.mark.parametrize("column", ["JoinType", "DiffArrivalTime", "waitingtime", "JoinTypeName"])
def test_input_column_clashing_with_a_derived_column(spark, column):
    df_a = spark.sql(f"SELECT 1 AS k, DATE'2025-03-06' AS RecDate, 3 AS `{column}`")
    df_b = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    with pytest.raises(ValueError) as caught:
        inc_join(df_a, df_b, join_cols="k", output_window_end="2025-03-06")
    assert str(caught.value) == (
        f"inc_join: df_a column '{column}' clashes with the derived output column of the same name; rename it before "
        "joining (e.g. the JoinType of an earlier inc_join in a chain)."
    )


def test_suffixed_name_clashing_with_an_input_column(spark):
    df_a = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate, 'x' AS RecDate_A")
    df_b = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    with pytest.raises(ValueError) as caught:
        inc_join(df_a, df_b, join_cols="k", output_window_end="2025-03-06")
    assert str(caught.value) == (
        "inc_join: output column 'RecDate_A' would exist twice (df_a column 'RecDate' and df_a column "
        "'RecDate_A'); rename one input column or pass other suffixes (now ('_A', '_B'))."
    )


# --- the arguments table (src/dbt_inc_join/shared_tables.py) is the one source of names and defaults -------------


@pytest.mark.parametrize("entry", ["inc_join", "inc_join_model", "inc_join_many", "inc_join_many_model"])
def test_the_python_signatures_take_the_tables_arguments_with_its_defaults(entry):
    """docs/python-api.md is the contract; the table must say the same, so the macros (which read the table's
    generated copy) and the Python entry points cannot drift."""
    import inspect

    import dbt_inc_join
    from dbt_inc_join.shared_tables import ARGUMENTS

    parameters = inspect.signature(getattr(dbt_inc_join, entry)).parameters.values()
    keywords = [p for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY]
    rows = [row for row in ARGUMENTS if entry in row["entries"]]
    assert [p.name for p in keywords] == [row["name"] for row in rows]
    for parameter, row in zip(keywords, rows, strict=True):
        expected = inspect.Parameter.empty if row["required"] else row["default"]
        assert parameter.default == expected, parameter.name


def test_the_tables_rules_name_the_python_values():
    from dbt_inc_join.join_types import HOW_VALUES, PARTNER_VALUES
    from dbt_inc_join.shared_tables import ARGUMENTS, TIME_UOM_VALUES
    from dbt_inc_join.time_units import TimeUnit

    assert tuple(unit.value for unit in TimeUnit) == TIME_UOM_VALUES
    accepted = {row["name"]: row["accepted"] for row in ARGUMENTS if row["check"] == "choice"}
    assert accepted == {"how": HOW_VALUES, "time_uom": TIME_UOM_VALUES, "partner": PARTNER_VALUES}


def test_check_parameters_takes_the_join_arguments_at_their_defaults():
    from dbt_inc_join.validation import JOIN_ARGUMENTS, check_parameters

    params = check_parameters(join_cols="k")
    assert (params.how, params.look_back_time, params.partner, params.suffixes) == ("left", 0, "all", ("_A", "_B"))
    assert "output_window_start" not in JOIN_ARGUMENTS and "max_window_units" not in JOIN_ARGUMENTS
    with pytest.raises(TypeError, match="unknown arguments colour"):
        check_parameters(join_cols="k", colour="red")
