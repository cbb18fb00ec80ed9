"""The JoinType tests and suggest_windows on an output whose arrival column is not RecDate (here load_date):
the project-wide var inc_join_inc_col, the inc_col argument, and one inc_join: message naming the parameter and
the model's columns when a column is missing (instead of Spark's UNRESOLVED_COLUMN and its plan). The models and
tests are in integration_tests/models/arrival_column/."""

from __future__ import annotations

import json
import re

import pytest

from .test_bad_input import inc_join_message

pytestmark = pytest.mark.dbt

LOAD_DATE = {"inc_join_inc_col": "load_date"}
TESTS = ["share", "distribution", "drift", "a_rows_once"]
OUTPUT_COLUMNS = (
    "'TrxId', 'load_date', 'Account', 'Amount', 'load_date_A', 'PaymentId', 'Country', 'Status', "
    "'load_date_B', 'DiffArrivalTime', 'WaitingTime', 'JoinType'"
)
MISSING_INC_COL = (
    f"inc_col column 'RecDate' is missing from model load_date_left; its columns are {OUTPUT_COLUMNS}; "
    "pass the test's inc_col argument, or set the var inc_join_inc_col for the whole project (default "
    "'RecDate')."
)
A_ARRIVAL_HINT = (
    "pass a_arrival_col, the raw A arrival column of the output; by default it is <inc_col>_A, so the "
    "test's inc_col argument or the var inc_join_inc_col (default 'RecDate') also sets it."
)
MISSING_A_ARRIVAL = (
    f"a_arrival_col column 'RecDate_A' is missing from model load_date_left; its columns are "
    f"{OUTPUT_COLUMNS}; {A_ARRIVAL_HINT}"
)
BAD = {
    "load_date_bad_join_cols": f"join_cols column 'trx_key' is missing from model load_date_left; its columns are "
    f"{OUTPUT_COLUMNS}; pass the names of the output columns.",
    "load_date_bad_a_arrival_col": MISSING_A_ARRIVAL,
    "load_date_input_has_no_join_type": "model load_date_a has no JoinType column; its columns are 'TrxId', "
    "'Account', 'Amount', 'load_date'; the JoinType tests read the output of "
    "dbt_inc_join.inc_join; keep JoinType in its output_select.",
}


def results(result):
    return {r.node.name: (str(r.status), r.failures, r.message or "") for r in result.result.results}


@pytest.fixture(scope="module")
def built(project):
    project.invoke("run", "--select", "load_date_a", "load_date_b", "load_date_left")
    return project


def test_the_tests_find_load_date_through_the_var(built):
    found = results(built.invoke("test", "--select", "tag:arrival_var", vars=LOAD_DATE))
    assert {name: status for name, (status, _, _) in found.items()} == {f"load_date_{t}_var": "pass" for t in TESTS}


def test_the_tests_find_load_date_through_the_argument(built):
    found = results(built.invoke("test", "--select", "tag:arrival_arg"))
    assert {name: status for name, (status, _, _) in found.items()} == {f"load_date_{t}_arg": "pass" for t in TESTS}


def test_without_argument_or_var_each_test_names_the_missing_column(built):
    """No inc_col and no var: the default RecDate is not in the model, said once per test, with its columns."""
    found = results(built.invoke("test", "--select", "tag:arrival_var", expect_success=False))
    assert set(found) == {f"load_date_{t}_var" for t in TESTS}
    for name, (status, _, message) in found.items():
        assert status == "error", name
        expected = MISSING_A_ARRIVAL if name == "load_date_a_rows_once_var" else MISSING_INC_COL
        assert inc_join_message(message) == expected, name
        assert "UNRESOLVED_COLUMN" not in message and "Traceback" not in message


def test_columns_the_model_lacks_are_named(built):
    found = results(built.invoke("test", "--select", "tag:arrival_bad", expect_success=False))
    assert set(found) == set(BAD)
    for name, message in BAD.items():
        assert found[name][0] == "error", name
        assert inc_join_message(found[name][2]) == message, name
        assert "UNRESOLVED_COLUMN" not in found[name][2]


@pytest.mark.parametrize("how", ["var", "argument"])
def test_suggest_windows_takes_load_date_from_the_var_or_the_argument(spark, built, capfd, how):
    from dbt_inc_join import suggest_windows

    arguments = dict(a="load_date_a", b="load_date_b", join_cols=["TrxId"], coverage=0.99)
    if how == "argument":
        arguments["inc_col"] = "load_date"
    capfd.readouterr()
    built.invoke(
        "run-operation",
        "dbt_inc_join.suggest_windows",
        "--args",
        json.dumps(arguments),
        vars=LOAD_DATE if how == "var" else None,
    )
    printed = capfd.readouterr().out
    python = suggest_windows(
        spark.table("inc_join_it.gen_a"), spark.table("inc_join_it.gen_b"), join_cols="TrxId", coverage=0.99
    )
    assert f"inc_join window sizing: {python.count} partner pairs" in printed
    suggested = re.search(r"look_back_time=(\d+), max_waiting_time=(\d+)", printed)
    assert suggested and (int(suggested[1]), int(suggested[2])) == (python.look_back_time, python.max_waiting_time)


def test_suggest_windows_without_argument_or_var_names_the_missing_column(built, capfd):
    capfd.readouterr()
    arguments = dict(a="load_date_a", b="load_date_b", join_cols=["TrxId"])
    result = built.invoke(
        "run-operation", "dbt_inc_join.suggest_windows", "--args", json.dumps(arguments), expect_success=False
    )
    assert not result.success
    printed = capfd.readouterr()
    message = "inc_col column 'RecDate' is missing from a; its columns are 'TrxId', 'Account', 'Amount', 'load_date'."
    assert f"inc_join: {message}" in printed.out + printed.err + str(result.exception or "")
    assert "UNRESOLVED_COLUMN" not in printed.out + printed.err
