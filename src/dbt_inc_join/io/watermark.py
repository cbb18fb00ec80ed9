"""The availability watermark of a Python call: the latest unit all inputs have been loaded up to (spec §6), by the
macros' query and rule (macros/io/_watermark.sql) over the caller's DataFrames."""

from __future__ import annotations

from collections.abc import Sequence

from pyspark.sql import DataFrame
from pyspark.sql.types import DataType

from ..sql_text import render
from ..sql_text.fragments import raw_type
from ..sql_text.macros import port
from ..sql_text.statement import relation, run
from ..sql_text.time_units import TimeUnit, UnitValue


def availability_watermark(
    sides: Sequence[tuple[DataFrame, str, DataType]], unit: TimeUnit, start: UnitValue | None = None
) -> UnitValue | None:
    """The earliest of the latest arrivals in the unit of each (DataFrame, arrival column, its type), None when one
    has no arrival at or after ``start``: the macro _latest_arrivals's one query (one Spark job; with a ``start``
    a pruned read: an input without arrivals from there on makes ``[start, watermark]`` empty whatever its true
    maximum), then _watermark_from's rule."""
    frames = {f"s{index}": df for index, (df, _, _) in enumerate(sides)}
    named = [
        (name, relation(name), {"name": column}, raw_type(data_type))
        for name, (_, column, data_type) in zip(frames, sides, strict=True)
    ]
    row = port(lambda text: run(text, frames))("_latest_arrivals", named, start, None, False, unit.value)
    return render("_watermark_from", row, named, None, unit.value)["watermark"]
