"""The inputs of one inc_join call resolved against their schemas (spec §7): each side's spelling of the keys,
the arrival column and partner_order_by, with their type checks. Schemas only, no data is read; the macros of
macros/plan/_inputs.sql are the twins.
"""

from __future__ import annotations

import re

from pyspark.sql import DataFrame
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

from ..sql_text.time_units import TimeUnit
from .prepared import ResolvedInputs
from .validation import JoinParameters

try:  # Spark 4.0+; pyspark 3.5 has no VARIANT type
    from pyspark.sql.types import VariantType

    _NOT_COMPARABLE: tuple[type, ...] = (MapType, VariantType)
except ImportError:
    _NOT_COMPARABLE = (MapType,)

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


def orderable_type_name(type_name: str) -> bool:
    """Whether Spark can order values of a type, from its SQL name (maps and variants it cannot, nor anything
    that holds one). The SQL macro decides from the same names."""
    lowered = type_name.lower()
    return "map<" not in lowered and re.search(r"(^|[<:,])variant($|[>,])", lowered) is None


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


def resolve_inputs(params: JoinParameters, df_a: DataFrame, df_b: DataFrame, case_sensitive: bool) -> ResolvedInputs:
    """Find the key and arrival columns on both sides and check their types (schemas only, no data)."""
    schema_a, schema_b = df_a.schema, df_b.schema
    keys = []
    for name_a, name_b in params.key_pairs:
        key_a = require_column(schema_a, name_a, "join_cols", "df_a", case_sensitive)
        key_b = require_column(schema_b, name_b, "join_cols", "df_b", case_sensitive)
        label = name_a if name_a == name_b else f"{name_a} (df_b: {name_b})"
        check_key_types(label, field_type(schema_a, key_a), field_type(schema_b, key_b))
        keys.append((key_a, key_b))
    inc_a = require_column(schema_a, params.inc_cols[0], "inc_col", "df_a", case_sensitive)
    inc_b = require_column(schema_b, params.inc_cols[1], "inc_col", "df_b", case_sensitive)
    type_a, type_b = field_type(schema_a, inc_a), field_type(schema_b, inc_b)
    check_arrival_type(type_a, params.inc_cols[0], "df_a", params.time_uom)
    check_arrival_type(type_b, params.inc_cols[1], "df_b", params.time_uom)
    order_by = []
    for name in params.partner_order_by:
        column = require_column(schema_b, name, "partner_order_by", "df_b", case_sensitive)
        type_name = field_type(schema_b, column).simpleString()
        if not orderable_type_name(type_name):
            raise TypeError(
                f"inc_join: partner_order_by column {name!r} is {type_name.upper()}, which Spark cannot order; "
                "order by a column of another type (or a field of it)."
            )
        order_by.append(column)
    return ResolvedInputs(tuple(keys), (inc_a, inc_b), (type_a, type_b), tuple(order_by))
