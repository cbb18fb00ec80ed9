"""Checks of every inc_join argument before any data is read (spec §7).

Each failure is one ``ValueError`` or ``TypeError`` whose message starts with ``inc_join:``, names the
parameter and says what is accepted. Nothing here touches data; the inputs' schemas are checked in inputs.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, cast

from ..sql_text.time_units import TimeUnit
from ..tables.shared_tables import ARGUMENTS, MESSAGES

OUTPUT_SELECT_DEFAULT = "join_cols, inc_col, df_a_cols, df_b_cols, DiffArrivalTime, WaitingTime, JoinType"
OUTPUT_SELECT_AGGREGATE_DEFAULT = "join_cols, inc_col, df_a_cols, aggregates, DiffArrivalTime, WaitingTime, JoinType"
#: Python values a null_fill may hold: each becomes a SQL literal (the macro _fill_literal_sql renders them).
FILL_TYPES = (type(None), bool, int, float, str, Decimal, date, datetime)


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
    partner: str = "all"
    partner_order_by: tuple[str, ...] = ()
    aggregate: tuple[tuple[str, str], ...] = ()  #: (output column, Spark SQL aggregate), in the given order
    null_fill: tuple[tuple[str, object], ...] = ()  #: (aggregate name, literal)
    many_rows_per_key: bool | str = "auto"  #: True, False, or "auto": chosen per run (spec §15, plan_choice.py)
    late_match_time: int = 0  #: spec §10: how long after A's window closes a partner still counts (0: off)
    join_cols_b: tuple[str, ...] = ()  #: B's spelling of each key, when join_cols was a mapping (else A's)
    inc_col_b: str = ""  #: B's arrival column, when inc_col was an (A, B) pair (else A's)
    join_cond: str | None = None  #: spec §12: an extra SQL condition partners must meet, over a. and b.

    @property
    def key_pairs(self) -> tuple[tuple[str, str], ...]:
        """Each key as (A's name, B's name)."""
        return tuple(zip(self.join_cols, self.join_cols_b or self.join_cols, strict=True))

    @property
    def inc_cols(self) -> tuple[str, str]:
        """The arrival column as (A's name, B's name)."""
        return self.inc_col, self.inc_col_b or self.inc_col

    @property
    def mode(self) -> str:
        """The row mode of spec §11: the partner choice, or "aggregate"."""
        return "aggregate" if self.aggregate else self.partner


def message(rule: str, **fields: str) -> str:
    """The message of a rule of the arguments table (shared_tables.MESSAGES), its fields filled in."""
    return "inc_join: " + MESSAGES[rule].format(**fields)


def _typed(value: object) -> str:
    """A value of the wrong type as the messages show it: its type and repr, e.g. ``float 1.5``."""
    return f"{type(value).__name__} {value!r}"


def type_failure(parameter: str, expected: str, value: object) -> TypeError:
    """The TypeError of an argument of the wrong type (raise it)."""
    return TypeError(f"inc_join: {parameter} must be {expected} (got {_typed(value)}).")


def check_choice(parameter: str, value: object, accepted: Sequence[str]) -> str:
    """One of ``accepted``, whatever the case and surrounding blanks; lower-cased."""
    if not isinstance(value, str) or value.strip().lower() not in accepted:
        options = ", ".join(repr(v) for v in accepted)
        raise ValueError(message("choice", parameter=parameter, value=repr(value), accepted=options))
    return value.strip().lower()


def check_window_length(parameter: str, value: object) -> int:
    """A non-negative whole number of time_uom units."""
    # bool is an int subclass, and "2" or 2.0 usually means a typo in a config: refuse both loudly.
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(message("window_length", parameter=parameter, value=_typed(value)))
    if value < 0:
        raise ValueError(message("window_length_negative", parameter=parameter, value=str(value)))
    return value


def check_flag_or_auto(parameter: str, value: object) -> bool | str:
    """True, False, or "auto" (any case, surrounding blanks ignored)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() == "auto":
        return "auto"
    raise TypeError(
        message("flag_or_auto", parameter=parameter, value=_typed(value), true="True", false="False", auto="'auto'")
    )


def check_flag(parameter: str, value: object) -> bool:
    """True or False, nothing truthy."""
    if not isinstance(value, bool):
        raise TypeError(message("flag", parameter=parameter, value=_typed(value), true="True", false="False"))
    return value


def _name_list(parameter: str, value: object) -> tuple[str, ...]:
    """A column name or a list of them; a comma-separated string is split."""
    if isinstance(value, str):
        names = [part.strip() for part in value.split(",")] if "," in value else [value.strip()]
    elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        names = [v.strip() for v in value]
    else:
        raise type_failure(parameter, "a column name or a list of column names", value)
    if not names or any(not name for name in names):
        raise ValueError(f"inc_join: {parameter} must name at least one column and no empty names (got {value!r}).")
    lowered = [name.lower() for name in names]
    duplicates = sorted({name for name in names if lowered.count(name.lower()) > 1})
    if duplicates:
        raise ValueError(f"inc_join: {parameter} lists {', '.join(map(repr, duplicates))} more than once.")
    return tuple(names)


def _key_pairs(value: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """join_cols: a column name, a list of them (the same on both sides), or a mapping {A column: B column}."""
    if not isinstance(value, dict):
        names = _name_list("join_cols", value)
        return names, names
    if not value or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise type_failure(
            "join_cols", "a column name, a list of them, or a mapping {A column: B column} of names", value
        )
    names_a = _name_list("join_cols", list(value.keys()))
    names_b = _name_list("join_cols (B side of the mapping)", list(value.values()))
    return names_a, names_b


def _arrival_pair(value: object) -> tuple[str, str]:
    """inc_col: one column name (the same on both sides) or an (A column, B column) pair."""
    if isinstance(value, str) and value.strip():
        return value.strip(), value.strip()
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, str) and v.strip() for v in value):
        return value[0].strip(), value[1].strip()
    raise type_failure(
        "inc_col",
        "the name of the arrival column present in both inputs, e.g. 'RecDate', or an (A column, B column) pair",
        value,
    )


def _join_cond(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise type_failure("join_cond", "a Spark SQL condition over a.<A column> and b.<B column>, or None", value)
    return value.strip()


def _suffixes(value: object) -> tuple[str, str]:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(isinstance(v, str) for v in value):
        raise type_failure("suffixes", "a pair of strings such as ('_A', '_B')", value)
    if value[0] == value[1]:
        raise ValueError(
            f"inc_join: suffixes must differ, or the two sides' columns would clash (got {tuple(value)!r})."
        )
    return value[0], value[1]


def _output_select(value: object, default: str = OUTPUT_SELECT_DEFAULT) -> tuple[str, ...]:
    if value is None:
        value = default
    if isinstance(value, str):
        tokens = [token.strip() for token in value.split(",")]
    elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        tokens = [v.strip() for v in value]
    else:
        raise type_failure("output_select", "a comma-separated string or a list of tokens and column names", value)
    if not [t for t in tokens if t]:
        raise ValueError(
            f"inc_join: output_select selects no column; list tokens such as '{OUTPUT_SELECT_DEFAULT}' or column names."
        )
    if any(not token for token in tokens):
        raise ValueError(f"inc_join: output_select has an empty entry (got {value!r}).")
    return tuple(tokens)


#: The arguments of one join (shared_tables.ARGUMENTS: joined) and their defaults: what check_parameters takes.
_ROWS: tuple[dict[str, Any], ...] = ARGUMENTS
JOIN_ARGUMENTS: dict[str, object] = {row["name"]: row["default"] for row in _ROWS if row["joined"]}
_RULES = {row["name"]: row for row in _ROWS}


def check_argument(name: str, value: object) -> object:
    """An argument checked by the rule of its row in shared_tables.ARGUMENTS (choice, flag, window_length,
    flag_or_auto)."""
    row = _RULES[name]
    if row["check"] == "choice":
        return check_choice(name, value, row["accepted"])
    if row["check"] == "flag":
        return check_flag(name, value)
    if row["check"] == "window_length":
        return check_window_length(name, value)
    if row["check"] == "flag_or_auto":
        return check_flag_or_auto(name, value)
    raise AssertionError(f"no table rule checks {name} (it has a check of its own)")


def check_parameters(**given: object) -> JoinParameters:
    """Every argument of one join (those not given at the table's defaults) that does not need the data's schema,
    checked and normalised."""
    unknown = sorted(set(given) - set(JOIN_ARGUMENTS))
    if unknown:
        raise TypeError(f"inc_join: unknown arguments {', '.join(unknown)}; accepted: {', '.join(JOIN_ARGUMENTS)}.")
    arguments = {**JOIN_ARGUMENTS, **given}
    join_cols, inc_col, join_cond = arguments["join_cols"], arguments["inc_col"], arguments["join_cond"]
    inc_a, inc_b = _arrival_pair(inc_col)
    keys, keys_b = _key_pairs(join_cols)
    for arrival, names in ((inc_a, keys), (inc_b, keys_b)):
        if arrival.lower() in [k.lower() for k in names]:
            raise ValueError(f"inc_join: join_cols must not contain the arrival column inc_col={arrival!r}.")
    condition = _join_cond(join_cond)
    how_value = cast(str, check_argument("how", arguments["how"]))
    enforce = cast(bool, check_argument("enforce_sliding_join_window", arguments["enforce_sliding_join_window"]))
    partner_value = cast(str, check_argument("partner", arguments["partner"]))
    order_by = _partner_order_by(arguments["partner_order_by"], partner_value)
    aggregates = _aggregates(arguments["aggregate"])
    fills = _null_fill(arguments["null_fill"], aggregates)
    many = cast("bool | str", check_argument("many_rows_per_key", arguments["many_rows_per_key"]))
    _check_row_mode(how_value, partner_value, bool(aggregates), many, enforce)
    late = cast(int, check_argument("late_match_time", arguments["late_match_time"]))
    if late:
        _check_late_matches(how_value, partner_value, bool(aggregates), enforce)
    default_select = OUTPUT_SELECT_AGGREGATE_DEFAULT if aggregates else OUTPUT_SELECT_DEFAULT
    return JoinParameters(
        join_cols=keys,
        inc_col=inc_a,
        how=how_value,
        look_back_time=cast(int, check_argument("look_back_time", arguments["look_back_time"])),
        max_waiting_time=cast(int, check_argument("max_waiting_time", arguments["max_waiting_time"])),
        time_uom=TimeUnit(check_argument("time_uom", arguments["time_uom"])),
        enforce_sliding_join_window=enforce,
        include_waiting=cast(bool, check_argument("include_waiting", arguments["include_waiting"])),
        output_select=_output_select(arguments["output_select"], default_select),
        suffixes=_suffixes(arguments["suffixes"]),
        partner=partner_value,
        partner_order_by=order_by,
        aggregate=aggregates,
        null_fill=fills,
        many_rows_per_key=many,
        late_match_time=late,
        join_cols_b=keys_b,
        inc_col_b=inc_b,
        join_cond=condition,
    )


def _partner_order_by(value: object, partner: str) -> tuple[str, ...]:
    """spec §11: the columns that order the partners, for partner = first or last only."""
    order_by = () if value is None else _name_list("partner_order_by", value)
    if order_by and partner == "all":
        raise ValueError(
            "inc_join: partner_order_by orders the partners for partner='first' or 'last'; with partner='all' "
            "every partner is a row of its own (set partner, or drop partner_order_by)."
        )
    return order_by


def _check_row_mode(how: str, partner: str, aggregates: bool, many: bool | str, enforce: bool) -> None:
    """spec §11: aggregate takes every partner of an A row; one row per A row needs the sliding window."""
    if aggregates and partner != "all":
        raise ValueError(
            f"inc_join: aggregate combines all partners of an A row, so partner must be 'all' (got "
            f"partner={partner!r}); use one or the other."
        )
    if aggregates and how not in ("left", "inner"):
        raise ValueError(
            f"inc_join: aggregate gives one row per A row, so how must be 'left' or 'inner' (got how={how!r})."
        )
    if not enforce and (partner != "all" or aggregates or many is True):
        used = "aggregate" if aggregates else ("many_rows_per_key" if partner == "all" else "partner")
        raise ValueError(
            f"inc_join: {used} needs the sliding join window; enforce_sliding_join_window=False (the "
            "compatibility mode) only supports partner='all' without aggregate."
        )


def _check_late_matches(how: str, partner: str, aggregates: bool, enforce: bool) -> None:
    """spec §10: late matches pair a timed-out A row with later B rows, one row per pair."""
    if how == "left_anti":
        raise ValueError(
            "inc_join: late_match_time pairs timed-out A rows with partners that came later, but how='left_anti' "
            "outputs no pairs; use how='left' (or late_match_time=0)."
        )
    if partner != "all" or aggregates:
        used = "aggregate" if aggregates else f"partner={partner!r}"
        raise ValueError(
            f"inc_join: late_match_time needs partner='all' without aggregate (got {used}): a late partner is a "
            "row of its own, and one row per A row would have to change after it was final."
        )
    if not enforce:
        raise ValueError(
            "inc_join: late_match_time needs the sliding join window; enforce_sliding_join_window=False (the "
            "compatibility mode) has no window to be late for."
        )


def _aggregates(value: object) -> tuple[tuple[str, str], ...]:
    """``aggregate``: output column -> Spark SQL aggregate over B's columns (checked by Spark later)."""
    if value is None:
        return ()
    if not isinstance(value, Mapping) or not value:
        raise type_failure(
            "aggregate", "a non-empty mapping of output column to Spark SQL aggregate, e.g. {'n': 'count(*)'}", value
        )
    pairs = []
    for name, expression in value.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"inc_join: aggregate has an empty or non-string output column name ({name!r}).")
        if not isinstance(expression, str) or not expression.strip():
            raise type_failure(
                f"aggregate[{name!r}]", "a Spark SQL aggregate expression such as 'sum(Amount)'", expression
            )
        if not balanced(expression):
            raise ValueError(f"inc_join: aggregate[{name!r}] = {expression!r} has unbalanced parentheses or quotes.")
        pairs.append((name.strip(), expression.strip()))
    lowered = [name.lower() for name, _ in pairs]
    repeated = sorted({name for name, _ in pairs if lowered.count(name.lower()) > 1})
    if repeated:
        raise ValueError(f"inc_join: aggregate names {', '.join(map(repr, repeated))} more than once.")
    return tuple(pairs)


def balanced(expression: str) -> bool:
    """Parentheses balance outside quotes, and every quote closes (a cheap syntax check Spark would fail on
    with a message that does not name the aggregate)."""
    depth, quote = 0, ""
    for char in expression:
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"`":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0 and not quote


def _null_fill(value: object, aggregates: tuple[tuple[str, str], ...]) -> tuple[tuple[str, object], ...]:
    """``null_fill``: aggregate name -> the literal an A row without partner gets instead of the aggregate."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise type_failure("null_fill", "a mapping of aggregate name to literal, e.g. {'n_payments': 0}", value)
    if value and not aggregates:
        raise ValueError("inc_join: null_fill gives values to aggregate columns; it needs aggregate.")
    names = {name.lower(): name for name, _ in aggregates}
    fills = []
    for key, literal in value.items():
        if not isinstance(key, str) or key.strip().lower() not in names:
            raise ValueError(
                f"inc_join: null_fill key {key!r} is not an aggregate name; the aggregates are "
                f"{', '.join(repr(n) for n, _ in aggregates)}."
            )
        if not isinstance(literal, FILL_TYPES):
            raise type_failure(
                f"null_fill[{key!r}]", "a literal: a number, string, boolean, date, datetime or None", literal
            )
        fills.append((names[key.strip().lower()], literal))
    return tuple(fills)
