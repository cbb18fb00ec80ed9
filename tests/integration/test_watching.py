"""The JoinType tests: they pass on a healthy pipeline and catch crafted bad data, with dbt's severity,
warn_if and error_if working as usual."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.dbt


def statuses(result):
    return {r.node.name: (str(r.status), r.failures) for r in result.result.results}


@pytest.fixture(scope="module")
def bad(project):
    project.invoke("run", "--select", "bad_pipeline", "+late_partners_left", "stalled_b")
    result = project.invoke("test", "--select", "tag:must_fail", expect_success=False)
    return statuses(result)


def test_tests_pass_on_the_healthy_pipeline(project, daily):
    result = project.invoke(
        "test",
        "--select",
        "gen_left",
        "gen_full",
        "gen_chained",
        "--exclude",
        "tag:must_fail",
        "tag:audit",
        "tag:generic_bad",
    )
    found = statuses(result)
    assert len(found) == 10 and all(status == "pass" for status, _ in found.values()), found


@pytest.mark.parametrize(
    "test, status, failures",
    [
        ("bad_share_last_day", "fail", 1),  # last day: 10 of 20 rows timed out > 20 %
        ("bad_share_small_sample_skipped", "pass", 0),  # the same, but 20 rows < min_rows 50: not judged
        ("bad_share_over_all_rows_passes", "pass", 0),  # over all 168 rows: 19 timed out = 11 % <= 15 %
        ("bad_share_min_warns", "warn", 1),  # severity: warn
        ("bad_distribution", "fail", 1),  # only 2025-01-08 breaks a_timed_out <= 20 %
        ("bad_distribution_warn_if", "warn", 1),  # one failing row: warn_if >0 but not error_if >1
        ("bad_drift", "fail", 2),  # a_timed_out 50 % vs median 5 %; same_time 35 % vs 65 %
        ("bad_drift_within_tolerance", "pass", 0),  # the same change, within max_change 0.5
        # TrxId 1000 matched and timed out; a duplicated row; TrxId 1003 matched and late matched (1002 timed out,
        # then late matched, is fine)
        ("bad_a_rows", "fail", 3),
        ("missed_late_and_early_partners", "fail", 1),  # 3 of the 4 timed-out rows had a partner outside
        ("missed_partners_late_matched_pass", "pass", 0),  # late_match_time 2 accounts for the late ones: 1 of 4
        ("stalled_input", "fail", 1),  # B's last load is 3 days behind A's
    ],
)
def test_crafted_bad_data(bad, test, status, failures):
    assert bad[test] == (status, failures)


def test_late_partner_tests_say_what_failed(spark, project, bad):
    """The failing rows of missed_partners and input_lag, exactly (spec §10)."""
    result = project.invoke("test", "--select", "missed_late_and_early_partners", "stalled_input", expect_success=False)
    failing = {r.node.name: spark.sql(r.node.compiled_code).collect() for r in result.result.results}
    [missed] = failing["missed_late_and_early_partners"]
    assert (str(missed.period), missed.timed_out_rows, missed.partner_too_late, missed.partner_too_early) == (
        "2025-01-04",
        4,
        2,
        1,
    )
    assert missed.share == 0.75
    assert missed.catching_window == "look_back_time=3, max_waiting_time=4 (or late_match_time=2)"
    [lag] = failing["stalled_input"]
    assert lag.input_behind.endswith("stalled_b") and lag.input_ahead.endswith("late_partners_a")
    assert (str(lag.behind_since), str(lag.ahead_latest), lag.lag, lag.max_lag) == ("2025-01-03", "2025-01-06", 3, 1)


@pytest.mark.parametrize(
    "seed_a, seed_b, unit, coverage, window",
    [
        ("gen_a", "gen_b", "day", 0.99, None),
        ("gen_a", "gen_b", "day", 0.9, {"look_back_time": 2, "max_waiting_time": 4}),
        ("gen_hour_a", "gen_hour_b", "hour", 0.999, None),
    ],
)
def test_suggest_windows_run_operation_agrees_with_python(
    spark, project, capfd, seed_a, seed_b, unit, coverage, window
):
    import json
    import re

    from dbt_inc_join import suggest_windows

    capfd.readouterr()
    arguments = dict(a=seed_a, b=seed_b, join_cols=["TrxId"], inc_col="RecDate", time_uom=unit, coverage=coverage)
    arguments.update(window or {})
    project.invoke("run-operation", "dbt_inc_join.suggest_windows", "--args", json.dumps(arguments))
    printed = capfd.readouterr().out
    python = suggest_windows(
        spark.table(f"inc_join_it.{seed_a}"),
        spark.table(f"inc_join_it.{seed_b}"),
        join_cols="TrxId",
        time_uom=unit,
        coverage=coverage,
        **(window or {}),
    )
    assert f"inc_join window sizing: {python.count} partner pairs" in printed
    assert f"delta from {python.minimum} to {python.maximum} {unit}s" in printed
    suggested = re.search(r"look_back_time=(\d+), max_waiting_time=(\d+)", printed)
    assert suggested and (int(suggested[1]), int(suggested[2])) == (python.look_back_time, python.max_waiting_time)
    quantiles = dict(re.findall(r"([\d.]+)%: (-?\d+)", printed))
    assert {round(float(k) / 100, 6): int(v) for k, v in quantiles.items()} == python.quantiles
    for candidate in python.candidates:
        assert f"  {candidate.look_back_time}  {candidate.max_waiting_time}  " in printed
    # spec §10: the pairs each late_match_time would pair late, for the window in use (or the suggested one)
    lb, mw = python.late_window
    assert (lb, mw) == ((window["look_back_time"], window["max_waiting_time"]) if window else suggested_window(python))
    assert f"late matches with look_back_time={lb}, max_waiting_time={mw}:" in printed
    assert python.late_matches and (window is None or any(m.pairs for m in python.late_matches))
    for late in python.late_matches:
        assert f"  {late.late_match_time}  {late.pairs}  " in printed


def suggested_window(suggestion):
    return suggestion.look_back_time, suggestion.max_waiting_time


def printed_report(printed: str, lines: int) -> str:
    """The report the run-operation printed: ``lines`` lines from its first line."""
    found = printed.splitlines()
    start = next(i for i, line in enumerate(found) if line.startswith("inc_join window sizing"))
    return "\n".join(found[start : start + lines])


@pytest.mark.parametrize(
    "seed_a, seed_b, unit, coverage, partner",
    [
        ("gen_a", "gen_b", "day", 0.99, "first"),
        ("gen_a", "gen_b", "day", 0.9, "last"),
        ("gen_hour_a", "gen_hour_b", "hour", 0.999, "aggregate"),
    ],
)
def test_suggest_windows_one_row_per_a_prints_the_python_report(
    spark, project, capfd, seed_a, seed_b, unit, coverage, partner
):
    import json

    from dbt_inc_join import suggest_windows

    capfd.readouterr()
    arguments = dict(a=seed_a, b=seed_b, join_cols=["TrxId"], time_uom=unit, coverage=coverage, partner=partner)
    project.invoke("run-operation", "dbt_inc_join.suggest_windows", "--args", json.dumps(arguments))
    printed = capfd.readouterr().out
    python = suggest_windows(
        spark.table(f"inc_join_it.{seed_a}"),
        spark.table(f"inc_join_it.{seed_b}"),
        join_cols="TrxId",
        time_uom=unit,
        coverage=coverage,
        partner=partner,
    )
    assert python.count > 0 and python.without_partner > 0  # the seeds have both kinds of A rows
    expected = python.report().replace("−", "-")
    assert printed_report(printed, len(expected.splitlines())) == expected


def test_suggest_windows_refuses_an_unknown_partner(project, capfd):
    import json

    capfd.readouterr()
    arguments = dict(a="gen_a", b="gen_b", join_cols=["TrxId"], partner="x")
    result = project.invoke(
        "run-operation", "dbt_inc_join.suggest_windows", "--args", json.dumps(arguments), expect_success=False
    )
    assert not result.success
    printed = capfd.readouterr()
    message = "inc_join: partner='x' is not supported; accepted values: 'all', 'first', 'last', 'aggregate'."
    assert message in printed.out + printed.err + str(result.exception or "")


RENAMED_B = "'PaymentId', 'PayTrx', 'Country', 'Status', 'PaidOn'"
B_INC_COL_HINT = (
    "pass b_inc_col, the arrival column of b when b names it otherwise (by default the test's inc_col, else the "
    "var inc_join_inc_col, else 'RecDate')."
)
GENERIC_BAD = {
    "generic_bad_lag_without_b_inc_col": f"b_inc_col column 'RecDate' is missing from b stg_renamed_b; its columns "
    f"are {RENAMED_B}; {B_INC_COL_HINT}",
    "generic_bad_lag_b_inc_col_missing": f"b_inc_col column 'loaded_at' is missing from b stg_renamed_b; its "
    f"columns are {RENAMED_B}; {B_INC_COL_HINT}",
    "generic_bad_missed_without_b_inc_col": f"b_inc_col column 'RecDate' is missing from b stg_renamed_b; its "
    f"columns are {RENAMED_B}; {B_INC_COL_HINT}",
    "generic_bad_missed_without_b_join_cols": f"join_cols column 'TrxId' is missing from b stg_renamed_b; its "
    f"columns are {RENAMED_B}; pass b_join_cols, the key columns of b when b names them otherwise.",
    # a test's time_uom other than the model's, told by the type of its arrival column (spec §5)
    "generic_bad_share_hours_read_as_days": "time_uom='day', but RecDate of model gen_hour_left is a TIMESTAMP: an "
    "inc_join model writes it as a DATE in days and a TIMESTAMP in hours or minutes; pass the model's time_uom, e.g. "
    "time_uom: hour.",
    "generic_bad_lag_days_read_as_hours": "time_uom='hour', but RecDate of model gen_left is a DATE: the model's unit "
    "is the day; pass time_uom: day, or leave it out.",
}


def test_tests_that_read_b_name_b_inc_col_and_many_models_name_join_type_column(project, daily):
    """A B whose arrival (or keys) is named otherwise, without b_inc_col (or b_join_cols), or with a column B does
    not have: one inc_join: message naming the argument and B's columns, before any data is read (no Spark
    UNRESOLVED_COLUMN). An inc_join_many model tested without join_type_column: the message names its per-input
    JoinType columns. The tests are declared on gen_many (integration_tests/models/many/many.yml)."""
    from .test_bad_input import inc_join_message

    result = project.invoke("test", "--select", "tag:generic_bad", "tag:generic_unit", expect_success=False)
    found = {r.node.name: (str(r.status), r.message or "") for r in result.result.results}
    # a test given the model's own time_uom (hours) runs; the bad ones below are refused
    assert found.pop("generic_unit_share_in_hours") == ("pass", ""), found
    assert set(found) == set(GENERIC_BAD) | {"generic_bad_rows_once_without_join_type_column"}
    for name, (status, message) in found.items():
        assert status == "error", name
        assert "UNRESOLVED_COLUMN" not in message and "Traceback" not in message, name
    for name, expected in GENERIC_BAD.items():
        assert inc_join_message(found[name][1]) == expected, name
    many = inc_join_message(found["generic_bad_rows_once_without_join_type_column"][1])
    assert many.startswith("model gen_many has no JoinType column; its columns are 'TrxId', "), many
    assert many.endswith(
        "; an inc_join_many model has one per input: pass join_type_column, e.g. join_type_column: JoinType_pay."
    ), many
