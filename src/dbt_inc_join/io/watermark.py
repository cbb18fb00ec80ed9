"""The availability watermark: the latest unit both inputs have been loaded up to (spec §6)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pyspark.sql import DataFrame
from pyspark.sql.types import DataType

from ..sql_text import render
from ..sql_text.fragments import arrival_range_sql, quote, truncate_sql
from ..sql_text.time_units import TimeUnit, UnitValue


def latest_arrivals(
    sides: Sequence[tuple[DataFrame, str, DataType]], unit: TimeUnit, start: UnitValue | None = None
) -> list[UnitValue | None]:
    """The latest arrival in the unit of each (DataFrame, arrival column, its type), None for one without an
    arrival at or after ``start``.

    With a ``start`` only arrivals from ``start`` on are scanned (a pruned read): if an input has none, the
    window ``[start, watermark]`` is empty whatever the true maximum is, so None is the same answer.
    One Spark job for all of them. The maxima come back as text so timestamps stay in the session time zone.
    """
    joined = None
    for index, (df, column, data_type) in enumerate(sides):
        rows = df
        if start is not None:
            rows = df.where(arrival_range_sql(column, data_type, start, None, unit))
        latest = f"max({truncate_sql(quote(column), unit)})"
        one = rows.selectExpr(f"date_format({latest}, 'yyyy-MM-dd HH:mm:ss') AS latest_{index}")
        joined = one if joined is None else joined.crossJoin(one)
    assert joined is not None, "at least one input"
    row = joined.first()
    assert row is not None, "a global aggregate has one row"
    return [_unit_value(value, unit) for value in row]


def availability_watermark(
    df_a: DataFrame,
    df_b: DataFrame,
    inc_cols: tuple[str, str],
    arrival_types: Sequence[DataType],
    unit: TimeUnit,
    start: UnitValue | None = None,
) -> UnitValue | None:
    """``min(max a, max b)`` in the unit, or None when either input has no arrival (at or after ``start``)."""
    return watermark_of(*latest_arrivals(list(zip((df_a, df_b), inc_cols, arrival_types, strict=True)), unit, start))


def watermark_of(*maxima: UnitValue | None) -> UnitValue | None:
    """The earliest of the inputs' latest arrivals, None when any input has none."""
    known = [value for value in maxima if value is not None]
    return min(known) if known and len(known) == len(maxima) else None


def watermark_text(a_max: UnitValue | None, b_max: UnitValue | None) -> str:
    """How the watermark came about, naming the input that holds it back (the macro ``_watermark_text``)."""
    return str(render("_watermark_text", a_max, b_max))


def named_watermark_text(names: Sequence[str], maxima: Sequence[UnitValue | None]) -> str:
    """inc_join_many's watermark: each input's latest arrival under its name, and the inputs that hold the
    watermark back (the macro ``_named_watermark_text``)."""
    return str(render("_named_watermark_text", names, maxima))


def _unit_value(text: str | None, unit: TimeUnit) -> UnitValue | None:
    if text is None:
        return None
    moment = datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    return moment.date() if unit is TimeUnit.DAY else moment


def earliest_of(how: str) -> dict[str, Any]:
    """Where a first run starts: {'sides': the sides whose earliest arrival counts, 'text'} (``_earliest_of``)."""
    return dict(render("_earliest_of", how))


def earliest_arrival(df: DataFrame, inc_col: str, unit: TimeUnit) -> UnitValue | None:
    """The first unit in which ``df`` has an arrival, or None for an empty input (one Spark job)."""
    earliest = f"date_format(min({truncate_sql(quote(inc_col), unit)}), 'yyyy-MM-dd HH:mm:ss')"
    row = df.selectExpr(f"{earliest} AS earliest").first()
    assert row is not None, "a global aggregate has one row"
    return _unit_value(row[0], unit)
