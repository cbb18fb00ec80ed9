"""The availability watermark: the latest unit both inputs have been loaded up to (SPEC §6)."""
from __future__ import annotations

from datetime import datetime
from typing import Optional, Sequence, Tuple

from pyspark.sql import DataFrame
from pyspark.sql.types import DataType

from .predicates import arrival_range_sql, quote
from .time_units import TimeUnit, UnitValue, truncate_sql


def availability_watermark(df_a: DataFrame, df_b: DataFrame, inc_cols: Tuple[str, str],
                           arrival_types: Sequence[DataType], unit: TimeUnit,
                           start: Optional[UnitValue] = None) -> Optional[UnitValue]:
    """``min(max a, max b)`` in the unit, or None when either input has no arrival (at or after ``start``).

    With a ``start`` only arrivals from ``start`` on are scanned (a pruned read): if an input has none, the
    window ``[start, watermark]`` is empty whatever the true maximum is, so None is the same answer.
    One Spark job. The maxima come back as text so timestamps stay in the session time zone.
    """
    maxima = []
    for df, column, data_type in zip((df_a, df_b), inc_cols, arrival_types):
        rows = df
        if start is not None:
            rows = df.where(arrival_range_sql(column, data_type, start, None, unit))
        latest = f"max({truncate_sql(quote(column), unit)})"
        maxima.append(rows.selectExpr(f"date_format({latest}, 'yyyy-MM-dd HH:mm:ss') AS latest"))
    row = maxima[0].crossJoin(maxima[1].withColumnRenamed("latest", "latest_b")).first()
    if row is None or row[0] is None or row[1] is None:
        return None
    latest = min(datetime.strptime(row[0], "%Y-%m-%d %H:%M:%S"), datetime.strptime(row[1], "%Y-%m-%d %H:%M:%S"))
    return latest.date() if unit is TimeUnit.DAY else latest


def earliest_arrival(df: DataFrame, inc_col: str, unit: TimeUnit) -> Optional[UnitValue]:
    """The first unit in which ``df`` has an arrival, or None for an empty input (one Spark job)."""
    earliest = f"date_format(min({truncate_sql(quote(inc_col), unit)}), 'yyyy-MM-dd HH:mm:ss')"
    text = df.selectExpr(f"{earliest} AS earliest").first()[0]
    if text is None:
        return None
    moment = datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    return moment.date() if unit is TimeUnit.DAY else moment
