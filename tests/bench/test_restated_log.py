"""The restated-log suite's pure parts without Spark (bench/restated_log.py): which of a run's statements are the log
check's (spec §17), which the fingerprint check's (spec §14), the share of a run, one day's load."""

from __future__ import annotations

from datetime import date

import pytest

from bench.restated_log import (
    AS_OF,
    FINGERPRINT,
    LOG,
    MODEL,
    VERSION,
    LogRun,
    insert_sql,
    share,
    slow,
    split,
    statement_kind,
    statement_label,
    statement_parts,
)
from dbt_inc_join.sql_text import render

INPUTS = ("inc_join_bench_restated_log.a_30d", "inc_join_bench_restated_log.b_30d")
COMMENT = '/* {"app": "dbt", "dbt_version": "1.12.0", "node_id": "model.p.log_30d"} */\n'
DELTA_LOG = (
    "SELECT CAST(substr(file_name, 1, 20) AS BIGINT) AS version FROM (SELECT value, _metadata.file_name "
    "AS file_name FROM text.`file:/warehouse/inc_join_bench_restated_log.db/a_30d/"
    "{_delta_log/00000000000000000029.json,_delta_log/_last_checkpoint}`)"
)
FINGERPRINTS = (
    "SELECT '{}' AS input, unit_start AS unit FROM (SELECT unit_start FROM {} WHERE RecDate >= DATE'2025-12-29')"
)
# a statement of parts as macros/io/_one_statement.sql sends it: the read ranges' fingerprints with the logs riding
JSON = "to_json(struct(*), map('ignoreNullFields', 'false')) AS row"
UNITS = f"SELECT 'units' AS part, {JSON} FROM ({FINGERPRINTS.format('a', INPUTS[0])}\nUNION ALL\n" + (
    f"{FINGERPRINTS.format('b', INPUTS[1])})"
)
RIDING = f"{UNITS}\nUNION ALL\nSELECT 'delta' AS part, {JSON} FROM ({DELTA_LOG})"


@pytest.mark.parametrize(
    ("sql", "kind", "label"),
    [
        ("DESCRIBE HISTORY inc_join_bench_restated_log.a_30d LIMIT 1", VERSION, "DESCRIBE HISTORY"),
        ("describe history `inc_join_bench_restated_log`.`b_30d` limit 1", VERSION, "DESCRIBE HISTORY"),
        (
            "SELECT snapshot_id AS version FROM inc_join_bench_restated_log.a_30d.refs WHERE name = 'main'",
            VERSION,
            "refs",
        ),
        ("DESCRIBE DETAIL inc_join_bench_restated_log.a_30d", LOG, "DESCRIBE DETAIL"),
        (DELTA_LOG, LOG, "_delta_log commits"),
        (
            "SELECT CAST(snapshot_id AS STRING) AS id, CAST(parent_id AS STRING) AS parent, operation "
            "FROM inc_join_bench_restated_log.b_30d.snapshots",
            LOG,
            "snapshots",
        ),
        (
            "SELECT CAST(snapshot_id AS STRING) AS version FROM inc_join_bench_restated_log.a_30d.all_entries "
            "WHERE status IN (1, 2) AND snapshot_id IN (123, 456)",
            LOG,
            "all_entries",
        ),
        (  # the macros' text since 2026-11-29 (macros/io/_iceberg_log.sql: _iceberg_entries_sql), rendered
            render("_iceberg_entries_sql", INPUTS[0], ["123"], "RecDate", "day"),
            LOG,
            "entries per snapshot",
        ),
        (FINGERPRINTS.format("then", f"{INPUTS[0]} VERSION AS OF 28"), AS_OF, "fingerprints as of"),
        (FINGERPRINTS.format("a", INPUTS[0]), FINGERPRINT, None),
        (RIDING, FINGERPRINT, None),  # its logs' share: riding_cost
        # the model's own table (in the format too): its history read by the post-hook, not the log check's
        ("DESCRIBE HISTORY inc_join_bench_restated_log.log_30d LIMIT 20", MODEL, None),
        ("DESCRIBE HISTORY inc_join_bench_restated_log.log_30d LIMIT 1", MODEL, None),
        ("DESCRIBE DETAIL inc_join_bench_restated_log.a_300d", MODEL, None),  # another table, not a prefix match
        (
            "SELECT snapshot_id, committed_at FROM inc_join_bench_restated_log.log_30d.snapshots "
            "ORDER BY committed_at DESC LIMIT 20",
            MODEL,
            None,
        ),
        ("insert overwrite table inc_join_bench_restated_log.log_30d partition (RecDate) select 1", MODEL, None),
    ],
)
def test_each_statement_is_classified_by_its_text(sql, kind, label):
    assert statement_kind(COMMENT + sql, INPUTS) == kind
    if label is not None:
        assert statement_label(COMMENT + sql) == label


def test_a_run_s_statements_are_summed_per_kind_and_the_log_check_s_per_label():
    statements = [
        [f"DESCRIBE HISTORY {INPUTS[0]} LIMIT 1", 0.25],
        [f"DESCRIBE HISTORY {INPUTS[1]} LIMIT 1", 0.25],
        [f"DESCRIBE DETAIL {INPUTS[0]}", 0.5],
        [DELTA_LOG, 1.0],
        [FINGERPRINTS.format("a", INPUTS[0]), 2.0],
        ["insert overwrite table x select 1", 4.0],
    ]
    kinds, parts = split(statements, INPUTS)
    assert kinds == {VERSION: 0.5, LOG: 1.5, FINGERPRINT: 2.0, MODEL: 4.0}
    assert parts == {"DESCRIBE HISTORY": 0.5, "DESCRIBE DETAIL": 0.5, "_delta_log commits": 1.0}
    run = LogRun(seconds=50.0, invocation=60.0, rows=10, kinds=kinds, parts=parts)
    assert run.log_check == 2.0
    assert run.fingerprint == 2.0
    assert run.share == pytest.approx(0.04)


def test_a_statement_of_parts_splits_into_its_parts_and_the_units_part_keeps_its_own_union():
    assert statement_parts(RIDING) == {"units": UNITS, "delta": f"SELECT 'delta' AS part, {JSON} FROM ({DELTA_LOG})"}
    assert statement_parts(COMMENT + RIDING).keys() == {"units", "delta"}
    assert statement_parts(FINGERPRINTS.format("a", INPUTS[0]) + "\nUNION ALL\n" + DELTA_LOG) == {}
    assert statement_parts(UNITS) == {}  # one part alone is no statement of parts


def test_the_logs_riding_on_the_fingerprint_check_count_as_the_log_check_and_not_as_the_fingerprints():
    kinds = {FINGERPRINT: 2.0, MODEL: 4.0}
    run = LogRun(seconds=50.0, invocation=60.0, rows=10, kinds=kinds, parts={}, riding=0.5, rode=True)
    assert run.log_check == 0.5
    assert run.fingerprint == 1.5
    assert run.share == pytest.approx(0.01)


def test_share_of_a_run_of_no_time_is_zero():
    assert share(1.0, 0.0) == 0.0
    assert share(0.3, 10.0) == pytest.approx(0.03)


def test_a_day_s_load_numbers_its_rows_from_the_day_so_every_history_has_the_same():
    day = date(2025, 12, 31)
    a, b = insert_sql("s.a_30d", "a", day, rows=10), insert_sql("s.b_365d", "b", day, rows=10)
    assert a.startswith("INSERT INTO s.a_30d SELECT id AS TrxId") and "DATE'2025-12-31' AS RecDate" in a
    assert "FROM range(94960, 94970)" in a  # day 9496 since 2000-01-01, 10 rows a day
    assert "IF(pmod(id, 4) = 0, id - 10, id) AS TrxId" in b and "FROM range(94960, 94970)" in b


def test_the_slowest_statements_first():
    statements = [("model", 0.5, "a"), ("log", 2.0, "b"), ("version", 1.0, "c")]
    assert slow(statements, 2) == [("log", 2.0, "b"), ("version", 1.0, "c")]
