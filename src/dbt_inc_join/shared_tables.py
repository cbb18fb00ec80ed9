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
