"""The tables both languages share, as plain data: the version, the JoinType table and the run ledger's columns.

This module is the one source. The Python side imports it (join_types.py, __init__.py); the dbt macros read a
generated copy, ``macros/generated/*.sql``, that ``make generate`` (scripts/generate_macros.py) writes from it,
and tests/packaging/test_generated.py fails when a copy is stale. Edit here, then run ``make generate``.

Plain literals only, no imports: dbt-core imports every installed ``dbt_*`` module, and the generator and
setuptools (the version) read this file without pyspark.
"""

#: The package's version: ``dbt_inc_join.__version__``, the wheel's (pyproject), dbt_project.yml's `version:`
#: and the ``package_version`` the run ledger records (macro ``_package_version()``).
VERSION = "0.1.0"

HOW_VALUES = ("inner", "left", "full", "left_anti")
PARTNER_VALUES = ("all", "first", "last")
#: The row modes of spec §11: a partner choice, or "aggregate" (an ``aggregate`` argument was given).
ROW_MODES = PARTNER_VALUES + ("aggregate",)

_MATCH_HOWS = ("inner", "left", "full")
_A_ONLY_HOWS = ("left", "full", "left_anti")
_PAIR_MODES = PARTNER_VALUES
_EVERY_MODE = ROW_MODES

#: The JoinType table (docs/spec.md §3), in code order. One row per JoinType:
#: code and name (the ``JoinType`` member and ``JoinTypeName``); placed_at, the output arrival in the terms of
#: spec §2 (e: the output window end), the rule of partner = all (partner = last places codes 1-3 at
#: a + max_waiting_time, spec §11); hows, the ``how`` values that emit it; matched, a row of an A row and its
#: partner (or its partners, aggregated); modes, the row modes that emit it; provisional, only with
#: include_waiting (a later run emits the A row again); late, only with late_match_time > 0 (spec §10).
JOIN_TYPES = (
    {
        "code": 1,
        "name": "same_time",
        "placed_at": "a",
        "hows": _MATCH_HOWS,
        "matched": True,
        "modes": _PAIR_MODES,
        "provisional": False,
        "late": False,
    },
    {
        "code": 2,
        "name": "a_late",
        "placed_at": "a",
        "hows": _MATCH_HOWS,
        "matched": True,
        "modes": _PAIR_MODES,
        "provisional": False,
        "late": False,
    },
    {
        "code": 3,
        "name": "b_late",
        "placed_at": "b",
        "hows": _MATCH_HOWS,
        "matched": True,
        "modes": _PAIR_MODES,
        "provisional": False,
        "late": False,
    },
    {
        "code": 4,
        "name": "a_timed_out",
        "placed_at": "a + max_waiting_time",
        "hows": _A_ONLY_HOWS,
        "matched": False,
        "modes": _EVERY_MODE,
        "provisional": False,
        "late": False,
    },
    {
        "code": 5,
        "name": "a_waiting",
        "placed_at": "e",
        "hows": _A_ONLY_HOWS,
        "matched": False,
        "modes": _EVERY_MODE,
        "provisional": True,
        "late": False,
    },
    {
        "code": 6,
        "name": "b_timed_out",
        "placed_at": "b + look_back_time",
        "hows": ("full",),
        "matched": False,
        "modes": _PAIR_MODES,
        "provisional": False,
        "late": False,
    },
    {
        "code": 7,
        "name": "late_match",
        "placed_at": "b",
        "hows": _MATCH_HOWS,
        "matched": True,
        "modes": ("all",),
        "provisional": False,
        "late": True,
    },
    {
        "code": 8,
        "name": "a_aggregated",
        "placed_at": "a + max_waiting_time",
        "hows": ("inner", "left"),
        "matched": True,
        "modes": ("aggregate",),
        "provisional": False,
        "late": False,
    },
)

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
#: checks it (validation.py and macros/internal/_validation.sql): "choice" (one of ``accepted``, any case),
#: "flag" (true or false), "window_length" (a whole number of units >= 0), "window_bound" (output window bounds,
#: window.py), "window_cap" (max_window_units, ledger.py), or the argument's own rule (``own``: written as code,
#: a check of its own name in both languages); joined, whether check_parameters takes it (the arguments of one
#: join, as opposed to the run's window); entries, the entry points that take it (see ENTRIES).
ARGUMENTS = (
    {
        "name": "join_cols",
        "default": None,
        "required": True,
        "check": "own",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "inc_col",
        "default": "RecDate",
        "required": False,
        "check": "own",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "how",
        "default": "left",
        "required": False,
        "check": "choice",
        "accepted": HOW_VALUES,
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "look_back_time",
        "default": 0,
        "required": False,
        "check": "window_length",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "max_waiting_time",
        "default": 0,
        "required": False,
        "check": "window_length",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "output_window_start",
        "default": None,
        "required": False,
        "check": "window_bound",
        "accepted": (),
        "joined": False,
        "entries": _EVERY_ENTRY,
    },
    {
        "name": "output_window_end",
        "default": None,
        "required": False,
        "check": "window_bound",
        "accepted": (),
        "joined": False,
        "entries": _EVERY_ENTRY,
    },
    {
        "name": "time_uom",
        "default": "day",
        "required": False,
        "check": "choice",
        "accepted": TIME_UOM_VALUES,
        "joined": True,
        "entries": _EVERY_ENTRY,
    },
    {
        "name": "enforce_sliding_join_window",
        "default": True,
        "required": False,
        "check": "flag",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "include_waiting",
        "default": False,
        "required": False,
        "check": "flag",
        "accepted": (),
        "joined": True,
        "entries": _EVERY_ENTRY,
    },
    {
        "name": "output_select",
        "default": None,
        "required": False,
        "check": "own",
        "accepted": (),
        "joined": True,
        "entries": _EVERY_ENTRY,
    },
    {
        "name": "suffixes",
        "default": ("_A", "_B"),
        "required": False,
        "check": "own",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "partner",
        "default": "all",
        "required": False,
        "check": "choice",
        "accepted": PARTNER_VALUES,
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "partner_order_by",
        "default": None,
        "required": False,
        "check": "own",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "aggregate",
        "default": None,
        "required": False,
        "check": "own",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "null_fill",
        "default": None,
        "required": False,
        "check": "own",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "many_rows_per_key",
        "default": False,
        "required": False,
        "check": "flag",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "late_match_time",
        "default": 0,
        "required": False,
        "check": "window_length",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
    {
        "name": "max_window_units",
        "default": None,
        "required": False,
        "check": "window_cap",
        "accepted": (),
        "joined": False,
        "entries": _IN_DBT,
    },
    {
        "name": "join_cond",
        "default": None,
        "required": False,
        "check": "own",
        "accepted": (),
        "joined": True,
        "entries": _JOIN,
    },
)

#: Each SQL macro and the entry point whose arguments it takes.
SQL_MACROS = {"inc_join": "inc_join_model", "inc_join_many": "inc_join_many_model"}

#: The messages of the rules the arguments table names (ARGUMENTS' check), after "inc_join: ". Each language
#: fills in {parameter}, {value} (Python: the type and repr of a value of the wrong type, the repr of a wrong
#: choice; Jinja: its repr), {accepted} (the accepted values, quoted) and {true}/{false} (its spelling).
MESSAGES = {
    "choice": "{parameter}={value} is not supported; accepted values: {accepted}.",
    "flag": "{parameter} must be {true} or {false} (got {value}).",
    "window_length": "{parameter} must be a non-negative whole number of time_uom units, e.g. 2 (got {value}).",
    "window_length_negative": "{parameter} must be a non-negative whole number of time_uom units (got {value}).",
}
