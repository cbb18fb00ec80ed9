"""The ledger suite's pre-filled records (bench/sql/ledger_records.sql) give every column of the run ledger a value:
the quick benchmark of the test suite pre-fills no ledger, so a column added to the ledger (shared_tables.py)
without a value there would only fail a full `make bench` of the ledger or restated suite."""

from __future__ import annotations

from bench import protocol
from dbt_inc_join.tables.shared_tables import LEDGER_COLUMNS


def test_every_ledger_column_has_a_value_in_the_pre_filled_records():
    columns = [name for name, _ in LEDGER_COLUMNS]
    values = dict(source="s.long_left", columns=columns, inc_col="RecDate", table_id="t1")
    sql = protocol.render("sql/ledger_records.sql", **values, relation="'s.long_left'", model="'m'", copies=0)
    select = sql[sql.index("SELECT") :]
    assert all(f" AS {name}" in select for name in columns), [n for n in columns if f" AS {n}" not in select]
