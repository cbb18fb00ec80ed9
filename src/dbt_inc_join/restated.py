"""Inputs rewritten after a run read them (docs/spec.md §14): the fingerprints of what a run read, the units that
differ from what an earlier committed run read, and what a run does about them.

A fingerprint record is plain JSON, the same in both languages (macros/ledger/_restated.sql holds the twins):
``{"ranges": {input: [lower, upper]}, "units": {input: {unit: "rows:hash"}}}``, units and bounds as
``'yyyy-MM-dd HH:mm:ss'`` text (so text order is time order), a bound ``None`` for "from the beginning".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import DataType

from .predicates import arrival_range_sql, quote
from .shared_tables import ON_RESTATED_INPUT_VALUES
from .time_units import TimeUnit, UnitValue
from .validation import check_choice
from .window import parse_bound

Ranges = Mapping[str, tuple[str | None, str]]
Units = dict[str, dict[str, str]]

UNIT_TEXT = "yyyy-MM-dd HH:mm:ss"


def row_hash_sql(columns: Sequence[tuple[str, str]]) -> str:
    """A 64-bit hash of a whole row: every column, in name order (a reordered schema is the same rows); maps as
    JSON, since Spark refuses to hash a map."""
    parts = []
    for name, type_name in sorted(columns, key=lambda column: column[0].lower()):
        parts.append(f"to_json({quote(name)})" if "map<" in type_name.lower() else quote(name))
    return f"xxhash64({', '.join(parts)})"


def unit_sql(arrival: str, unit: TimeUnit) -> str:
    """A row's arrival unit as fingerprint text."""
    truncated = f"CAST(date_trunc('{unit.value.upper()}', {quote(arrival)}) AS TIMESTAMP)"
    return f"date_format({truncated}, '{UNIT_TEXT}')"


def fingerprint_sql(columns: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """The two aggregates of a unit's fingerprint: its row count, and the sum of its rows' hashes (order-free;
    DECIMAL(38,0) never overflows where a BIGINT sum would under ANSI mode)."""
    return "count(*)", f"CAST(sum(CAST({row_hash_sql(columns)} AS DECIMAL(38,0))) AS STRING)"


def unit_fingerprints(df: DataFrame, inc_col: str = "RecDate", time_uom: str = "day", start=None,
                      end=None) -> DataFrame:  # fmt: skip
    """The fingerprint of each arrival unit of ``df`` in ``[start, end]`` (inclusive; either may be None):
    columns ``unit`` (text ``'yyyy-MM-dd HH:mm:ss'``), ``rows`` and ``hash`` (the sum of a 64-bit hash of every
    whole row, as text). Store them beside what you computed from ``df``: a unit whose fingerprint differs later
    was rewritten (rows added, removed or changed); the same rows in another order or other files give the same
    fingerprint. dbt models that record their runs store and compare them for you (docs/spec.md §14)."""
    unit = TimeUnit(check_choice("time_uom", time_uom, tuple(u.value for u in TimeUnit)))
    field = next((f for f in df.schema.fields if f.name.lower() == str(inc_col).lower()), None)
    if field is None:
        raise ValueError(f"inc_join: inc_col={inc_col!r} is not a column of df (columns: {', '.join(df.columns)}).")
    lower, upper = parse_bound(start, "start", unit), parse_bound(end, "end", unit)
    return fingerprint_rows(df, field.name, field.dataType, lower, upper, unit)


def fingerprint_rows(df: DataFrame, arrival: str, data_type: DataType, lower: UnitValue | None,
                     upper: UnitValue | None, unit: TimeUnit) -> DataFrame:  # fmt: skip
    """(unit, rows, hash) per unit of ``df`` with rows in [lower, upper]: the SQL of _fingerprint_query."""
    rows, hashed = fingerprint_sql([(f.name, f.dataType.simpleString()) for f in df.schema.fields])
    found = df.where(arrival_range_sql(arrival, data_type, lower, upper, unit))
    return found.groupBy(F.expr(unit_sql(arrival, unit)).alias("unit")).agg(
        F.expr(rows).alias("rows"), F.expr(hashed).alias("hash")
    )


def unit_text(value: UnitValue | None) -> str | None:
    """A unit value as fingerprint text (None stays None)."""
    if value is None:
        return None
    return value.strftime("%Y-%m-%d %H:%M:%S") if hasattr(value, "hour") else f"{value.isoformat()} 00:00:00"


def unit_label(text: str, unit: TimeUnit) -> str:
    """Fingerprint text as a user writes the unit: a date for ``day``, else the timestamp."""
    return text[:10] if unit is TimeUnit.DAY else text


def text_ranges(ranges: Mapping[str, tuple[UnitValue | None, UnitValue]]) -> dict[str, list[str | None]]:
    """Read ranges (unit values) as fingerprint text."""
    return {name: [unit_text(lower), unit_text(upper)] for name, (lower, upper) in ranges.items()}


def units_of(rows: Sequence[Sequence[Any]]) -> Units:
    """{input: {unit: "rows:hash"}} from (input, unit, rows, hash) rows."""
    found: Units = {}
    for name, unit, count, hashed in rows:
        found.setdefault(name, {})[unit] = f"{count}:{hashed}"
    return found


def _inside(unit: str, lower: str | None, upper: str | None) -> bool:
    return (lower is None or unit >= lower) and (upper is None or unit <= upper)


def fingerprint_record(units: Units, ranges: Mapping[str, Sequence[str | None]]) -> dict[str, Any]:
    """What a run records of its reads: the units the next run reads again (``ranges``: the next window's read
    ranges up to this one's end), with their fingerprints."""
    kept = {
        name: {unit: value for unit, value in sorted(units.get(name, {}).items()) if _inside(unit, lower, upper)}
        for name, (lower, upper) in ranges.items()
    }
    return {"ranges": {name: list(bounds) for name, bounds in ranges.items()}, "units": kept}


def _rows_of(value: str | None) -> int:
    return 0 if value is None else int(value.split(":")[0])


def restated_units(previous: Mapping[str, Any] | None, units: Units,
                   ranges: Mapping[str, Sequence[str | None]]) -> list[dict[str, Any]]:  # fmt: skip
    """The units, inside both this run's read range and the one an earlier committed run recorded, whose
    fingerprint differs (a unit without rows has none): {input, unit, rows_then, rows_now}, earliest first."""
    if not previous:
        return []
    found = []
    for name, (lower, upper) in ranges.items():
        before = previous.get("ranges", {}).get(name)
        if before is None:
            continue
        then, now = previous.get("units", {}).get(name, {}), units.get(name, {})
        for unit in sorted(set(then) | set(now)):
            inside = _inside(unit, lower, upper) and _inside(unit, before[0], before[1])
            if inside and then.get(unit) != now.get(unit):
                counts = {"rows_then": _rows_of(then.get(unit)), "rows_now": _rows_of(now.get(unit))}
                found.append({"input": name, "unit": unit, **counts})
    return sorted(found, key=lambda row: (row["unit"], row["input"]))


def on_restated_input_mode(argument: object, var_value: object) -> str:
    """What a run does with restated units: var inc_join_on_restated_input > argument > ``warn``."""
    if var_value not in (None, ""):
        return check_choice("inc_join_on_restated_input", var_value, ON_RESTATED_INPUT_VALUES)
    if argument is None:
        return "warn"
    return check_choice("on_restated_input", argument, ON_RESTATED_INPUT_VALUES)


def restated_text(restated: Sequence[Mapping[str, Any]], unit: TimeUnit) -> str:
    """The restated units as the log line, the message and the ledger's reason name them."""
    return ", ".join(_restated_part(row, unit) for row in restated)


def _restated_part(row: Mapping[str, Any], unit: TimeUnit) -> str:
    return f"{row['input']} {unit_label(row['unit'], unit)} (rows {row['rows_then']} → {row['rows_now']})"


def redo_command(model_name: str, unit_text_value: str, unit: TimeUnit) -> str:
    """The command that redoes a model's table from a unit on."""
    return f"dbt run --select {model_name} --vars '{{inc_join_redo_from: \"{unit_label(unit_text_value, unit)}\"}}'"


def restated_message(target: str, model_name: str, restated: Sequence[Mapping[str, Any]], unit: TimeUnit,
                     mode: str) -> str:  # fmt: skip
    """The warning (mode warn) or the error (mode fail) of a run that found restated units."""
    first = restated[0]["unit"]
    done = "written as usual" if mode == "warn" else "nothing was written"
    return (
        f"inc_join {target}: inputs changed after a committed run read them: {restated_text(restated, unit)}. "
        f"The table from {unit_label(first, unit)} on can differ from one run over the current inputs "
        f"(on_restated_input={mode}: {done}). Redo it with: {redo_command(model_name, first, unit)}"
    )


def check_redo_strategy(strategy: object, parameter: str) -> None:
    """A redo replaces the table's partitions from a unit on: only insert_overwrite can."""
    if strategy != "insert_overwrite":
        raise ValueError(
            f"inc_join: {parameter} needs incremental_strategy='insert_overwrite' (got {strategy!r}): a redo "
            "replaces the table's partitions from the restated unit on; any other strategy would keep the rows "
            "it replaces, or write them twice."
        )
