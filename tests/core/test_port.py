"""The core's port to the macros that read state (sql_text/macros.py: port): each port's context is its own, its
run_query gives what the macros read of dbt's result, and the pure render stays pure. No Spark: a statement is
answered by a stand-in that records it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from dbt_inc_join.sql_text import MacroError, render
from dbt_inc_join.sql_text.macros import port


class Answer:
    """What run_sql returns (a DataFrame's collect() and columns), recording each statement."""

    def __init__(self, rows: list, columns: list[str]) -> None:
        self.rows, self.columns, self.statements = rows, columns, []

    def __call__(self, statement: str) -> Answer:
        self.statements.append(statement)
        return self

    def collect(self) -> list:
        return self.rows


def test_run_query_runs_the_statement_and_gives_its_rows_and_column_names():
    answer = Answer([("inc_join.table_id", "t1"), ("inc_join.redo_from", "2025-03-01 00:00:00")], ["key", "value"])
    properties = port(answer)("_table_properties", "db.m")
    assert properties == {"inc_join.table_id": "t1", "inc_join.redo_from": "2025-03-01 00:00:00"}
    assert answer.statements == [render("_show_properties_sql", "db.m")]
    commits = Answer([], ["version", "timestamp", "operation", "userMetadata"])
    assert port(commits)("_last_commit", {"last_commit_query": "DESCRIBE HISTORY db.m", "file_format": "delta",
                                          "relation": "db.m"}) is None  # fmt: skip
    assert commits.statements == ["DESCRIBE HISTORY db.m"]


def test_each_port_has_its_own_context_and_render_stays_pure():
    def bounds(variables: dict):
        names = {"var": lambda name, default=None: variables.get(name, default)}
        return port(Answer([], []), names)("_explicit_bounds", None, None, None, "day")

    given = bounds({"inc_join_output_window_start": "2025-03-04"})
    assert (str(given["start"]), given["start_reason"]) == ("2025-03-04", "var inc_join_output_window_start")
    assert bounds({})["start"] is None  # the first port's var is not this one's
    assert render("_explicit_bounds", None, None, None, "day")["start"] is None  # render reads no var
    assert render("_declared_watermark", "day") is None


def test_macros_given_stand_for_the_package_s_and_warnings_reach_warn():
    """A run whose window is empty still names the upstream units not redone (_check_restated), with what dbt read
    of the upstream tables given in place of _upstream_state."""
    warned: list[str] = []
    units = [{"input": "b", "unit": "2025-03-07 01:00:00", "rows_then": 3, "rows_now": 4}]
    upstream = {"redone": {}, "outstanding": {"db.clicks": {"model": "clicks", "units": units}}}
    names = {"this": "db.conversions", "is_incremental": lambda: True}
    stand_ins = {"_upstream_state": lambda node=None: upstream, "_checks_inputs": lambda: True}
    window = {"time_uom": "hour", "empty": True, "committed_fingerprints": {"text": None}}
    answer = Answer([], [])
    check = port(answer, names, stand_ins, warned.append)("_check_restated", window, [], {}, "warn")
    assert (check["restated"], check["pending"], answer.statements) == ([], [], [])
    assert warned == render("_upstream_outstanding_lines", "db.conversions", upstream["outstanding"], "hour")
    assert len(warned) == 1 and "its input db.clicks has restated units" in warned[0]
    config = SimpleNamespace(get=lambda key, default=None: {"materialized": "incremental"}.get(key, default))
    with pytest.raises(MacroError, match="on_restated_input=redo needs incremental_strategy"):
        port(Answer([], []), {"config": config})("_check_redo_config", "redo")
