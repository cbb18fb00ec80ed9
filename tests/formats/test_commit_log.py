"""spec §16, one commit per run: the commit a run without a record left is found in the table's own log
(the macro _last_commit over _last_commit_sql and _last_commit_of, run on Spark through the port). On a real
Delta or Iceberg table: commits with the session's metadata setting set as a run sets it, one of them another
table's, one with none. Run by the format legs only."""

from __future__ import annotations

import json

from dbt_inc_join.sql_text import render
from dbt_inc_join.sql_text.macros import port

TABLE = "formats.commit_log"


def _last_commit(spark, state: dict) -> dict | None:
    return port(spark.sql)("_last_commit", state)


def run_metadata(relation: str, day: str) -> str:
    return json.dumps(
        {
            "inc_join_run": f"inv/model.p.m/{day} 00:00:00",
            "relation": relation,
            "window_start": f"{day} 00:00:00",
            "window_end": f"{day} 00:00:00",
        }  # fmt: skip
    )


def commit(spark, key: str, metadata: str | None, day: str) -> None:
    if metadata is None:
        spark.conf.unset(key)
    else:
        spark.conf.set(key, metadata)
    try:
        spark.sql(f"INSERT INTO {TABLE} SELECT 1 AS k, DATE'{day}' AS RecDate")
    finally:
        spark.conf.unset(key)


def test_the_newest_commit_of_this_table_s_run_is_named(spark, chosen):
    spark.sql("CREATE DATABASE IF NOT EXISTS formats")
    spark.sql(f"DROP TABLE IF EXISTS {TABLE}")
    spark.sql(f"CREATE TABLE {TABLE} (k INT, RecDate DATE) USING {chosen}")
    key = render("_commit_metadata_key", chosen)
    commit(spark, key, run_metadata(TABLE, "2025-01-05"), "2025-01-05")
    commit(spark, key, run_metadata(TABLE, "2025-01-06"), "2025-01-06")  # the newest of this table's runs
    commit(spark, key, run_metadata("formats.another", "2025-01-07"), "2025-01-07")  # another model's, same session
    commit(spark, key, None, "2025-01-08")  # a commit of no run
    state = {"last_commit_query": render("_last_commit_sql", TABLE, chosen), "file_format": chosen, "relation": TABLE}
    found = _last_commit(spark, state)
    assert found is not None
    assert found["run"] == json.loads(run_metadata(TABLE, "2025-01-06"))
    assert found["version"].startswith("Delta version " if chosen == "delta" else "Iceberg snapshot ")
    assert found["operation"] in ("WRITE", "append")
    # a state without a log to read (parquet) reads nothing
    assert _last_commit(spark, {**state, "last_commit_query": render("_last_commit_sql", TABLE, "parquet")}) is None
