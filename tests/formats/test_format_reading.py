"""spec §16, reading: on Delta Lake and Iceberg inputs a run reads A and B only in spec §4's ranges, by partition
pruning where an input is partitioned by its arrival column and by file skipping on the column's min/max
statistics where it is not (one file per day here, so files read = days read). Run by the format legs only
(make test-formats: INC_JOIN_TABLE_FORMAT = delta or iceberg)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from dbt_inc_join import inc_join

LB, MW = 2, 3
FIRST, DAYS = date(2025, 3, 1), 12


def day_rows(side: str, day: date) -> str:
    """Four rows of one day: keys 0-3, the side's name."""
    return f"SELECT /*+ COALESCE(1) */ CAST(id AS INT) AS k, '{side}' AS side, DATE'{day}' AS RecDate FROM range(4)"


@pytest.fixture(scope="module")
def tables(spark, chosen):
    """A and B twice in the format: partitioned by RecDate (one statement, a file per partition), and not
    partitioned (a statement per day: a file per day, its RecDate statistics one day wide)."""
    spark.sql("CREATE DATABASE IF NOT EXISTS formats")
    made = {}
    for side in ("a", "b"):
        every_day = " UNION ALL ".join(day_rows(side, FIRST + timedelta(days=i)) for i in range(DAYS))
        spark.sql(f"DROP TABLE IF EXISTS formats.part_{side}")
        spark.sql(
            f"CREATE TABLE formats.part_{side} USING {chosen} PARTITIONED BY (RecDate) "
            f"AS SELECT /*+ COALESCE(1) */ * FROM ({every_day})"
        )
        spark.sql(f"DROP TABLE IF EXISTS formats.flat_{side}")
        spark.sql(f"CREATE TABLE formats.flat_{side} (k INT, side STRING, RecDate DATE) USING {chosen}")
        for i in range(DAYS):
            spark.sql(f"INSERT INTO formats.flat_{side} {day_rows(side, FIRST + timedelta(days=i))}")
        made[side] = {"part": f"formats.part_{side}", "flat": f"formats.flat_{side}"}
    return made


def files_read(spark, make_result) -> list[int]:
    """Run the query with AQE off (a plain plan tree); the data files each scan read, in plan order (Delta's file
    scan: numFiles; Iceberg's batch scan: resultDataFiles)."""
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        result = make_result()
        result.collect()
        leaves = result._jdf.queryExecution().executedPlan().collectLeaves()
        counts = []
        for i in range(leaves.size()):
            metrics = leaves.apply(i).metrics()
            for name in ("numFiles", "resultDataFiles"):
                if metrics.contains(name):
                    counts.append(int(metrics.get(name).get().value()))
        return counts
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")


def daily_run(spark, tables, layout: str, day: date):
    return inc_join(
        spark.table(tables["a"][layout]),
        spark.table(tables["b"][layout]),
        join_cols="k",
        look_back_time=LB,
        max_waiting_time=MW,
        output_window_start=day,
        output_window_end=day,
    )


@pytest.mark.parametrize("layout", ["part", "flat"])
def test_a_daily_run_reads_the_files_of_its_ranges_only(spark, tables, layout):
    """A: [s − mw, e], B: [s − mw − lb, e] (spec §4), one file a day, on a day late in the history and an early
    one: the same counts whatever lies before."""
    for day in (FIRST + timedelta(days=DAYS - 1), FIRST + timedelta(days=MW + LB + 1)):
        assert files_read(spark, lambda day=day: daily_run(spark, tables, layout, day)) == [MW + 1, MW + LB + 1], day


def test_both_layouts_give_the_rows_of_the_same_run_in_memory(spark, tables):
    """The format's scans change which files are read, never the rows: each layout gives what the same run gives
    over the tables' rows as in-memory DataFrames."""
    day = FIRST + timedelta(days=8)
    schema = "k int, side string, RecDate date"
    in_memory = inc_join(
        *(spark.createDataFrame(spark.table(tables[side]["flat"]).collect(), schema) for side in ("a", "b")),
        join_cols="k",
        look_back_time=LB,
        max_waiting_time=MW,
        output_window_start=day,
        output_window_end=day,
    )
    expected = sorted(in_memory.collect())
    assert expected, "the day has rows"
    for layout in ("part", "flat"):
        assert sorted(daily_run(spark, tables, layout, day).collect()) == expected, layout


@pytest.mark.parametrize("layout", ["part", "flat"])
def test_a_runs_reads_of_its_own_table_keep_to_the_window(spark, tables, chosen, layout):
    """A run's reads of its own table (the latest arrival from the last window on, the post-hook's rows of the
    window) compare the arrival column so the format prunes with it: the files of those days only. Under
    unix_seconds (parquet's form, for the metastore) Iceberg read every file."""
    from dbt_inc_join.sql_text import render

    since = FIRST + timedelta(days=DAYS - 3)
    latest = render("_latest_output_arrival_sql", tables["a"][layout], "RecDate", since, chosen)
    assert files_read(spark, lambda: spark.sql(latest)) in ([3], [])  # [] where max comes from the metadata
    assert spark.sql(latest).first()[0] == f"{FIRST + timedelta(days=DAYS - 1)} 00:00:00"
    record = {"empty": False, "window_start": f"{since} 00:00:00", "window_end": f"{since} 00:00:00", "time_uom": "day"}
    in_window = render("_window_predicate", record, "RecDate", chosen)
    counted = f"SELECT count(*) FROM {tables['a'][layout]} WHERE {in_window}"
    assert files_read(spark, lambda: spark.sql(counted)) in ([1], [])
    assert spark.sql(counted).first()[0] == 4
