"""The thrift leg on Delta Lake (make test-thrift-delta; collected only with INC_JOIN_TABLE_FORMAT=delta): what the
daily runs of the session's pipeline (conftest.py) left in each table's Delta log on the server. The rows
themselves are compared with the core in test_thrift_pipeline.py, and every table is checked to be Delta there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import MICROBATCH_DAYS, RUN_DAYS, SCHEMA

pytestmark = pytest.mark.thrift

# dbt-spark's first run of a SQL model and inc_join's writer for a Python model (through Spark Connect) both create
# the table with CREATE OR REPLACE TABLE AS SELECT; an incremental run is one more commit.
OVERWRITE_MODELS = ["gen_left", "gen_inner", "gen_full", "gen_left_py"]


def history(thrift_sql, table):
    """The commitInfo of each commit in the table's Delta log (_delta_log/<version>.json under the location the
    server reports), oldest first. The log's own JSON: DESCRIBE HISTORY's maps come over thrift as text that is
    not JSON."""
    location = Path(thrift_sql.described(table)["Location"].removeprefix("file:"))
    commits = []
    for version, entry in enumerate(sorted((location / "_delta_log").glob("*.json"))):
        assert int(entry.stem) == version
        actions = [json.loads(line) for line in entry.read_text().splitlines() if line.strip()]
        (info,) = [action["commitInfo"] for action in actions if "commitInfo" in action]
        commits.append(info)
    assert len(commits) == len(thrift_sql.query(f"DESCRIBE HISTORY {SCHEMA}.{table}"))
    return commits


def row_count(thrift_sql, table) -> int:
    return int(thrift_sql.query(f"SELECT count(*) FROM {SCHEMA}.{table}")[0][0])


@pytest.mark.parametrize("model", OVERWRITE_MODELS)
def test_each_run_of_an_insert_overwrite_model_is_one_delta_commit(thrift_sql, pipeline, model):
    """One commit per daily run: the first creates the partitioned table, each later one is Delta's dynamic partition
    overwrite of the run's window. The windows tile the period, so the rows the commits wrote add up to the table."""
    commits = history(thrift_sql, model)
    assert len(commits) == len(RUN_DAYS)
    first, *later = commits
    assert first["operation"] == "CREATE OR REPLACE TABLE AS SELECT"
    assert json.loads(first["operationParameters"]["partitionBy"]) == ["RecDate"]
    for commit in later:
        assert commit["operation"] == "WRITE"
        assert commit["operationParameters"]["mode"] == "Overwrite"
        assert commit["operationParameters"]["isDynamicPartitionOverwrite"] is True
    written = sum(int(c["operationMetrics"]["numOutputRows"]) for c in commits)
    assert written == row_count(thrift_sql, model) > 500


def test_each_run_of_the_append_model_is_one_delta_append(thrift_sql, pipeline):
    commits = history(thrift_sql, "gen_left_append")
    assert [c["operation"] for c in commits] == ["CREATE OR REPLACE TABLE AS SELECT"] + ["WRITE"] * (len(RUN_DAYS) - 1)
    assert all(c["operationParameters"]["mode"] == "Append" for c in commits[1:])
    assert sum(int(c["operationMetrics"]["numOutputRows"]) for c in commits) == row_count(thrift_sql, "gen_left_append")


def test_each_microbatch_is_one_delta_commit(thrift_sql, pipeline):
    commits = history(thrift_sql, "gen_left_microbatch")
    assert [c["operation"] for c in commits] == ["CREATE OR REPLACE TABLE AS SELECT"] + ["WRITE"] * (
        len(MICROBATCH_DAYS) - 1
    )
    assert sum(int(c["operationMetrics"]["numOutputRows"]) for c in commits) == row_count(
        thrift_sql, "gen_left_microbatch"
    )


@pytest.mark.parametrize("table, partitions", [("gen_left", ["RecDate"]), ("gen_left_py", ["RecDate"]), ("gen_a", [])])
def test_describe_detail_names_delta_and_the_partitions(thrift_sql, pipeline, table, partitions):
    (detail,) = thrift_sql.records(f"DESCRIBE DETAIL {SCHEMA}.{table}")
    assert detail["format"] == "delta"
    assert json.loads(detail["partitionColumns"]) == partitions
    assert int(detail["numFiles"]) > 0
