"""The tables both languages share, as plain data: the version, the JoinTypes, the arguments, the ledger's columns.

This module is the one source. The Python side imports it (join_types.py, __init__.py); the dbt macros read a
generated copy, ``macros/tables/generated/*.sql``, that ``make generate`` (scripts/generate_macros.py) writes from it,
and tests/packaging/test_generated.py fails when a copy is stale. Edit here, then run ``make generate``.

Plain data, no imports (two one-line row builders keep each table row on one line): dbt-core imports every
installed ``dbt_*`` module, the generator reads this file without the package, the build backend reads VERSION from it.
"""

#: The package's version: ``dbt_inc_join.__version__``, the wheel's (pyproject), dbt_project.yml's `version:`
#: and the ``package_version`` the run ledger records (macro ``_package_version()``).
VERSION = "0.1.0"

HOW_VALUES = ("inner", "left", "full", "left_anti")
PARTNER_VALUES = ("all", "first", "last")
#: What a run does with input units rewritten after a committed run read them (docs/spec.md §14).
ON_RESTATED_INPUT_VALUES = ("warn", "fail", "redo")
#: The row modes of spec §11: a partner choice, or "aggregate" (an ``aggregate`` argument was given).
ROW_MODES = PARTNER_VALUES + ("aggregate",)

_MATCH_HOWS = ("inner", "left", "full")
_A_ONLY_HOWS = ("left", "full", "left_anti")
_PAIR_MODES = PARTNER_VALUES
_EVERY_MODE = ROW_MODES


def _join_type(code, name, placed_at, hows, matched, modes, provisional=False, late=False) -> dict:
    """One row of JOIN_TYPES, written on one line below."""
    return dict(
        code=code,
        name=name,
        placed_at=placed_at,
        hows=hows,
        matched=matched,
        modes=modes,
        provisional=provisional,
        late=late,
    )


#: The JoinType table (docs/spec.md §3), in code order. One row per JoinType:
#: code and name (the ``JoinType`` member and ``JoinTypeName``); placed_at, the output arrival in the terms of
#: spec §2 (e: the output window end), the rule of partner = all (partner = last places codes 1-3 at
#: a + max_waiting_time, spec §11); hows, the ``how`` values that emit it; matched, a row of an A row and its
#: partner (or its partners, aggregated); modes, the row modes that emit it; provisional, only with
#: include_waiting (a later run emits the A row again); late, only with late_match_time > 0 (spec §10).
# fmt: off
JOIN_TYPES = (
    _join_type(1, "same_time", "a", _MATCH_HOWS, True, _PAIR_MODES),
    _join_type(2, "a_late", "a", _MATCH_HOWS, True, _PAIR_MODES),
    _join_type(3, "b_late", "b", _MATCH_HOWS, True, _PAIR_MODES),
    _join_type(4, "a_timed_out", "a + max_waiting_time", _A_ONLY_HOWS, False, _EVERY_MODE),
    _join_type(5, "a_waiting", "e", _A_ONLY_HOWS, False, _EVERY_MODE, provisional=True),
    _join_type(6, "b_timed_out", "b + look_back_time", ("full",), False, _PAIR_MODES),
    _join_type(7, "late_match", "b", _MATCH_HOWS, True, ("all",), late=True),
    _join_type(8, "a_aggregated", "a + max_waiting_time", ("inner", "left"), True, ("aggregate",)),
)
# fmt: on

#: (name, Spark type) of the run ledger (spec §13), partition columns last. run_key is unique per run, so every
#: run writes a partition of its own: concurrent runs never share a staging directory (see _ledger_insert_sql).
#: Above it recorded_month (the run's start, UTC, yyyy-MM): a record names its month, so Spark lists only that
#: month's partitions when it writes one, however long the ledger grows.
LEDGER_COLUMNS = (
    ("model", "string"),
    ("relation", "string"),
    ("table_id", "string"),
    ("language", "string"),
    ("time_uom", "string"),
    ("window_start", "timestamp"),
    ("window_end", "timestamp"),
    ("empty", "boolean"),
    ("start_reason", "string"),
    ("end_reason", "string"),
    ("watermark", "timestamp"),
    ("a_max", "timestamp"),
    ("b_max", "timestamp"),
    ("units_behind", "bigint"),
    ("rows_total", "bigint"),
    ("join_type_rows", "map<int,bigint>"),
    ("started_at", "timestamp"),
    ("finished_at", "timestamp"),
    ("invocation_id", "string"),
    ("package_version", "string"),
    ("redo_from", "timestamp"),
    ("restated", "array<struct<input:string,unit:timestamp,rows_then:bigint,rows_now:bigint>>"),
    ("fingerprints", "string"),
    ("plan", "string"),
    ("input_versions", "array<struct<input:string,relation:string,format:string,version:string>>"),
    ("rows_read", "map<string,bigint>"),
    ("recorded_month", "string"),
    ("run_key", "string"),
)

#: The time units an argument ``time_uom`` accepts (time_units.TimeUnit holds the same values).
TIME_UOM_VALUES = ("day", "hour", "minute")

#: The entry points that take the arguments below. The SQL macro ``inc_join`` takes what ``inc_join_model`` takes
#: (both run in dbt), the SQL macro ``inc_join_many`` what ``inc_join_many_model`` takes.
ENTRIES = ("inc_join", "inc_join_model", "inc_join_many", "inc_join_many_model")
_JOIN = ("inc_join", "inc_join_model")
_EVERY_ENTRY = ENTRIES
_IN_DBT = ("inc_join_model", "inc_join_many_model")

#: The arguments after the inputs (a and b; a and inputs for inc_join_many), in the order of the SQL macros'
#: positions and of the Python signatures. name and default (``required``: no default); check, the rule that
#: checks it (validation.py and macros/plan/_validation.sql): "choice" (one of ``accepted``, any case),
#: "flag" (true or false), "window_length" (a whole number of units >= 0), "window_bound" (output window bounds,
#: window.py), "window_cap" (max_window_units, ledger.py), "flag_or_auto" (true, false or 'auto'), or the
#: argument's own rule (``own``: written as code, a check of its own name in both languages); joined, whether
#: check_parameters takes it (the arguments of one join, as opposed to the run's window); entries, the entry
#: points that take it (see ENTRIES).


def _argument(name, default, check="own", accepted=(), joined=True, entries=_JOIN, required=False) -> dict:
    """One row of ARGUMENTS, written on one line below."""
    return dict(
        name=name, default=default, required=required, check=check, accepted=accepted, joined=joined, entries=entries
    )


# fmt: off
ARGUMENTS = (
    _argument("join_cols", None, required=True),
    _argument("inc_col", "RecDate"),
    _argument("how", "left", "choice", HOW_VALUES),
    _argument("look_back_time", 0, "window_length"),
    _argument("max_waiting_time", 0, "window_length"),
    _argument("output_window_start", None, "window_bound", joined=False, entries=_EVERY_ENTRY),
    _argument("output_window_end", None, "window_bound", joined=False, entries=_EVERY_ENTRY),
    _argument("time_uom", "day", "choice", TIME_UOM_VALUES, entries=_EVERY_ENTRY),
    _argument("enforce_sliding_join_window", True, "flag"),
    _argument("include_waiting", False, "flag", entries=_EVERY_ENTRY),
    _argument("output_select", None, entries=_EVERY_ENTRY),
    _argument("suffixes", ("_A", "_B")),
    _argument("partner", "all", "choice", PARTNER_VALUES),
    _argument("partner_order_by", None),
    _argument("aggregate", None),
    _argument("null_fill", None),
    _argument("many_rows_per_key", "auto", "flag_or_auto"),
    _argument("late_match_time", 0, "window_length"),
    _argument("max_window_units", None, "window_cap", joined=False, entries=_IN_DBT),
    _argument("join_cond", None),
    _argument("on_restated_input", "warn", "choice", ON_RESTATED_INPUT_VALUES, joined=False, entries=_IN_DBT),
    _argument("restated_horizon", 0, "window_length", joined=False, entries=_IN_DBT),
    _argument("open_state", "auto", "flag_or_auto", joined=False, entries=_IN_DBT),
)
# fmt: on

#: Each SQL macro and the entry point whose arguments it takes.
SQL_MACROS = {"inc_join": "inc_join_model", "inc_join_many": "inc_join_many_model"}

#: The messages of the rules the arguments table names (ARGUMENTS' check), after "inc_join: ". Each language
#: fills in {parameter}, {value} (Python: the type and repr of a value of the wrong type, the repr of a wrong
#: choice; Jinja: its repr), {accepted} (the accepted values, quoted) and {true}/{false}/{auto} (its spelling).
MESSAGES = {
    "choice": "{parameter}={value} is not supported; accepted values: {accepted}.",
    "flag": "{parameter} must be {true} or {false} (got {value}).",
    "flag_or_auto": "{parameter} must be {true}, {false} or {auto} (got {value}).",
    "window_length": "{parameter} must be a non-negative whole number of time_uom units, e.g. 2 (got {value}).",
    "window_length_negative": "{parameter} must be a non-negative whole number of time_uom units (got {value}).",
}

#: The checks of spec §7 by name, each with the exception the core raises for it (the macros' _fail names the
#: check; plan/validation.py raises its message, spelled for Python, as this type): a value of the wrong type is
#: a TypeError, a value of the right type that is refused a ValueError.
CHECK_ERRORS = {
    **dict.fromkeys(
        ("window_length", "flag", "flag_or_auto", "names_type", "output_select_type", "suffixes_type", "aggregate_type")
        + ("null_fill_type", "inc_col_type", "join_cond_type", "column_type", "coverage_type", "bound_type")
        + ("many_inputs_type", "many_input_type"),
        "TypeError",
    ),
    **dict.fromkeys(
        ("choice", "window_length_negative", "names_empty", "names_repeated", "output_select_empty", "suffixes_equal")
        + ("aggregate_name", "aggregate_unbalanced", "null_fill_key", "join_cols_arrival", "row_mode", "missing_column")
        + ("output_column", "output_select", "join_cond", "coverage", "window_pair", "window_cap", "bound_text")
        + ("many_input",),
        "ValueError",
    ),
}

#: The keys of an input of inc_join_many (spec §12) after its data (Python: ``df``, SQL: ``relation``), in the
#: order the messages list them (macros/plan/_many_inputs.sql).
MANY_INPUT_KEYS = (
    "name",
    "join_cols",
    "inc_col",
    "look_back_time",
    "max_waiting_time",
    "partner",
    "partner_order_by",
    "aggregate",
    "null_fill",
    "join_cond",
    "suffix",
    "many_rows_per_key",
)

#: How ``many_rows_per_key='auto'`` chooses the plan of partner = all and of inc_join_many's inputs (docs/spec.md
#: §15; plan_choice.py and macros/plan/_plan_choice.sql): the plain plan, without a sample, when B's read range
#: spans at most ``range_windows`` join windows (look_back_time + max_waiting_time + 1 units); otherwise one query
#: over A's first ``sample_rows`` keyed rows before B's last join window, and the grouped plan when each meets at
#: least ``shared_rows`` B rows of its key, scaled from that window to B's read range. An input's plain plan pairs
#: A's rows as they are when a sample row shares its keys with fewer than ``shared_rows`` rows of the sample.
PLAN_CHOICE = {"range_windows": 2, "sample_rows": 400, "shared_rows": 8}

#: When ``open_state='auto'`` (the default) keeps the open state (docs/spec.md §18; macros/orchestration/
#: _open_state_use.sql): from this many new rows of A a unit of the run's window, per format of the model's table
#: and kind of state ('rows': partner first or left_anti, 'keys': partner all, 'many': inc_join_many), as the
#: watermark's query counts them; a format not named takes parquet's. Below, the state's own statements cost more
#: than the history it spares (bench/open_state_dbt.py). On Delta they cost more (the state table's commits, the
#: planning of Delta scans): three times the rows, and with partner all none (None: the state with partner all
#: measured 1.35 times as long as without at 900,000 rows a day), as measured in
#: bench/results/open-state-dbt-delta-2026-12-06-threshold.md (Iceberg there measured as parquet).
OPEN_STATE = {
    "parquet": {"rows": 50000, "keys": 300000, "many": 50000},
    "delta": {"rows": 150000, "keys": None, "many": 150000},
}

#: An aggregate's value over no rows, for the A rows without partner (spec §11), when the aggregate is one call of
#: one of these Spark functions: a literal in the plan, where any other aggregate is computed over no rows of B in
#: the run (aggregates.py and macros/sql_text/_aggregates.sql). count and count_if are 0, the others NULL.
EMPTY_AGGREGATES = {
    "count": "CAST(0 AS BIGINT)",
    "count_if": "CAST(0 AS BIGINT)",
    "sum": "NULL",
    "avg": "NULL",
    "mean": "NULL",
    "min": "NULL",
    "max": "NULL",
    "min_by": "NULL",
    "max_by": "NULL",
    "first": "NULL",
    "last": "NULL",
}
