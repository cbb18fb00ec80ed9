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


def side_frame(
    spark: SparkSession, rows: Iterable[dict], side: str, unit: str, arrival_type: str, payload: bool = False
) -> DataFrame:
    """A table ``id, k, RecDate, <side>_val`` with RecDate of ``arrival_type`` (date or timestamp); with
    ``payload``, the table ``k, v, RecDate, id, <side>_val, w`` (``v`` and ``w``: the rows' ints, may be NULL),
    so that the ties of spec §11 are decided by a payload and the raw arrival before the id."""
    text_rows = []
    for r in rows:
        text = None if r["t"] is None else moment(r["t"], unit, r.get("jitter", 0)).strftime("%Y-%m-%d %H:%M:%S")
        text_rows.append((r["id"], r["k"], text, f"{side}{r['id']}", r.get("v"), r.get("w")))
    frame = spark.createDataFrame(text_rows, f"id int, k int, arrival string, {side}_val string, v int, w int")
    arrival = f"CAST(to_timestamp(arrival) AS {arrival_type}) AS RecDate"
    if payload:
        return frame.selectExpr("k", "v", arrival, "id", f"{side}_val", "w")
    return frame.selectExpr("id", "k", arrival, f"{side}_val")


def output_fields(row: dict, side: str, unit: str, arrival_type: str) -> dict:
    """``row`` with the values its frame shows (``RecDate``: the raw arrival, a date or a datetime;
    ``<side>_val``), for the oracle's order of partners (spec §11)."""
    raw = None if row["t"] is None else moment(row["t"], unit, row.get("jitter", 0))
    if raw is not None and arrival_type == "date":
        raw = raw.date()
    return dict(row, RecDate=raw, **{f"{side}_val": f"{side}{row['id']}"})


def units_since_origin(text: str, unit: str) -> int:
    value = datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    return round((value - ORIGINS[unit]) / STEPS[unit]) if unit != "day" else (value.date() - ORIGINS[unit].date()).days


ORACLE_COLUMNS = ("k", "out", "a_id", "b_id", "JoinType", "DiffArrivalTime", "WaitingTime")


def oracle_shape(result: DataFrame, aggregates: Iterable[str] = (), b_fields: Iterable[str] = ()) -> DataFrame:
    """``result`` projected to the oracle's columns (text out time; ``b_id`` NULL in aggregate mode, where A's
    ``id`` keeps its name, spec §11; with ``b_fields``, B's ``id_B`` and those output columns as an array, NULL
    without B row), then the aggregate columns ``g0, g1, ...``, so that runs of every mode can be unioned and
    collected at once."""
    aggregates = list(aggregates)
    b_id = "id_B"
    if b_fields:
        b_id = f"CASE WHEN id_B IS NOT NULL THEN array(id_B, {', '.join(b_fields)}) END"
    return result.selectExpr(
        "k",
        "date_format(RecDate, 'yyyy-MM-dd HH:mm:ss') AS out",
        "id AS a_id" if aggregates else "id_A AS a_id",
        "CAST(NULL AS int) AS b_id" if aggregates else f"{b_id} AS b_id",
        "JoinType",
        "DiffArrivalTime",
        "WaitingTime",
        *[f"`{name}` AS g{i}" for i, name in enumerate(aggregates)],
    )


def _hashable(value):
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


def shaped_rows(collected, unit: str, aggregates: int = 0) -> list[tuple]:
    """Collected rows of ``oracle_shape`` as oracle rows (with the tuple of the aggregates when there are)."""
    rows = []
    for r in collected:
        b_id = _hashable(r.b_id)
        row = (r.k, units_since_origin(r.out, unit), r.a_id, b_id, r.JoinType, r.DiffArrivalTime, r.WaitingTime)
        if aggregates:
            row += (tuple(_hashable(r[f"g{i}"]) for i in range(aggregates)),)
        rows.append(row)
    return rows


def oracle_rows(result: DataFrame, unit: str) -> list[tuple]:
    """Output rows as ``(k, out_time, a_id, b_id, code, diff, waiting)``, the oracle's shape."""
    return shaped_rows(oracle_shape(result).collect(), unit)
