"""spec §17 on Delta and Iceberg: rows whose arrival is NULL are in no unit (spec §2), so a commit that adds or
removes only such rows changes no unit and leaves the log whole: a restatement of an old unit in the same interval
is still found. The macro _log_changes, run on Spark through the port, over real tables of the leg's format,
partitioned by the arrival column and not."""

from __future__ import annotations

import pytest

from dbt_inc_join.sql_text.macros import port, query_runner


def newest(spark, chosen: str, table: str) -> str:
    if chosen == "iceberg":
        newest_first = f"SELECT snapshot_id FROM {table}.snapshots ORDER BY committed_at DESC LIMIT 1"
        return str(spark.sql(newest_first).first()[0])
    return str(spark.sql(f"DESCRIBE HISTORY {table} LIMIT 1").first().version)


@pytest.mark.parametrize("partitioned", [False, True], ids=["not-partitioned", "partitioned-by-arrival"])
def test_a_commit_of_null_arrivals_leaves_the_log_whole_and_an_old_delete_is_found(spark, chosen, partitioned):
    table = f"formats.null_arrivals_{int(partitioned)}"
    spark.sql("CREATE DATABASE IF NOT EXISTS formats")
    spark.sql(f"DROP TABLE IF EXISTS {table}")
    spark.sql(f"CREATE TABLE {table} (k INT, RecDate DATE) USING {chosen}"
              + (" PARTITIONED BY (RecDate)" if partitioned else ""))  # fmt: skip
    spark.sql(f"INSERT INTO {table} VALUES (1, DATE'2025-01-01'), (2, DATE'2025-01-02')")
    spark.sql(f"INSERT INTO {table} VALUES (3, DATE'2025-01-05')")
    then = newest(spark, chosen, table)  # what the last run read
    spark.sql(f"INSERT INTO {table} VALUES (9, CAST(NULL AS DATE))")  # a file of NULL arrivals only
    spark.sql(f"DELETE FROM {table} WHERE k = 1")  # day 1 restated
    spark.sql(f"DELETE FROM {table} WHERE k = 9")  # and the NULL row's file removed
    now = {"relation": table, "format": chosen, "version": newest(spark, chosen, table)}
    if chosen == "delta":
        now["location"] = spark.sql(f"DESCRIBE DETAIL {table}").first().location

    changes = port(spark.sql)("_log_changes", query_runner(spark.sql), {"name": "b", "arrival": "RecDate"},
                              {"version": then}, now, "day")  # fmt: skip
    assert changes["gone"] is None, changes["gone"]
    units = {day for r in changes["ranges"] for day in (r["lower"][:10], r["upper"][:10])}
    assert "2025-01-01" in units and units <= {"2025-01-01", "2025-01-02"}, changes["ranges"]
