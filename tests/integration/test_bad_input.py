"""spec §7 for the SQL macro (and the Python model): each bad argument or input fails its model with one exact
message naming the parameter, and the other models still run. The same cases for the core are in
tests/core/test_validation.py; the models are integration_tests/models/error_cases/."""

from __future__ import annotations

import re

import pytest

from .pipeline import LAST_DAY

pytestmark = pytest.mark.dbt

ERROR_CASES = {"inc_join_error_cases": True}
WINDOW_LENGTH = "must be a non-negative whole number of time_uom units"
TYPED_A = "'k', 'RecDate', 'ts', 'text_day', 'amount', 'key_text', 'key_day', 'key_map'"
TYPED_B = "'k', 'RecDate', 'ts', 'text_day', 'status', 'key_text', 'key_day', 'key_map'"
WAITING = (
    "include_waiting={flag} in an incremental model would store a_waiting rows, which are provisional (a "
    "later run emits the same A row again as matched or timed out). Use include_waiting only in a view or "
    "table model that shows what is currently waiting; see the README, 'Currently waiting'."
)
MESSAGES = {
    "bad_how_unknown": "how='outer' is not supported; accepted values: 'inner', 'left', 'full', 'left_anti'.",
    "bad_time_uom": "time_uom='week' is not supported; accepted values: 'day', 'hour', 'minute'.",
    "bad_look_back_negative": f"look_back_time {WINDOW_LENGTH} (got -1).",
    "bad_max_waiting_negative": f"max_waiting_time {WINDOW_LENGTH} (got -1).",
    "bad_look_back_string": f"look_back_time {WINDOW_LENGTH}, e.g. 2 (got '2').",
    "bad_look_back_float": f"look_back_time {WINDOW_LENGTH}, e.g. 2 (got 1.5).",
    "bad_key_missing_a": f"join_cols column 'nope' is missing from a; its columns are {TYPED_A}.",
    "bad_key_missing_b": "join_cols column 'Account' is missing from b; its columns are 'PaymentId', 'TrxId', "
    "'Country', 'Status', 'RecDate'.",
    "bad_join_cols_empty": "join_cols must name at least one column and no empty names (got []).",
    "bad_join_cols_twice": "join_cols lists 'k', 'K' more than once.",
    "bad_join_cols_arrival": "join_cols must not contain the arrival column inc_col='RecDate'.",
    "bad_key_types_differ": "join_cols column 'key_text' is STRING in a but INT in b; cast one side so both have "
    "the same type.",
    "bad_key_date_vs_timestamp": "join_cols column 'key_day' is DATE in a but TIMESTAMP in b; cast one side so "
    "both have the same type.",
    "bad_key_map": "join_cols column 'key_map' is MAP<STRING,INT>, which Spark cannot compare; join on columns of "
    "a comparable type (cast or extract a field).",
    "bad_inc_col_missing_b": f"inc_col column 'amount' is missing from b; its columns are {TYPED_B}.",
    "bad_inc_col_string": "inc_col 'text_day' of a is STRING; it must be DATE or TIMESTAMP (cast it, e.g. "
    "to_date(text_day) or to_timestamp(text_day)).",
    "bad_inc_col_types_differ": "inc_col 'ts' of b is STRING; it must be DATE or TIMESTAMP (cast it, e.g. "
    "to_date(ts) or to_timestamp(ts)).",
    "bad_inc_col_date_for_hours": "time_uom='hour' needs a TIMESTAMP arrival column, but inc_col 'RecDate' of a "
    "is DATE; use time_uom='day' or a TIMESTAMP column.",
    "bad_inc_col_none": "inc_col must be the name of the arrival column present in both inputs, e.g. 'RecDate', "
    "or an (A column, B column) pair (got None).",
    # spec §12: keys and arrival named per side, and join_cond
    "bad_join_cols_mapping_missing_b": f"join_cols column 'kk' is missing from b; its columns are {TYPED_B}.",
    "bad_inc_col_pair_missing_b": f"inc_col column 'paid_on' is missing from b; its columns are {TYPED_B}.",
    "bad_join_cond_unknown_alias": "join_cond 'c.amount > 0' names 'c.amount': the side alias 'c' is unknown; "
    "write a.<column> for A's columns and b.<column> for B's.",
    "bad_join_cond_unknown_column": "join_cond 'a.amount > 0 AND b.amount > 0' names b.amount, a column b does "
    f"not have; b's columns are {TYPED_B}.",
    "bad_join_cond_not_boolean": "join_cond 'a.amount + b.text_day' is INT, not a condition; it must be true or "
    "false for a pair, e.g. 'abs(a.Amount - b.Amount) < 0.01'.",
    # spec §12, inc_join_many: its own checks name it; a column check names the input
    "bad_many_same_name": "inc_join_many: two inputs are named 'PAY'; each input needs a name of its own.",
    "bad_many_no_window": "inc_join_many: input 'pay' has no window: give its look_back_time and max_waiting_time "
    "(0 is allowed), the units a partner may arrive before and after its A row.",
    "bad_many_partner_all": "inc_join_many: input 'pay': partner='all' is not one row per A row; inc_join_many "
    "gives one row per A row: use partner='first' or 'last', or aggregate.",
    "bad_many_mapping_missing": f"join_cols column 'kk' is missing from input 'pay'; its columns are {TYPED_B}.",
    "bad_many_join_cond_alias": "join_cond 'c.amount > 0 AND b.amount > 0' names 'c.amount': the side alias 'c' is "
    "unknown; write a.<column> for A's columns and b.<column> for B's.",
    "bad_start_text": "output_window_start='yesterday' is not an ISO-8601 date or timestamp; use e.g. "
    "'2025-03-06' or '2025-03-06 10:00:00'.",
    "bad_end_number": "output_window_end must be a date, a datetime or an ISO-8601 string such as '2025-03-06' or "
    "'2025-03-06 10:00:00' (got 20250306).",
    "bad_output_select_unknown": "output_select token 'colour' is neither a token (join_cols, inc_col, df_a_cols, "
    "df_b_cols, inc_col_a, inc_col_b, DiffArrivalTime, WaitingTime, JoinType, "
    "JoinTypeName) nor an output column (k, RecDate, RecDate_A, ts_A, text_day_A, "
    "amount, key_text_A, key_day_A, key_map_A, RecDate_B, ts_B, text_day_B, status, "
    "key_text_B, key_day_B, key_map_B).",
    "bad_output_select_twice": "output_select selects column 'k' twice; list it once.",
    "bad_suffixes_equal": "suffixes must differ, or the two sides' columns would clash (got ['_x', '_x']).",
    "bad_suffixes_string": "suffixes must be a pair of strings such as ['_A', '_B'] (got '_A').",
    "bad_suffixes_clash": "output column 'RecDate' would exist twice (the output arrival inc_col 'RecDate' and "
    "column 'RecDate' of a); rename one input column or pass other suffixes (now ['', '_B']).",
    "bad_derived_column_clash": "column 'JoinType' of a clashes with the derived output column of the same name; "
    "rename it before joining (e.g. the JoinType of an earlier inc_join in a chain).",
    "bad_enforce_string": "enforce_sliding_join_window must be true or false (got 'yes').",
    "bad_include_waiting_int": "include_waiting must be true or false (got 1).",
    "bad_waiting_in_incremental": WAITING.format(flag="true"),
    "bad_waiting_in_incremental_py": WAITING.format(flag="True"),
    "bad_many_waiting_in_incremental": WAITING.format(flag="true"),
    "bad_many_waiting_in_incremental_py": WAITING.format(flag="True"),
    # spec §11: one row per A
    "bad_partner_unknown": "partner='latest' is not supported; accepted values: 'all', 'first', 'last'.",
    "bad_partner_order_by_without_partner": "partner_order_by orders the partners for partner='first' or 'last'; "
    "with partner='all' every partner is a row of its own (set partner, or drop partner_order_by).",
    "bad_partner_order_by_map": "partner_order_by column 'key_map' is MAP<STRING,INT>, which Spark cannot order; "
    "order by a column of another type (or a field of it).",
    "bad_aggregate_with_partner": "aggregate combines all partners of an A row, so partner must be 'all' (got "
    "partner='first'); use one or the other.",
    "bad_aggregate_full": "aggregate gives one row per A row, so how must be 'left' or 'inner' (got how='full').",
    "bad_late_match_left_anti": "late_match_time pairs timed-out A rows with partners that came later, but "
    "how='left_anti' outputs no pairs; use how='left' (or late_match_time=0).",
    "bad_late_match_with_partner": "late_match_time needs partner='all' without aggregate (got partner='last'): a "
    "late partner is a row of its own, and one row per A row would have to change after it was final.",
    "bad_late_match_negative": f"late_match_time {WINDOW_LENGTH} (got -1).",
    "bad_max_window_units_zero": "max_window_units must be a positive whole number of time_uom units, e.g. 31 (got 0).",
    "bad_max_window_units_text_py": "max_window_units must be a positive whole number of time_uom units, e.g. 31 "
    "(got '31').",
    "bad_aggregate_not_aggregate": "aggregate 'late' = 'text_day + 1' is not an aggregate: every B column it uses "
    "must be inside an aggregate function, e.g. sum(Amount), count(*), max_by(Price, Seq).",
    "bad_aggregate_unknown_column": "aggregate 'paid' = 'sum(amount)' names a column b does not have: 'amount'; "
    f"b's columns are {TYPED_B}.",
    "bad_aggregate_unknown_column_py": "aggregate 'paid' = 'sum(amount)' names a column df_b does not have: "
    f"'amount'; df_b's columns are {TYPED_B}.",
    "bad_aggregate_unknown_function": "aggregate 'paid' = 'summ(text_day)' calls a function Spark does not know: "
    "'summ'.",
    "bad_aggregate_unbalanced": "aggregate['paid'] = 'sum(text_day' has unbalanced parentheses or quotes.",
    "bad_null_fill_unknown_key": "null_fill key 'total' is not an aggregate name; the aggregates are 'n'.",
    "bad_null_fill_without_aggregate": "null_fill gives values to aggregate columns; it needs aggregate.",
    "bad_ephemeral_input": "b is the ephemeral model __dbt__cte__ephemeral_b: inc_join reads the columns and "
    "arrivals of its inputs from the warehouse before it writes the join. Materialize it as a view or table.",
    "bad_output_select_b_with_aggregate": "output_select token 'df_b_cols' is not available with aggregate: B's "
    "columns reach the output only through the aggregates ('n').",
}
# Spark's own words (which differ between Spark versions) follow the package's start of the message.
MESSAGE_STARTS = {
    "bad_join_cond_spark_error": "join_cond 'no_such_function(a.amount) > b.k' is not a valid Spark SQL "
    "condition over a. and b.: [UNRESOLVED_ROUTINE]",
}
# A microbatch model fails batch by batch at run time; compiling it shows the model-level message.
COMPILED = {
    "bad_batch_finer_than_unit": "batch_size='hour' is finer than time_uom='day'; a batch must cover whole "
    "units: use batch_size 'day' or coarser, or a finer time_uom."
}


def inc_join_message(text: str) -> str:
    """The inc_join line of dbt's error (dbt adds the model's name and the macro call stack around it), without
    its `inc_join: ` (inc_join_many's own messages keep their `inc_join_many: `)."""
    found = re.findall(r"^\s*(inc_join(?:_many)?: .*)$", text, re.M)
    assert len(found) == 1, text
    return found[0].removeprefix("inc_join: ")


@pytest.fixture(scope="module")
def failures(project):
    """One dbt run of every error-case model (each fails on its own) and one compile for the microbatch one."""
    result = project.invoke(
        "run",
        "--select",
        "+error_cases",
        "--exclude",
        "bad_batch_finer_than_unit",
        vars=ERROR_CASES,
        today=LAST_DAY,
        expect_success=False,
    )
    statuses = {r.node.name: (str(r.status), r.message) for r in result.result.results}
    for name in COMPILED:
        compiled = project.invoke("compile", "--select", name, vars=ERROR_CASES, today=LAST_DAY, expect_success=False)
        statuses[name] = ("error", str(compiled.exception))
    return statuses


@pytest.mark.parametrize("model, message", sorted({**MESSAGES, **COMPILED}.items()))
def test_bad_model_fails_with_one_exact_message(failures, model, message):
    status, text = failures[model]
    assert status == "error"
    assert inc_join_message(text) == message
    assert "Traceback" not in text and "Exception" not in text


@pytest.mark.parametrize("model, start", sorted(MESSAGE_STARTS.items()))
def test_bad_model_fails_with_one_message_ending_in_sparks_words(failures, model, start):
    status, text = failures[model]
    assert status == "error"
    assert inc_join_message(text).startswith(start) and "no_such_function" in inc_join_message(text)[len(start) :]
    assert "Traceback" not in text


def test_every_error_case_model_is_checked(failures):
    """A new model in error_cases/ needs its expected message here; the typed inputs still build."""
    checked = (
        set(MESSAGES)
        | set(MESSAGE_STARTS)
        | set(COMPILED)
        | {"typed_a", "typed_b", "derived_clash_a", "stg_gen_a", "stg_gen_b"}
    )
    assert set(failures) == checked
    assert all(failures[name][0] == "success" for name in ("typed_a", "typed_b", "derived_clash_a"))
