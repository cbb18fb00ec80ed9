"""Build test inputs from whole-unit times and read outputs back as oracle rows.

Values cross the Python/Spark border as text so that timestamps mean wall-clock time in the session time
zone on both sides (PySpark converts naive datetimes with the Python process's zone)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from pyspark.sql import DataFrame, SparkSession

# Hours start at 20:00 and minutes at 23:50 so that runs straddle midnight.
ORIGINS = {"day": datetime(2025, 3, 1), "hour": datetime(2025, 3, 1, 20), "minute": datetime(2025, 3, 1, 23, 50)}
STEPS = {"day": timedelta(days=1), "hour": timedelta(hours=1), "minute": timedelta(minutes=1)}


def moment(t: int, unit: str, jitter: int = 0) -> datetime:
    """Time ``t`` units after the origin, ``jitter`` sub-units (hours/minutes/seconds) into the unit
    (wrapped so that it stays inside the unit)."""
    sub, per_unit = {
        "day": (timedelta(hours=1), 24),
        "hour": (timedelta(minutes=1), 60),
        "minute": (timedelta(seconds=1), 60),
    }[unit]
    return ORIGINS[unit] + t * STEPS[unit] + (jitter % per_unit) * sub


def bound(t: int | None, unit: str):
    """A window bound for time ``t``: a date for days, a datetime otherwise."""
    if t is None:
        return None
    value = moment(t, unit)
    return value.date() if unit == "day" else value


def side_frame(spark: SparkSession, rows: Iterable[dict], side: str, unit: str, arrival_type: str) -> DataFrame:
    """A table ``id, k, RecDate, <side>_val`` with RecDate of ``arrival_type`` (date or timestamp)."""
    text_rows = []
    for r in rows:
        text = None if r["t"] is None else moment(r["t"], unit, r.get("jitter", 0)).strftime("%Y-%m-%d %H:%M:%S")
        text_rows.append((r["id"], r["k"], text, f"{side}{r['id']}"))
    frame = spark.createDataFrame(text_rows, f"id int, k int, arrival string, {side}_val string")
    return frame.selectExpr("id", "k", f"CAST(to_timestamp(arrival) AS {arrival_type}) AS RecDate", f"{side}_val")


def units_since_origin(text: str, unit: str) -> int:
    value = datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    return round((value - ORIGINS[unit]) / STEPS[unit]) if unit != "day" else (value.date() - ORIGINS[unit].date()).days


def oracle_rows(result: DataFrame, unit: str) -> list[tuple]:
    """Output rows as ``(k, out_time, a_id, b_id, code, diff, waiting)``, the oracle's shape."""
    collected = result.selectExpr(
        "k",
        "date_format(RecDate, 'yyyy-MM-dd HH:mm:ss') AS out",
        "id_A",
        "id_B",
        "JoinType",
        "DiffArrivalTime",
        "WaitingTime",
    ).collect()
    return [
        (r.k, units_since_origin(r.out, unit), r.id_A, r.id_B, r.JoinType, r.DiffArrivalTime, r.WaitingTime)
        for r in collected
    ]
