"""The simulated daily pipeline of the integration project: its period, settings and table comparison."""

from __future__ import annotations

from datetime import date, timedelta

from pyspark import __version__ as pyspark_version

from harness.table_formats import table_format

from ..conftest import whole_matrix

FIRST_DAY, LAST_DAY = date(2025, 1, 1), date(2025, 1, 8)
DAYS = [FIRST_DAY + timedelta(days=i) for i in range((LAST_DAY - FIRST_DAY).days + 1)]
SETTINGS = dict(join_cols="TrxId", look_back_time=2, max_waiting_time=4)
# what a gen_<how> model passes besides SETTINGS: the inner models take late matches too (spec §10)
HOW_OPTIONS = {"inner": dict(late_match_time=2)}
# gen_chained: gen_left's table as A, joined with stg_gen_b again (spec §5: read as it is)
CHAIN_SETTINGS = dict(join_cols="TrxId", how="full", look_back_time=1, max_waiting_time=2)
HOUR_SETTINGS = dict(join_cols="TrxId", look_back_time=1, max_waiting_time=3, time_uom="hour")
DAILY = [
    "gen_left",
    "gen_inner",
    "gen_full",
    "gen_left_py",
    "gen_inner_py",
    "gen_full_py",
    "gen_left_append",
    "gen_chained",
    "gen_hour_left",
    "hot_first",
    "hot_aggregate",
    "hot_aggregate_py",
    "gen_many",
    "gen_many_py",
    "gen_many_first",
]
MICROBATCH = ["gen_left_microbatch", "gen_full_microbatch_py", "gen_left_microbatch_py"]
# gen_left's join with incremental_strategy='merge' (one MERGE replaces the window), not partitioned: Delta and
# Iceberg only, so the format legs build them
REPLACE = ["gen_left_replace", "gen_left_replace_py"] if table_format() in ("delta", "iceberg") else []
DAILY += REPLACE
# What a format leg leaves out: models whose writes are those of models it builds (gen_left's and gen_full's SQL,
# gen_left's Python), with plans that do not depend on the table format (inner with late matches, one row per A).
# The parquet legs build them; each format leg's pipeline costs about 40 % less (make test within its budget).
# Their tests carry the marker parquet_only; `make test-matrix` (whole_matrix) builds every model in every leg.
PARQUET_ONLY = (
    [
        "gen_inner",
        "gen_inner_py",
        "gen_full_py",
        "hot_first",
        "hot_aggregate",
        "hot_aggregate_py",
        "gen_left_microbatch_py",
    ]
    if table_format() and not whole_matrix()
    else []
)
# Delta on Spark 3.5 (the Databricks LTS line) also leaves out the Python model of several inputs and the hourly
# model: their writes are those of gen_left_py and gen_left, which it builds; the Spark 4.1 format legs build both.
if table_format() and pyspark_version.startswith("3.") and not whole_matrix():  # their tests: one_engine
    PARQUET_ONLY += ["gen_many_py", "gen_hour_left"]
DAILY = [name for name in DAILY if name not in PARQUET_ONLY]
MICROBATCH = [name for name in MICROBATCH if name not in PARQUET_ONLY]


def ordered(columns):
    """Column names in one order whatever their case: a view in Iceberg's session catalog reads back with lower-case
    column names (Hive's), so a table built over one may spell a column otherwise than the same run over the seeds;
    Spark matches names without case."""
    return sorted(columns, key=str.lower)


def rows(df, columns):
    """A table's rows as a sorted list of tuples in a fixed column order (NULLs sort first)."""
    quoted = ["`" + c.replace("`", "``") + "`" for c in columns]
    return sorted(
        (tuple(r) for r in df.select(*quoted).collect()), key=lambda t: tuple((v is not None, str(v)) for v in t)
    )


# The pipeline's runs: a first run on day 7 over the days loaded by then, then one incremental run on day 8 (2 dbt
# invocations; each costs about as much as the next, so the first covering seven days keeps the suite within its
# time). The day-8 run crosses the waiting (4 days) and look-back (2 days) windows of the rows before it: A rows of
# day 4 time out in it, B rows of day 8 match A rows of earlier days, and it reads the open state the first run
# wrote. The tiling of many daily runs is the core's property tests' and test_sql_property.py's.
RUN_DAYS = DAYS[6:]
# The microbatch models' first batch. dbt runs one batch per day, and a batch costs about as much as a daily run of
# another model, so every leg starts them on day 6 (a first run of one or two batches, not six or seven); their
# tables then hold gen_left's and gen_full's rows from that day on. `make test-matrix` runs every batch from the
# first day.
MICROBATCH_FROM = DAYS[5] if not whole_matrix() else FIRST_DAY


def run_daily_pipeline(project, state_lines: dict[str, str] | None = None):
    """Run every daily model on each of RUN_DAYS, and the microbatch models over the days since the last run (one
    batch a day, from MICROBATCH_FROM); return each table's rows. ``state_lines``: filled with each model's open-state
    line (spec §18) of the last day's run."""
    from .test_restated import state_lines_into

    previous = MICROBATCH_FROM
    for day in RUN_DAYS:
        lines: dict[str, str] = {}
        # the event-time bounds only concern the microbatch models: one batch a day, up to the day just loaded
        project.invoke(
            "run",
            "--select",
            "+tag:daily",
            "+tag:microbatch",
            *(["--exclude", *PARQUET_ONLY] if PARQUET_ONLY else []),
            "--threads",
            "2",
            "--event-time-start",
            str(previous),
            "--event-time-end",
            str(day + timedelta(days=1)),
            today=day,
            callbacks=[state_lines_into(lines)],
        )
        previous = day + timedelta(days=1)
    if state_lines is not None:
        state_lines.update(lines)
    snapshots = {}
    for name in DAILY + MICROBATCH:
        table = project.table(name)
        snapshots[name] = rows(table, ordered(table.columns))
    return snapshots
