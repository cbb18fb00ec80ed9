"""Checks of every inc_join argument before any data is read (spec §7).

Each failure is one ``ValueError`` or ``TypeError`` whose message starts with ``inc_join:``, names the
parameter and says what is accepted. Nothing here touches data: schemas only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pyspark.sql.types import (
    ArrayType,
    DataType,
    DateType,
    MapType,
    NumericType,
    StructType,
    TimestampNTZType,
    TimestampType,
)

from .join_types import HOW_VALUES
from .time_units import TIME_UOM_VALUES, TimeUnit

try:  # Spark 4.0+; pyspark 3.5 has no VARIANT type
    from pyspark.sql.types import VariantType

    _NOT_COMPARABLE: tuple[type, ...] = (MapType, VariantType)
except ImportError:
    _NOT_COMPARABLE = (MapType,)

OUTPUT_SELECT_DEFAULT = "join_cols, inc_col, df_a_cols, df_b_cols, DiffArrivalTime, WaitingTime, JoinType"


@dataclass(frozen=True)
class JoinParameters:
    """The arguments of one inc_join call, checked and normalised (no DataFrames, no bounds)."""

    join_cols: tuple[str, ...]
    inc_col: str
    how: str
    look_back_time: int
    max_waiting_time: int
    time_uom: TimeUnit
    enforce_sliding_join_window: bool
    include_waiting: bool
    output_select: tuple[str, ...]
    suffixes: tuple[str, str]


def _fail_type(parameter: str, expected: str, value: object) -> TypeError:
    return TypeError(f"inc_join: {parameter} must be {expected} (got {type(value).__name__} {value!r}).")


def _choice(parameter: str, value: object, accepted: Sequence[str]) -> str:
    options = ", ".join(repr(v) for v in accepted)
    if not isinstance(value, str) or value.strip().lower() not in accepted:
        raise ValueError(f"inc_join: {parameter}={value!r} is not supported; accepted values: {options}.")
    return value.strip().lower()


def _window_length(parameter: str, value: object) -> int:
    # bool is an int subclass, and "2" or 2.0 usually means a typo in a config: refuse both loudly.
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail_type(parameter, "a non-negative whole number of time_uom units, e.g. 2", value)
    if value < 0:
        raise ValueError(f"inc_join: {parameter} must be a non-negative whole number of time_uom units (got {value}).")
    return value


def _flag(parameter: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _fail_type(parameter, "True or False", value)
    return value


def _name_list(parameter: str, value: object) -> tuple[str, ...]:
    """A column name or a list of them; a comma-separated string is split."""
    if isinstance(value, str):
        names = [part.strip() for part in value.split(",")] if "," in value else [value.strip()]
    elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        names = [v.strip() for v in value]
    else:
        raise _fail_type(parameter, "a column name or a list of column names", value)
    if not names or any(not name for name in names):
        raise ValueError(f"inc_join: {parameter} must name at least one column and no empty names (got {value!r}).")
    lowered = [name.lower() for name in names]
    duplicates = sorted({name for name in names if lowered.count(name.lower()) > 1})
    if duplicates:
        raise ValueError(f"inc_join: {parameter} lists {', '.join(map(repr, duplicates))} more than once.")
    return tuple(names)


def _suffixes(value: object) -> tuple[str, str]:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(isinstance(v, str) for v in value):
        raise _fail_type("suffixes", "a pair of strings such as ('_A', '_B')", value)
    if value[0] == value[1]:
        raise ValueError(
            f"inc_join: suffixes must differ, or the two sides' columns would clash (got {tuple(value)!r})."
        )
    return value[0], value[1]


def _output_select(value: object) -> tuple[str, ...]:
    if value is None:
        value = OUTPUT_SELECT_DEFAULT
    if isinstance(value, str):
        tokens = [token.strip() for token in value.split(",")]
    elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        tokens = [v.strip() for v in value]
    else:
        raise _fail_type("output_select", "a comma-separated string or a list of tokens and column names", value)
    if not [t for t in tokens if t]:
        raise ValueError(
            f"inc_join: output_select selects no column; list tokens such as '{OUTPUT_SELECT_DEFAULT}' or column names."
        )
    if any(not token for token in tokens):
        raise ValueError(f"inc_join: output_select has an empty entry (got {value!r}).")
    return tuple(tokens)


def check_parameters(
    *,
    join_cols: object,
    inc_col: object,
    how: object,
    look_back_time: object,
    max_waiting_time: object,
    time_uom: object,
    enforce_sliding_join_window: object,
    include_waiting: object,
    output_select: object,
    suffixes: object,
) -> JoinParameters:
    """Every argument that does not need the data's schema, checked and normalised."""
    if not isinstance(inc_col, str) or not inc_col.strip():
        raise _fail_type("inc_col", "the name of the arrival column present in both inputs, e.g. 'RecDate'", inc_col)
    keys = _name_list("join_cols", join_cols)
    if inc_col.strip().lower() in [k.lower() for k in keys]:
        raise ValueError(f"inc_join: join_cols must not contain the arrival column inc_col={inc_col!r}.")
    return JoinParameters(
        join_cols=keys,
        inc_col=inc_col.strip(),
        how=_choice("how", how, HOW_VALUES),
        look_back_time=_window_length("look_back_time", look_back_time),
        max_waiting_time=_window_length("max_waiting_time", max_waiting_time),
        time_uom=TimeUnit(_choice("time_uom", time_uom, TIME_UOM_VALUES)),
        enforce_sliding_join_window=_flag("enforce_sliding_join_window", enforce_sliding_join_window),
        include_waiting=_flag("include_waiting", include_waiting),
        output_select=_output_select(output_select),
        suffixes=_suffixes(suffixes),
    )


# --- schema checks -------------------------------------------------------------------------------------

ARRIVAL_TYPES = (DateType, TimestampType, TimestampNTZType)


def find_column(schema: StructType, name: str, case_sensitive: bool) -> str | None:
    """The schema's spelling of ``name``, or None. Follows Spark's ``spark.sql.caseSensitive``."""
    for field in schema.fields:
        if field.name == name:
            return field.name
    if not case_sensitive:
        for field in schema.fields:
            if field.name.lower() == name.lower():
                return field.name
    return None


def require_column(schema: StructType, name: str, parameter: str, side: str, case_sensitive: bool) -> str:
    found = find_column(schema, name, case_sensitive)
    if found is None:
        available = ", ".join(repr(f.name) for f in schema.fields)
        raise ValueError(f"inc_join: {parameter} column {name!r} is missing from {side}; its columns are {available}.")
    return found


def field_type(schema: StructType, name: str) -> DataType:
    return next(f.dataType for f in schema.fields if f.name == name)


def check_arrival_type(data_type: DataType, inc_col: str, side: str, unit: TimeUnit) -> None:
    """Arrivals must be DATE or TIMESTAMP; finer units than a day need a time of day."""
    if not isinstance(data_type, ARRIVAL_TYPES):
        raise TypeError(
            f"inc_join: inc_col {inc_col!r} of {side} is {data_type.simpleString().upper()}; it must be DATE or "
            f"TIMESTAMP (cast it, e.g. to_date({inc_col}) or to_timestamp({inc_col}))."
        )
    if unit is not TimeUnit.DAY and isinstance(data_type, DateType):
        raise TypeError(
            f"inc_join: time_uom={unit.value!r} needs a TIMESTAMP arrival column, but inc_col {inc_col!r} of {side} "
            "is DATE; use time_uom='day' or a TIMESTAMP column."
        )


def _comparable(data_type: DataType) -> bool:
    """Whether Spark can test values of this type for equality (maps and variants it cannot)."""
    if isinstance(data_type, _NOT_COMPARABLE):
        return False
    if isinstance(data_type, ArrayType):
        return _comparable(data_type.elementType)
    if isinstance(data_type, StructType):
        return all(_comparable(field.dataType) for field in data_type.fields)
    return True


def check_key_types(key: str, type_a: DataType, type_b: DataType) -> None:
    """Keys compare with plain SQL equality: equal types, or both numeric. Anything else would be cast
    implicitly by Spark and could silently match or miss rows."""
    for data_type in (type_a, type_b):
        if not _comparable(data_type):
            raise TypeError(
                f"inc_join: join_cols column {key!r} is {data_type.simpleString().upper()}, which Spark cannot "
                "compare; join on columns of a comparable type (cast or extract a field)."
            )
    if type_a == type_b or (isinstance(type_a, NumericType) and isinstance(type_b, NumericType)):
        return
    raise TypeError(
        f"inc_join: join_cols column {key!r} is {type_a.simpleString().upper()} in df_a but "
        f"{type_b.simpleString().upper()} in df_b; cast one side so both have the same type."
    )
