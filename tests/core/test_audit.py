"""The pure half of the audit (macros/orchestration/_audit.sql, spec §17): the window var inc_join_audit names,
and the counts per JoinType of three queries side by side (run by `dbt show` in
tests/integration/test_format_restated.py)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from dbt_inc_join.sql_text import render
from dbt_inc_join.sql_text.macros import MacroError


def test_the_audit_window_is_one_unit_or_two_joined_by_dots():
    assert render("_audit_window", "2025-03-05", "day") == {
        "start": date(2025, 3, 5), "end": date(2025, 3, 5), "empty": False, "time_uom": "day"}  # fmt: skip
    found = render("_audit_window", "2025-03-05 10:00 .. 2025-03-05 12:00", "hour")
    assert (found["start"], found["end"]) == (datetime(2025, 3, 5, 10), datetime(2025, 3, 5, 12))


@pytest.mark.parametrize("text", ["2025-03-05..2025-03-01", "2025-03-01..2025-03-02..2025-03-03", "yesterday"])
def test_a_bad_audit_window_gets_one_message_naming_the_var(text):
    with pytest.raises(MacroError, match="inc_join_audit"):
        render("_audit_window", text, "day")


def test_the_counts_put_three_queries_side_by_side_per_join_type(spark):
    table_rows = "SELECT * FROM VALUES (1), (1), (3) AS t(JoinType)"
    as_of_rows = "SELECT * FROM VALUES (1), (1), (3) AS t(JoinType)"
    now_rows = "SELECT * FROM VALUES (1), (4) AS t(JoinType)"
    found = spark.sql(render("_audit_counts_sql", table_rows, as_of_rows, now_rows)).collect()
    assert [tuple(row) for row in found] == [(1, 2, 2, 1), (3, 1, 1, 0), (4, 0, 0, 1)]
