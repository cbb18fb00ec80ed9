"""dbt_inc_join.sql_text: the core renders the package's own macros (the one source of its SQL text) as dbt does,
with no dbt and no Spark job."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dbt_inc_join.plan.fingerprints import fingerprint_sql
from dbt_inc_join.sql_text import MacroError, macro_root, render
from dbt_inc_join.sql_text.macros import macro_blocks
from dbt_inc_join.sql_text.time_units import TimeUnit

REPO = Path(__file__).resolve().parents[2]


def test_the_runner_reads_the_repositorys_macros_and_finds_every_macro_block() -> None:
    assert macro_root() == REPO / "macros"  # an editable install: the one copy at the root
    declared = [
        name
        for path in sorted((REPO / "macros").rglob("*.sql"))
        for name in re.findall(r"{%-?\s*macro\s+(\w+)", path.read_text(encoding="utf-8"))
    ]
    assert [name for name, _ in macro_blocks(macro_root())] == declared
    assert len(declared) > 300


def test_a_macro_gives_what_its_return_gives() -> None:
    assert render("_quote", "Paid At") == "`Paid At`"
    assert render("_choice", "time_uom", " HOUR ", ["day", "hour"]) == "hour"  # a value, through another macro


def test_a_macros_compiler_error_is_one_message_naming_the_parameter() -> None:
    message = r"^inc_join: time_uom='week' is not supported; accepted values: 'day', 'hour'\.$"
    with pytest.raises(MacroError, match=message):
        render("_choice", "time_uom", "week", ["day", "hour"])


def test_an_unknown_macro_is_named() -> None:
    with pytest.raises(AttributeError, match="the package has no macro _no_such_macro"):
        render("_no_such_macro")


def test_a_macro_that_needs_dbt_fails_here() -> None:
    # run_query exists only in dbt: the core never asks such a macro
    with pytest.raises(Exception, match="run_query"):
        render("_table_properties", "db.t")


def test_the_fingerprint_projections_are_the_macros() -> None:
    """spec §14's fingerprint, written out once here: the row hash over every column in name order (a map as JSON)."""
    columns = [("TrxId", "int"), ("Tags", "map<string,int>"), ("Paid At", "timestamp")]
    per_row, per_unit, result = fingerprint_sql(columns, "Paid At", TimeUnit.HOUR)
    assert per_row == ["CAST(date_trunc('HOUR', `Paid At`) AS TIMESTAMP) AS unit_start",
                       "xxhash64(`Paid At`, to_json(`Tags`), `TrxId`) AS row_hash"]  # fmt: skip
    assert per_unit[0] == "count(*) AS rows" and len(per_unit) == 4
    assert result[0] == "date_format(unit_start, 'yyyy-MM-dd HH:mm:ss') AS unit"


def test_the_macros_are_compiled_once_per_process():
    """Every render uses the one namespace compiled on the first (the macro files are read and compiled once)."""
    from dbt_inc_join.sql_text.macros import _macros

    assert _macros() is _macros()
