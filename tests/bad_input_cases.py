"""spec §7's bad-input cases, one table for both languages: each case's arguments, exception and exact message in
the core (tests/core/test_validation.py calls inc_join with them), and the integration model that makes the same
mistake in SQL or a Python model (integration_tests/models/error_cases/<model>.sql or .py, run by
tests/integration/test_bad_input.py) with dbt's message. Every message is exact.

A case has a core part (``arguments``, ``error``, ``message``: the message with its ``inc_join: ``), a dbt part
(``model``), or both. The dbt message is the core's without its ``inc_join: `` unless ``sql`` gives it (the
languages word some messages differently: `df_a` and `a`, `str '2'` and `'2'`); ``sql_start``: the start of a
message whose end is Spark's own words; ``sql_compiled``: a model checked by `dbt compile` (a microbatch model
fails batch by batch at run time).
"""

from __future__ import annotations

from dataclasses import dataclass

WINDOW_LENGTH = "must be a non-negative whole number of time_uom units"
# the columns of the typed inputs (integration_tests/models/error_cases/inputs/typed_a.sql, typed_b.sql; the core's
# frames in tests/core/test_validation.py)
TYPED_A = "'k', 'RecDate', 'ts', 'text_day', 'amount', 'key_text', 'key_day', 'key_map'"
TYPED_B = "'k', 'RecDate', 'ts', 'text_day', 'status', 'key_text', 'key_day', 'key_map'"
A_COLUMNS, B_COLUMNS = TYPED_A, TYPED_B
TOKENS = (
    "join_cols, inc_col, df_a_cols, df_b_cols, inc_col_a, inc_col_b, DiffArrivalTime, WaitingTime, JoinType, "
    "JoinTypeName"
)
OUTPUT_COLUMNS = (
    "k, RecDate, RecDate_A, ts_A, text_day_A, amount, key_text_A, key_day_A, key_map_A, RecDate_B, "
    "ts_B, text_day_B, status, key_text_B, key_day_B, key_map_B"
)
WAITING = (
    "include_waiting={flag} in an incremental model would store a_waiting rows, which are provisional (a "
    "later run emits the same A row again as matched or timed out). Use include_waiting only in a view or "
    "table model that shows what is currently waiting; see the README, 'Currently waiting'."
)


MERGE = (
    "incremental_strategy='merge' replaces the output window by a predicate on RecDate on Delta and Iceberg tables "
    "only (file_format='parquet'). Use incremental_strategy='insert_overwrite' with partition_by=['RecDate']; see "
    "the README, 'Incremental strategies'."
)
UNPARTITIONED = (
    "incremental_strategy='insert_overwrite' needs partition_by=['{arrival}'] (the output's arrival column; got "
    "{got}): Spark's INSERT OVERWRITE replaces every partition the window writes, so a table not partitioned by the "
    "arrival column loses its rows outside the window."
)
APPEND_RECORDED = (
    "incremental_strategy='append' in a model that records its runs on delta: a run whose commit landed but whose "
    "ledger record did not (killed between the two) is done again by the next run, and append would add its rows "
    "twice. Use incremental_strategy='insert_overwrite' with partition_by=['RecDate'], or 'merge'."
)


REDO_APPEND = (
    "on_restated_input=redo needs incremental_strategy='insert_overwrite' (or 'merge' on Delta and Iceberg; got "
    "'append'): a redo replaces the table's rows from the restated unit on; any other strategy would keep the rows "
    "it replaces, or write them twice."
)


@dataclass(frozen=True)
class Case:
    id: str
    arguments: dict | None = None  #: the core's inc_join arguments besides join_cols='k' and the window
    error: type[Exception] | None = None
    message: str | None = None  #: the core's exact message
    model: str | None = None  #: the integration model of the same mistake
    sql: str | None = None  #: dbt's exact message, when not the core's without `inc_join: `
    sql_start: str | None = None
    sql_compiled: str | None = None

    @property
    def dbt_message(self) -> str | None:
        if self.sql is not None or self.sql_compiled is not None:
            return self.sql or self.sql_compiled
        if self.model is None or self.message is None or self.sql_start is not None:
            return None
        return self.message.removeprefix("inc_join: ")


CASES = (
    Case(
        "how-unknown",
        dict(how="outer"),
        ValueError,
        "inc_join: how='outer' is not supported; accepted values: 'inner', 'left', 'full', 'left_anti'.",
        model="bad_how_unknown",
    ),
    Case(
        "how-none",
        dict(how=None),
        ValueError,
        "inc_join: how=None is not supported; accepted values: 'inner', 'left', 'full', 'left_anti'.",
    ),
    Case(
        "time_uom-unknown",
        dict(time_uom="week"),
        ValueError,
        "inc_join: time_uom='week' is not supported; accepted values: 'day', 'hour', 'minute'.",
        model="bad_time_uom",
    ),
    Case(
        "look_back_time-negative",
        dict(look_back_time=-1),
        ValueError,
        f"inc_join: look_back_time {WINDOW_LENGTH} (got -1).",
        model="bad_look_back_negative",
    ),
    Case(
        "max_waiting_time-negative",
        dict(max_waiting_time=-3),
        ValueError,
        f"inc_join: max_waiting_time {WINDOW_LENGTH} (got -3).",
    ),
    Case(
        "look_back_time-string",
        dict(look_back_time="2"),
        TypeError,
        f"inc_join: look_back_time {WINDOW_LENGTH}, e.g. 2 (got str '2').",
        model="bad_look_back_string",
        sql=f"look_back_time {WINDOW_LENGTH}, e.g. 2 (got '2').",
    ),
    Case(
        "look_back_time-float",
        dict(look_back_time=1.5),
        TypeError,
        f"inc_join: look_back_time {WINDOW_LENGTH}, e.g. 2 (got float 1.5).",
        model="bad_look_back_float",
        sql=f"look_back_time {WINDOW_LENGTH}, e.g. 2 (got 1.5).",
    ),
    Case(
        "max_waiting_time-whole-float",
        dict(max_waiting_time=2.0),
        TypeError,
        f"inc_join: max_waiting_time {WINDOW_LENGTH}, e.g. 2 (got float 2.0).",
    ),
    Case(
        "max_waiting_time-bool",
        dict(max_waiting_time=True),
        TypeError,
        f"inc_join: max_waiting_time {WINDOW_LENGTH}, e.g. 2 (got bool True).",
    ),
    Case(
        "join_cols-missing-a",
        dict(join_cols="nope"),
        ValueError,
        f"inc_join: join_cols column 'nope' is missing from df_a; its columns are {A_COLUMNS}.",
        model="bad_key_missing_a",
        sql=f"join_cols column 'nope' is missing from a; its columns are {TYPED_A}.",
    ),
    Case(
        "join_cols-missing-b",
        dict(join_cols=["k", "amount"]),
        ValueError,
        f"inc_join: join_cols column 'amount' is missing from df_b; its columns are {B_COLUMNS}.",
    ),
    Case(
        "join_cols-empty",
        dict(join_cols=[]),
        ValueError,
        "inc_join: join_cols must name at least one column and no empty names (got []).",
        model="bad_join_cols_empty",
    ),
    Case(
        "join_cols-int",
        dict(join_cols=5),
        TypeError,
        "inc_join: join_cols must be a column name or a list of column names (got int 5).",
    ),
    Case(
        "join_cols-twice",
        dict(join_cols=["k", "K"]),
        ValueError,
        "inc_join: join_cols lists 'K', 'k' more than once.",
        model="bad_join_cols_twice",
        sql="join_cols lists 'k', 'K' more than once.",
    ),
    Case(
        "join_cols-arrival",
        dict(join_cols=["k", "RecDate"]),
        ValueError,
        "inc_join: join_cols must not contain the arrival column inc_col='RecDate'.",
        model="bad_join_cols_arrival",
    ),
    Case(
        "join_cols-types-differ",
        dict(join_cols="key_text"),
        TypeError,
        "inc_join: join_cols column 'key_text' is STRING in df_a but INT in df_b; cast one side so both have the "
        "same type.",
        model="bad_key_types_differ",
        sql="join_cols column 'key_text' is STRING in a but INT in b; cast one side so both have the same type.",
    ),
    Case(
        "join_cols-date-vs-timestamp",
        dict(join_cols=["k", "key_day"]),
        TypeError,
        "inc_join: join_cols column 'key_day' is DATE in df_a but TIMESTAMP in df_b; cast one side so both have the "
        "same type.",
        model="bad_key_date_vs_timestamp",
        sql="join_cols column 'key_day' is DATE in a but TIMESTAMP in b; cast one side so both have the same type.",
    ),
    Case(
        "join_cols-map",
        dict(join_cols="key_map"),
        TypeError,
        "inc_join: join_cols column 'key_map' is MAP<STRING,INT>, which Spark cannot compare; join on columns of "
        "a comparable type (cast or extract a field).",
        model="bad_key_map",
    ),
    Case(
        "inc_col-missing-b",
        dict(inc_col="amount"),
        ValueError,
        f"inc_join: inc_col column 'amount' is missing from df_b; its columns are {B_COLUMNS}.",
        model="bad_inc_col_missing_b",
        sql=f"inc_col column 'amount' is missing from b; its columns are {TYPED_B}.",
    ),
    Case(
        "inc_col-string",
        dict(inc_col="text_day"),
        TypeError,
        "inc_join: inc_col 'text_day' of df_a is STRING; it must be DATE or TIMESTAMP (cast it, e.g. "
        "to_date(text_day) or to_timestamp(text_day)).",
        model="bad_inc_col_string",
        sql="inc_col 'text_day' of a is STRING; it must be DATE or TIMESTAMP (cast it, e.g. "
        "to_date(text_day) or to_timestamp(text_day)).",
    ),
    Case(
        "inc_col-types-differ",
        dict(inc_col="ts"),
        TypeError,
        "inc_join: inc_col 'ts' of df_b is STRING; it must be DATE or TIMESTAMP (cast it, e.g. to_date(ts) or "
        "to_timestamp(ts)).",
        model="bad_inc_col_types_differ",
        sql="inc_col 'ts' of b is STRING; it must be DATE or TIMESTAMP (cast it, e.g. "
        "to_date(ts) or to_timestamp(ts)).",
    ),
    Case(
        "inc_col-date-for-hours",
        dict(time_uom="hour"),
        TypeError,
        "inc_join: time_uom='hour' needs a TIMESTAMP arrival column, but inc_col 'RecDate' of df_a is DATE; use "
        "time_uom='day' or a TIMESTAMP column.",
        model="bad_inc_col_date_for_hours",
        sql="time_uom='hour' needs a TIMESTAMP arrival column, but inc_col 'RecDate' of a "
        "is DATE; use time_uom='day' or a TIMESTAMP column.",
    ),
    Case(
        "inc_col-none",
        dict(inc_col=None),
        TypeError,
        "inc_join: inc_col must be the name of the arrival column present in both inputs, e.g. 'RecDate', or an "
        "(A column, B column) pair (got NoneType None).",
        model="bad_inc_col_none",
        sql="inc_col must be the name of the arrival column present in both inputs, e.g. 'RecDate', "
        "or an (A column, B column) pair (got None).",
    ),
    Case(
        "output_window_start-text",
        dict(output_window_start="yesterday"),
        ValueError,
        "inc_join: output_window_start='yesterday' is not an ISO-8601 date or timestamp; use e.g. '2025-03-06' or "
        "'2025-03-06 10:00:00'.",
        model="bad_start_text",
    ),
    Case(
        "output_window_end-int",
        dict(output_window_end=20250306),
        TypeError,
        "inc_join: output_window_end must be a date, a datetime or an ISO-8601 string such as '2025-03-06' or "
        "'2025-03-06 10:00:00' (got int 20250306).",
        model="bad_end_number",
        sql="output_window_end must be a date, a datetime or an ISO-8601 string such as '2025-03-06' or "
        "'2025-03-06 10:00:00' (got 20250306).",
    ),
    Case(
        "output_select-unknown",
        dict(output_select="join_cols, colour"),
        ValueError,
        f"inc_join: output_select token 'colour' is neither a token ({TOKENS}) nor an output column "
        f"({OUTPUT_COLUMNS}).",
        model="bad_output_select_unknown",
    ),
    Case(
        "output_select-empty",
        dict(output_select=" , "),
        ValueError,
        "inc_join: output_select selects no column; list tokens such as 'join_cols, inc_col, df_a_cols, df_b_cols, "
        "DiffArrivalTime, WaitingTime, JoinType' or column names.",
    ),
    Case(
        "output_select-twice",
        dict(output_select="join_cols, k"),
        ValueError,
        "inc_join: output_select selects column 'k' twice; list it once.",
        model="bad_output_select_twice",
    ),
    Case(
        "output_select-token-twice",
        dict(output_select="df_a_cols, inc_col_a"),
        ValueError,
        "inc_join: output_select selects column 'RecDate_A' twice; list it once.",
    ),
    Case(
        "suffixes-equal",
        dict(suffixes=("_x", "_x")),
        ValueError,
        "inc_join: suffixes must differ, or the two sides' columns would clash (got ('_x', '_x')).",
        model="bad_suffixes_equal",
        sql="suffixes must differ, or the two sides' columns would clash (got ['_x', '_x']).",
    ),
    Case(
        "suffixes-string",
        dict(suffixes="_A"),
        TypeError,
        "inc_join: suffixes must be a pair of strings such as ('_A', '_B') (got str '_A').",
        model="bad_suffixes_string",
        sql="suffixes must be a pair of strings such as ['_A', '_B'] (got '_A').",
    ),
    Case(
        "suffixes-clash",
        dict(suffixes=("", "_B")),
        ValueError,
        "inc_join: output column 'RecDate' would exist twice (the output arrival inc_col 'RecDate' and df_a column "
        "'RecDate'); rename one input column or pass other suffixes (now ('', '_B')).",
        model="bad_suffixes_clash",
        sql="output column 'RecDate' would exist twice (the output arrival inc_col 'RecDate' and "
        "column 'RecDate' of a); rename one input column or pass other suffixes (now ['', '_B']).",
    ),
    Case(
        "enforce_sliding_join_window-string",
        dict(enforce_sliding_join_window="yes"),
        TypeError,
        "inc_join: enforce_sliding_join_window must be True or False (got str 'yes').",
        model="bad_enforce_string",
        sql="enforce_sliding_join_window must be true or false (got 'yes').",
    ),
    Case(
        "include_waiting-int",
        dict(include_waiting=1),
        TypeError,
        "inc_join: include_waiting must be True or False (got int 1).",
        model="bad_include_waiting_int",
        sql="include_waiting must be true or false (got 1).",
    ),
    Case(
        "partner-unknown",
        dict(partner="latest"),
        ValueError,
        "inc_join: partner='latest' is not supported; accepted values: 'all', 'first', 'last'.",
        model="bad_partner_unknown",
    ),
    Case(
        "partner_order_by-without-partner",
        dict(partner_order_by="status"),
        ValueError,
        "inc_join: partner_order_by orders the partners for partner='first' or 'last'; with partner='all' every "
        "partner is a row of its own (set partner, or drop partner_order_by).",
        model="bad_partner_order_by_without_partner",
    ),
    Case(
        "partner_order_by-missing",
        dict(partner="first", partner_order_by=["status", "seq"]),
        ValueError,
        f"inc_join: partner_order_by column 'seq' is missing from df_b; its columns are {B_COLUMNS}.",
    ),
    Case(
        "partner_order_by-map",
        dict(partner="last", partner_order_by="key_map"),
        TypeError,
        "inc_join: partner_order_by column 'key_map' is MAP<STRING,INT>, which Spark cannot order; order by a "
        "column of another type (or a field of it).",
        model="bad_partner_order_by_map",
    ),
    Case(
        "aggregate-with-partner",
        dict(partner="first", aggregate={"n": "count(*)"}),
        ValueError,
        "inc_join: aggregate combines all partners of an A row, so partner must be 'all' (got partner='first'); "
        "use one or the other.",
        model="bad_aggregate_with_partner",
    ),
    Case(
        "aggregate-full",
        dict(how="full", aggregate={"n": "count(*)"}),
        ValueError,
        "inc_join: aggregate gives one row per A row, so how must be 'left' or 'inner' (got how='full').",
        model="bad_aggregate_full",
    ),
    Case(
        "aggregate-left_anti",
        dict(how="left_anti", aggregate={"n": "count(*)"}),
        ValueError,
        "inc_join: aggregate gives one row per A row, so how must be 'left' or 'inner' (got how='left_anti').",
    ),
    Case(
        "aggregate-not-an-aggregate",
        dict(aggregate={"n": "count(*)", "late": "text_day + 1"}),
        ValueError,
        "inc_join: aggregate 'late' = 'text_day + 1' is not an aggregate: every B column it uses must be inside "
        "an aggregate function, e.g. sum(Amount), count(*), max_by(Price, Seq).",
        model="bad_aggregate_not_aggregate",
    ),
    Case(
        "aggregate-unknown-column",
        dict(aggregate={"paid": "sum(amount)"}),
        ValueError,
        f"inc_join: aggregate 'paid' = 'sum(amount)' names a column df_b does not have: 'amount'; df_b's columns "
        f"are {B_COLUMNS}.",
        model="bad_aggregate_unknown_column_py",
    ),
    Case(
        "aggregate-unknown-function",
        dict(aggregate={"paid": "summ(text_day)"}),
        ValueError,
        "inc_join: aggregate 'paid' = 'summ(text_day)' calls a function Spark does not know: 'summ'.",
        model="bad_aggregate_unknown_function",
    ),
    Case(
        "aggregate-unbalanced",
        dict(aggregate={"paid": "sum(text_day"}),
        ValueError,
        "inc_join: aggregate['paid'] = 'sum(text_day' has unbalanced parentheses or quotes.",
        model="bad_aggregate_unbalanced",
    ),
    # spec §5: an aggregate is one of the join's own columns, like the derived ones (an input column named like
    # either only gets its side's suffix)
    Case(
        "aggregate-clashes",
        dict(aggregate={"JoinType": "count(*)"}),
        ValueError,
        "inc_join: output column 'JoinType' would exist twice (the aggregate 'JoinType' and the derived column "
        "'JoinType'); give the aggregate another name.",
        model="bad_aggregate_clash",
    ),
    Case(
        "aggregate-empty",
        dict(aggregate={}),
        TypeError,
        "inc_join: aggregate must be a non-empty mapping of output column to Spark SQL aggregate, e.g. "
        "{'n': 'count(*)'} (got dict {}).",
    ),
    Case(
        "null_fill-unknown-key",
        dict(aggregate={"n": "count(*)"}, null_fill={"n": 0, "total": 0}),
        ValueError,
        "inc_join: null_fill key 'total' is not an aggregate name; the aggregates are 'n'.",
        model="bad_null_fill_unknown_key",
    ),
    Case(
        "null_fill-without-aggregate",
        dict(null_fill={"n": 0}),
        ValueError,
        "inc_join: null_fill gives values to aggregate columns; it needs aggregate.",
        model="bad_null_fill_without_aggregate",
    ),
    Case(
        "null_fill-not-a-literal",
        dict(aggregate={"n": "count(*)"}, null_fill={"n": [0]}),
        TypeError,
        "inc_join: null_fill['n'] must be a literal: a number, string, boolean, date, datetime or None (got list [0]).",
    ),
    Case(
        "output_select-b-columns-with-aggregate",
        dict(aggregate={"n": "count(*)"}, output_select="join_cols, df_b_cols"),
        ValueError,
        "inc_join: output_select token 'df_b_cols' is not available with aggregate: B's columns reach the output "
        "only through the aggregates ('n').",
        model="bad_output_select_b_with_aggregate",
    ),
    Case(
        "partner-compatibility-mode",
        dict(partner="last", enforce_sliding_join_window=False),
        ValueError,
        "inc_join: partner needs the sliding join window; enforce_sliding_join_window=False (the compatibility "
        "mode) only supports partner='all' without aggregate.",
    ),
    Case(
        "many_rows_per_key-string",
        dict(many_rows_per_key="yes"),
        TypeError,
        "inc_join: many_rows_per_key must be True, False or 'auto' (got str 'yes').",
    ),
    Case(
        "late_match_time-negative",
        dict(late_match_time=-2),
        ValueError,
        "inc_join: late_match_time must be a non-negative whole number of time_uom units (got -2).",
    ),
    Case(
        "late_match_time-string",
        dict(late_match_time="3"),
        TypeError,
        "inc_join: late_match_time must be a non-negative whole number of time_uom units, e.g. 2 (got str '3').",
    ),
    Case(
        "late_match_time-left_anti",
        dict(how="left_anti", late_match_time=3),
        ValueError,
        "inc_join: late_match_time pairs timed-out A rows with partners that came later, but how='left_anti' "
        "outputs no pairs; use how='left' (or late_match_time=0).",
        model="bad_late_match_left_anti",
    ),
    Case(
        "late_match_time-first",
        dict(partner="first", late_match_time=3),
        ValueError,
        "inc_join: late_match_time needs partner='all' without aggregate (got partner='first'): a late partner is "
        "a row of its own, and one row per A row would have to change after it was final.",
    ),
    Case(
        "late_match_time-aggregate",
        dict(aggregate={"n": "count(*)"}, late_match_time=1),
        ValueError,
        "inc_join: late_match_time needs partner='all' without aggregate (got aggregate): a late partner is a row "
        "of its own, and one row per A row would have to change after it was final.",
    ),
    Case(
        "late_match_time-compatibility-mode",
        dict(enforce_sliding_join_window=False, late_match_time=1),
        ValueError,
        "inc_join: late_match_time needs the sliding join window; enforce_sliding_join_window=False (the "
        "compatibility mode) has no window to be late for.",
    ),
    Case(
        "join_cols-mapping-missing-b",
        dict(join_cols={"k": "kk"}),
        ValueError,
        f"inc_join: join_cols column 'kk' is missing from df_b; its columns are {B_COLUMNS}.",
        model="bad_join_cols_mapping_missing_b",
        sql=f"join_cols column 'kk' is missing from b; its columns are {TYPED_B}.",
    ),
    Case(
        "join_cols-mapping-not-names",
        dict(join_cols={"k": 1}),
        TypeError,
        "inc_join: join_cols must be a column name, a list of them, or a mapping {A column: B column} of names "
        "(got dict {'k': 1}).",
    ),
    Case(
        "join_cols-mapping-types-differ",
        dict(join_cols={"key_text": "k"}),
        TypeError,
        "inc_join: join_cols column 'key_text (df_b: k)' is STRING in df_a but INT in df_b; cast one side so both "
        "have the same type.",
    ),
    Case(
        "inc_col-pair-missing-b",
        dict(inc_col=("RecDate", "paid_on")),
        ValueError,
        f"inc_join: inc_col column 'paid_on' is missing from df_b; its columns are {B_COLUMNS}.",
        model="bad_inc_col_pair_missing_b",
        sql=f"inc_col column 'paid_on' is missing from b; its columns are {TYPED_B}.",
    ),
    Case(
        "inc_col-three-names",
        dict(inc_col=["RecDate", "RecDate", "ts"]),
        TypeError,
        "inc_join: inc_col must be the name of the arrival column present in both inputs, e.g. 'RecDate', or an "
        "(A column, B column) pair (got list ['RecDate', 'RecDate', 'ts']).",
    ),
    Case(
        "join_cond-unknown-alias",
        dict(join_cond="c.amount > 0"),
        ValueError,
        "inc_join: join_cond 'c.amount > 0' names 'c.amount': the side alias 'c' is unknown; write a.<column> for "
        "A's columns and b.<column> for B's.",
        model="bad_join_cond_unknown_alias",
    ),
    Case(
        "join_cond-unknown-column",
        dict(join_cond="a.amount > 0 AND b.amount > 0"),
        ValueError,
        "inc_join: join_cond 'a.amount > 0 AND b.amount > 0' names b.amount, a column df_b does not have; df_b's "
        f"columns are {B_COLUMNS}.",
        model="bad_join_cond_unknown_column",
        sql="join_cond 'a.amount > 0 AND b.amount > 0' names b.amount, a column b does "
        f"not have; b's columns are {TYPED_B}.",
    ),
    Case(
        "join_cond-no-side",
        dict(join_cond="1 = 1"),
        ValueError,
        "inc_join: join_cond '1 = 1' names no column of either side; write A's columns as a.<column> and B's as "
        "b.<column>, e.g. 'abs(a.Amount - b.Amount) < 0.01'.",
    ),
    Case(
        "join_cond-not-boolean",
        dict(join_cond="a.amount + b.text_day"),
        TypeError,
        "inc_join: join_cond 'a.amount + b.text_day' is INT, not a condition; it must be true or false for a "
        "pair, e.g. 'abs(a.Amount - b.Amount) < 0.01'.",
        model="bad_join_cond_not_boolean",
    ),
    Case(
        "bad_max_waiting_negative", model="bad_max_waiting_negative", sql=f"max_waiting_time {WINDOW_LENGTH} (got -1)."
    ),
    Case(
        "bad_key_missing_b",
        model="bad_key_missing_b",
        sql="join_cols column 'Account' is missing from b; its columns are 'PaymentId', 'TrxId', "
        "'Country', 'Status', 'RecDate'.",
    ),
    Case(
        "bad_many_same_name",
        model="bad_many_same_name",
        sql="inc_join_many: two inputs are named 'PAY'; each input needs a name of its own.",
    ),
    Case(
        "bad_many_no_window",
        model="bad_many_no_window",
        sql="inc_join_many: input 'pay' has no window: give its look_back_time and max_waiting_time "
        "(0 is allowed), the units a partner may arrive before and after its A row.",
    ),
    Case(
        "bad_many_partner_all",
        model="bad_many_partner_all",
        sql="inc_join_many: input 'pay': partner='all' is not one row per A row; inc_join_many "
        "gives one row per A row: use partner='first' or 'last', or aggregate.",
    ),
    Case(
        "bad_many_mapping_missing",
        model="bad_many_mapping_missing",
        sql=f"join_cols column 'kk' is missing from input 'pay'; its columns are {TYPED_B}.",
    ),
    Case(
        "bad_many_join_cond_alias",
        model="bad_many_join_cond_alias",
        sql="join_cond 'c.amount > 0 AND b.amount > 0' names 'c.amount': the side alias 'c' is "
        "unknown; write a.<column> for A's columns and b.<column> for B's.",
    ),
    Case("bad_waiting_in_incremental", model="bad_waiting_in_incremental", sql=WAITING.format(flag="true")),
    Case("bad_waiting_in_incremental_py", model="bad_waiting_in_incremental_py", sql=WAITING.format(flag="True")),
    Case("bad_merge_strategy", model="bad_merge_strategy", sql=MERGE),
    Case(
        "bad_overwrite_unpartitioned",
        model="bad_overwrite_unpartitioned",
        sql=UNPARTITIONED.format(arrival="RecDate", got="None"),
    ),
    Case(
        "bad_overwrite_unpartitioned_py",
        model="bad_overwrite_unpartitioned_py",
        sql=UNPARTITIONED.format(arrival="RecDate", got="['TrxId']"),
    ),
    Case("bad_append_recorded", model="bad_append_recorded", sql=APPEND_RECORDED),
    Case("bad_many_waiting_in_incremental", model="bad_many_waiting_in_incremental", sql=WAITING.format(flag="true")),
    Case(
        "bad_many_waiting_in_incremental_py",
        model="bad_many_waiting_in_incremental_py",
        sql=WAITING.format(flag="True"),
    ),
    Case(
        "bad_late_match_with_partner",
        model="bad_late_match_with_partner",
        sql="late_match_time needs partner='all' without aggregate (got partner='last'): a "
        "late partner is a row of its own, and one row per A row would have to change after it was final.",
    ),
    Case("bad_late_match_negative", model="bad_late_match_negative", sql=f"late_match_time {WINDOW_LENGTH} (got -1)."),
    Case(
        "bad_max_window_units_zero",
        model="bad_max_window_units_zero",
        sql="max_window_units must be a positive whole number of time_uom units, e.g. 31 (got 0).",
    ),
    Case(
        "bad_max_window_units_text_py",
        model="bad_max_window_units_text_py",
        sql="max_window_units must be a positive whole number of time_uom units, e.g. 31 (got '31').",
    ),
    Case(
        "bad_aggregate_unknown_column",
        model="bad_aggregate_unknown_column",
        sql=f"aggregate 'paid' = 'sum(amount)' names a column b does not have: 'amount'; b's columns are {TYPED_B}.",
    ),
    Case(
        "bad_ephemeral_input",
        model="bad_ephemeral_input",
        sql="b is the ephemeral model __dbt__cte__ephemeral_b: inc_join reads the columns and "
        "arrivals of its inputs from the warehouse before it writes the join. Materialize it as a view or table.",
    ),
    Case(
        "bad_join_cond_spark_error",
        model="bad_join_cond_spark_error",
        sql_start="join_cond 'no_such_function(a.amount) > b.k' is not a valid Spark SQL "
        "condition over a. and b.: [UNRESOLVED_ROUTINE]",
    ),
    Case(
        "bad_batch_finer_than_unit",
        model="bad_batch_finer_than_unit",
        sql_compiled="batch_size='hour' is finer than time_uom='day'; a batch must cover whole "
        "units: use batch_size 'day' or coarser, or a finer time_uom.",
    ),
    # an argument name the table does not know (Python raises its own TypeError for an unknown keyword)
    Case(
        "unknown-argument",
        model="bad_unknown_argument",
        sql="unknown argument 'look_back'; accepted arguments: a, b, join_cols, inc_col, how, look_back_time, "
        "max_waiting_time, output_window_start, output_window_end, time_uom, enforce_sliding_join_window, "
        "include_waiting, output_select, suffixes, partner, partner_order_by, aggregate, null_fill, "
        "many_rows_per_key, late_match_time, max_window_units, join_cond, on_restated_input, restated_horizon.",
    ),
    # what a run does with restated input units (spec §14)
    Case(
        "bad_on_restated_input",
        model="bad_on_restated_input",
        sql="on_restated_input='repair' is not supported; accepted values: 'warn', 'fail', 'redo'.",
    ),
    *(
        Case(
            f"bad_redo_with_append{suffix}",
            model=f"bad_redo_with_append{suffix}",
            sql=REDO_APPEND,
        )
        for suffix in ("", "_py")
    ),
    Case(
        "bad_restated_horizon",
        model="bad_restated_horizon",
        sql="restated_horizon must be a non-negative whole number of time_uom units (got -24).",
    ),
    Case(
        "bad_redo_unpartitioned",
        model="bad_redo_unpartitioned",
        sql=UNPARTITIONED.format(arrival="RecDate", got="['k']"),
    ),
)

#: The core's cases: (id, arguments, exception, exact message).
CORE = tuple((c.id, c.arguments, c.error, c.message) for c in CASES if c.arguments is not None)
#: dbt's cases by model: the exact message (run or compiled), or the start of one that ends in Spark's words.
DBT_EXACT = {c.model: c.dbt_message for c in CASES if c.model and c.sql_start is None and c.sql_compiled is None}
DBT_STARTS = {c.model: c.sql_start for c in CASES if c.model and c.sql_start is not None}
DBT_COMPILED = {c.model: c.sql_compiled for c in CASES if c.model and c.sql_compiled is not None}
