"""spec §17 on Delta: the log check names the files a commit removed since the recorded version, and before it reads
that version (time travel) counts which are still there: after VACUUM it says they are gone instead of failing on
them. The macros _log_changes and _delta_files_gone, run on Spark through the port, over a real Delta table. The
same path through dbt, with the run's one line and the redo: test_format_restated.py (`make test-matrix` on Delta)."""

from __future__ import annotations

import pytest

from dbt_inc_join.sql_text.macros import port, query_runner

from ..conftest import vacuum_every_old_file

pytestmark = pytest.mark.one_format("delta")

TABLE = "formats.files_gone"


def test_the_files_removed_since_the_recorded_version_are_named_and_counted_before_and_after_vacuum(spark, chosen):
    spark.sql("CREATE DATABASE IF NOT EXISTS formats")
    spark.sql(f"DROP TABLE IF EXISTS {TABLE}")
    # not partitioned, no deletion vectors: a DELETE rewrites the file, its remove action has no arrival range
    spark.sql(
        f"CREATE TABLE {TABLE} (k INT, RecDate DATE) USING delta TBLPROPERTIES ('delta.enableDeletionVectors' = false)"
    )
    # version 1: one file of days 1-2
    spark.sql(
        f"INSERT INTO {TABLE} SELECT /*+ COALESCE(1) */ * FROM VALUES (1, DATE'2025-01-01'), (2, DATE'2025-01-02')"
    )
    spark.sql(f"INSERT INTO {TABLE} VALUES (3, DATE'2025-01-05')")  # version 2: what the last run read
    spark.sql(f"DELETE FROM {TABLE} WHERE k = 1")  # version 3: version 1's file removed, k = 2 written again
    location = spark.sql(f"DESCRIBE DETAIL {TABLE}").first().location
    run, call = query_runner(spark.sql), port(spark.sql)
    side = {"name": "b", "arrival": "RecDate"}
    now = {"relation": TABLE, "format": "delta", "version": "3", "location": location}

    changes = call("_log_changes", run, side, {"version": "2"}, now, "day")
    assert changes["gone"] is None
    assert [c["operation"] for c in changes["commits"].values()] == ["DELETE"]
    # the removed file's range, from the add action that wrote it (version 1), and the file written again
    assert sorted((r["lower"][:10], r["upper"][:10], r["version"]) for r in changes["ranges"]) == [
        ("2025-01-01", "2025-01-02", 3),
        ("2025-01-02", "2025-01-02", 3),
    ]
    assert len(changes["removed"]) == 1  # version 1's file
    assert call("_delta_files_gone", run, location, changes["removed"], "3") is None

    vacuum_every_old_file(spark, TABLE)
    assert call("_delta_files_gone", run, location, changes["removed"], "3") == (
        "is kept, but not every file of that version (of the 1 files removed since, 1 are deleted: VACUUM)"
    )
    # the version the last run read is unreadable now, which is why the check must not time-travel to it
    with pytest.raises(Exception, match=r"(?i)FileNotFound|does not exist|DELTA_"):
        spark.sql(f"SELECT * FROM {TABLE} VERSION AS OF 2").collect()
    assert sorted(r.k for r in spark.table(TABLE).collect()) == [2, 3]
