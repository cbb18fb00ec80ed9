"""The start of a redo (docs/spec.md §14) in a Python model: the table property that marks it, then the rows the
redo writes again dropped before it writes them."""

from __future__ import annotations

from typing import Any

from ..plan.fingerprints import unit_text
from ..sql_text import render
from ..sql_text.time_units import UnitValue


def begin_redo(spark: Any, relation: str, inc_col: str, start: UnitValue, file_format: str | None) -> None:
    """Before a redo writes: remember its start (table property inc_join.redo_from), then empty the table from it
    on (insert_overwrite replaces only the partitions it writes): the macro _begin_redo's statements."""
    first = unit_text(start)
    spark.sql(f"ALTER TABLE {relation} SET TBLPROPERTIES ('inc_join.redo_from' = '{first}')")
    deletes = render("_deletes_rows", file_format)
    partitions = None if deletes else [row[0] for row in spark.sql(f"SHOW PARTITIONS {relation}").collect()]
    for statement in render("_redo_drop_sql", relation, inc_col, first, file_format, partitions):
        spark.sql(statement)
