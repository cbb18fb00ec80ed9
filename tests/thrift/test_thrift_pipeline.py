"""The dbt package on a Spark Thrift Server: seeds, SQL models (left, inner, full, append, microbatch) and a
Python model through Spark Connect, run over a few simulated days, then compared row for row with the PySpark
core on the pytest process's local Spark (the session suite's reference, tests/integration) over the same
inputs.

The simulated days are fewer and further apart than the session suite's daily pipeline: every run after the
first covers two days of new loads at once, so the thrift tables are also the answer to "runs whose windows
tile the period give the one-run answer".
"""

from __future__ import annotations

from datetime import date

import pytest

from dbt_inc_join import inc_join
from harness.table_formats import table_format

from ..integration.pipeline import FIRST_DAY, HOW_OPTIONS, LAST_DAY, SETTINGS
from .conftest import MICROBATCH_DAYS, MODELS, PYTHON_MODEL, SCHEMA, SEEDS, SQL_MODELS, as_text, text_rows
from .server import listening_addresses

pytestmark = pytest.mark.thrift


@pytest.fixture(scope="module")
def inputs(spark, thrift_sql, pipeline):
    """gen_a and gen_b as seeded on the server (dbt seed over thrift), as local DataFrames of the same types."""
    frames = {}
    for name in ("gen_a", "gen_b"):
        columns = thrift_sql.columns(name)
        text = thrift_sql.query(f"SELECT {as_text([c for c, _ in columns])} FROM {SCHEMA}.{name}")
        df = spark.createDataFrame(text, ", ".join(f"`{c}` string" for c, _ in columns))
        frames[name] = df.selectExpr(*[f"CAST(`{c}` AS {t}) AS `{c}`" for c, t in columns])
    return frames


def reference(inputs, how, first=FIRST_DAY, last=LAST_DAY, end=None):
    """The core over [first, end or the watermark], on the inputs as loaded up to ``last``."""
    loaded = f"RecDate <= DATE'{last}'"
    return inc_join(
        inputs["gen_a"].where(loaded),
        inputs["gen_b"].where(loaded),
        how=how,
        output_window_start=first,
        output_window_end=end,
        **SETTINGS,
        **HOW_OPTIONS.get(how, {}),
    )


def test_server_listens_on_loopback_only(thrift_server):
    for port in (thrift_server.thrift_port, thrift_server.connect_port):
        addresses = listening_addresses(port)
        if not addresses:
            pytest.skip("no /proc/net/tcp to read listening sockets from")
        assert set(addresses) == {"127.0.0.1"}, f"port {port} listens on {addresses}"


@pytest.mark.parametrize("table", ["gen_a", "gen_b", *MODELS])
def test_the_tables_are_in_the_runs_table_format(thrift_sql, pipeline, table):
    """In the Delta leg (make test-thrift-delta) every table on the server is a Delta table: the seeds under the
    input views, the SQL models', the Python model's written through Spark Connect. In the parquet leg they are
    parquet. So the Delta leg cannot pass on parquet tables."""
    assert thrift_sql.described(table)["Provider"].lower() == (table_format() or "parquet")


def test_seeds_arrive_complete(inputs):
    for name, df in inputs.items():
        lines = (SEEDS / f"{name}.csv").read_text().strip().splitlines()
        assert df.count() == len(lines) - 1 > 1000
        assert df.columns == lines[0].split(",")


@pytest.fixture(scope="module")
def expected(inputs):
    """The reference of each how over the whole period, as text rows in sorted column order (computed once)."""
    cache = {}

    def rows(how):
        if how not in cache:
            df = reference(inputs, how)
            columns = sorted(df.columns)
            cache[how] = (columns, text_rows(df, columns))
        return cache[how]

    return rows


@pytest.mark.parametrize("model, how", SQL_MODELS.items())
def test_sql_model_equals_the_core(expected, thrift_sql, model, how):
    columns, rows = expected(how)
    assert sorted(c for c, _ in thrift_sql.columns(model)) == columns
    assert thrift_sql.rows(model, columns) == rows
    assert len(rows) > 500


def test_append_model_equals_the_core(expected, thrift_sql):
    columns, rows = expected("left")
    assert thrift_sql.rows("gen_left_append", columns) == rows


def test_python_model_through_spark_connect_equals_the_core(expected, thrift_sql, thrift_server, pipeline):
    # the dbt process ran it through a Spark Connect session of this server, and has no local Spark of its own
    assert pipeline.last_answer["spark"] == {"classic": False, "connect_port": thrift_server.connect_port}
    columns, rows = expected("left")
    assert sorted(c for c, _ in thrift_sql.columns(PYTHON_MODEL)) == columns
    assert thrift_sql.rows(PYTHON_MODEL, columns) == rows


def test_microbatch_model_equals_the_core_over_its_batches(inputs, thrift_sql):
    expected = reference(inputs, "left", first=MICROBATCH_DAYS[0], end=MICROBATCH_DAYS[-1])
    columns = sorted(expected.columns)
    table = thrift_sql.rows("gen_left_microbatch", columns)
    assert table == text_rows(expected, columns)
    assert {r[columns.index("RecDate")] for r in table} == {str(d) for d in MICROBATCH_DAYS}


def test_full_join_table_equals_the_brute_force_oracle(thrift_sql, pipeline):
    """gen_full against tests/core/oracle.py, straight from the seed files: no Spark, no dbt, no inc_join."""
    import csv
    from collections import Counter
    from decimal import Decimal

    from ..core.oracle import expected_rows

    def day(text):
        return None if not text else (date.fromisoformat(text) - FIRST_DAY).days

    def number(text, kind=int):
        return None if text in (None, "") else kind(text)

    def a_id(trx_id, account, amount, arrival):  # an A row is known by all its values (gen_a has duplicates)
        return (number(trx_id), account or None, number(amount, Decimal), arrival)

    with open(SEEDS / "gen_a.csv") as f:
        a_rows = [
            dict(
                k=number(r["TrxId"]), t=day(r["RecDate"]), id=a_id(r["TrxId"], r["Account"], r["Amount"], r["RecDate"])
            )
            for r in csv.DictReader(f)
            if r["RecDate"] <= str(LAST_DAY)
        ]
    with open(SEEDS / "gen_b.csv") as f:
        b_rows = [
            dict(k=number(r["TrxId"]), t=day(r["RecDate"]), id=number(r["PaymentId"]))
            for r in csv.DictReader(f)
            if r["RecDate"] <= str(LAST_DAY)
        ]
    watermark = min(max(r["t"] for r in rows if r["t"] is not None) for rows in (a_rows, b_rows))
    expected = expected_rows(
        a_rows,
        b_rows,
        how="full",
        lb=SETTINGS["look_back_time"],
        mw=SETTINGS["max_waiting_time"],
        start=0,
        end=watermark,
    )

    columns = [
        "TrxId",
        "RecDate",
        "Account",
        "Amount",
        "RecDate_A",
        "PaymentId",
        "JoinType",
        "DiffArrivalTime",
        "WaitingTime",
    ]
    table = [
        (
            number(key),
            day(out),
            None if arrival_a is None else a_id(key, account, amount, arrival_a),
            number(payment),
            int(code),
            number(diff),
            number(waiting),
        )
        for key, out, account, amount, arrival_a, payment, code, diff, waiting in thrift_sql.rows("gen_full", columns)
    ]
    assert Counter(table) == Counter(expected)
    assert {r[4] for r in table} == {1, 2, 3, 4, 6}


def test_each_python_model_run_sees_the_rows_loaded_before_it(thrift_sql, thrift_dbt, thrift_server, pipeline):
    """A Python model's run in a long-lived dbt process (the worker, as dbtRunner in a scheduler) reads its inputs
    as they are now: rows another session loaded after the model's last run are read by the next one. A Connect
    session kept across runs kept the file listing of its first read of a plain parquet table, and the next run
    stopped at the old watermark as if nothing had arrived."""
    for side in ("a", "b"):
        thrift_sql.query(f"DROP TABLE IF EXISTS {SCHEMA}.connect_fresh_{side}")
        thrift_sql.query(f"CREATE TABLE {SCHEMA}.connect_fresh_{side} (TrxId INT, RecDate DATE) USING parquet")
    enabled = {"inc_join_connect_fresh": True}
    # day 1: A rows 1 and 2, B row 1 (A row 2 waits for its partner)
    thrift_sql.query(f"INSERT INTO {SCHEMA}.connect_fresh_a VALUES (1, DATE'2025-02-01'), (2, DATE'2025-02-01')")
    thrift_sql.query(f"INSERT INTO {SCHEMA}.connect_fresh_b VALUES (1, DATE'2025-02-01')")
    thrift_dbt.invoke("run", "--select", "connect_fresh_py", vars=enabled)
    # day 2, loaded through this test's own thrift session: A row 3, B rows for A rows 2 and 3
    thrift_sql.query(f"INSERT INTO {SCHEMA}.connect_fresh_a VALUES (3, DATE'2025-02-02')")
    thrift_sql.query(f"INSERT INTO {SCHEMA}.connect_fresh_b VALUES (2, DATE'2025-02-02'), (3, DATE'2025-02-02')")
    answer = thrift_dbt.invoke("run", "--select", "connect_fresh_py", vars=enabled)
    assert answer["spark"] == {"classic": False, "connect_port": thrift_server.connect_port}
    placed = thrift_sql.query(f"SELECT TrxId, CAST(RecDate AS STRING) FROM {SCHEMA}.connect_fresh_py")
    assert sorted(placed) == [(1, "2025-02-01"), (2, "2025-02-02"), (3, "2025-02-02")]
