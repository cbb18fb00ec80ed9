"""The dbt package on the embedded Spark, driven in-process: daily loads simulated with the `today` var.

For how = left, inner and full: the table built day by day = the full-refresh table = the PySpark core over
the whole period; the Python model variant, the microbatch variant and the append variant give the same rows;
re-running a past day or the same day changes nothing."""

from __future__ import annotations

import pytest

from dbt_inc_join import inc_join, inc_join_many

from .pipeline import (
    CHAIN_SETTINGS,
    DAILY,
    DAYS,
    FIRST_DAY,
    HOUR_SETTINGS,
    HOW_OPTIONS,
    LAST_DAY,
    MICROBATCH_FROM,
    REPLACE,
    SETTINGS,
    ordered,
    rows,
)

pytestmark = pytest.mark.dbt

# how = inner builds only in the parquet legs (tests/integration/pipeline.py, PARQUET_ONLY)
HOWS = ["left", pytest.param("inner", marks=pytest.mark.parquet_only), "full"]


def core(spark, how, settings=SETTINGS, prefix="gen", **window):
    a = spark.table(f"inc_join_it.{prefix}_a")
    b = spark.table(f"inc_join_it.{prefix}_b").where(f"RecDate < date_add(DATE'{LAST_DAY}', 1)")
    options = HOW_OPTIONS.get(how, {}) if prefix == "gen" else {}
    return inc_join(a, b, how=how, **settings, **options, **window)


@pytest.mark.parametrize("how", HOWS)
def test_daily_table_equals_the_core_over_the_whole_period(spark, project, daily, how):
    expected = core(spark, how, output_window_start=FIRST_DAY)  # end: the watermark of the last day
    columns = ordered(expected.columns)
    assert daily[f"gen_{how}"] == rows(expected, columns)
    assert len(daily[f"gen_{how}"]) > 500
    if f"gen_{how}_py" in DAILY:
        assert daily[f"gen_{how}_py"] == daily[f"gen_{how}"], "the Python model differs from the SQL model"
    if "late_match_time" in HOW_OPTIONS.get(how, {}):
        assert 7 in {r[columns.index("JoinType")] for r in daily[f"gen_{how}"]}, "late matches (spec §10) occur"


def test_a_model_reads_an_inc_join_models_table_unchanged(spark, daily):
    """gen_chained reads gen_left's table as it is (spec §5): its daily table = the core's chain over the whole
    period, gen_left's columns under A's suffix beside the chain's own."""
    first = core(spark, "left", output_window_start=FIRST_DAY)
    b = spark.table("inc_join_it.gen_b").where(f"RecDate < date_add(DATE'{LAST_DAY}', 1)")
    expected = inc_join(first, b, **CHAIN_SETTINGS, output_window_start=FIRST_DAY)
    columns = ordered(expected.columns)
    assert {"RecDate_A", "RecDate_A_A", "RecDate_B_A", "PaymentId_A", "JoinType_A", "JoinType"} <= set(columns)
    assert daily["gen_chained"] == rows(expected, columns)
    assert {r[columns.index("JoinType")] for r in daily["gen_chained"]} == {1, 2, 3, 4, 6}


@pytest.mark.parametrize("name", ["gen_left", "gen_left_py", "gen_left_microbatch", "gen_many", "stg_gen_a"])
def test_the_tables_are_in_the_runs_table_format(spark, daily, name):
    """A format leg (make test-formats) writes every table, SQL and Python models' and the seeds' under the
    input views, in its format; without INC_JOIN_TABLE_FORMAT they are parquet. So a leg cannot pass on parquet."""
    from harness.table_formats import table_format

    relation = "inc_join_it.gen_a" if name == "stg_gen_a" else f"inc_join_it.{name}"
    described = {r.col_name: r.data_type for r in spark.sql(f"DESCRIBE TABLE EXTENDED {relation}").collect()}
    assert described["Provider"].lower() == (table_format() or "parquet")


def test_the_last_daily_run_read_the_open_state(daily_pipeline):
    """spec §18 in the leg's format: the daily run after the first reads the state the run before it wrote, for SQL
    and Python models written by insert_overwrite (and by merge in the format legs), of inc_join and
    inc_join_many, and for a SQL model's microbatch run of one new batch."""
    from .pipeline import REPLACE

    _, lines = daily_pipeline
    for name in ("gen_left", "gen_left_py", "gen_many_first", "gen_left_microbatch", *REPLACE):
        assert lines[name].startswith("read "), (name, lines[name])


def test_daily_many_with_the_open_state_equals_the_core(spark, daily):
    """spec §18 in dbt, in the leg's format: the daily runs of gen_many_first, each reading the state the run before
    left (above), equal one core run over the period."""
    a = spark.table("inc_join_it.gen_a").where(f"RecDate <= DATE'{LAST_DAY}'")
    b = spark.table("inc_join_it.gen_b").where(f"RecDate <= DATE'{LAST_DAY}'")
    renamed = b.selectExpr("PaymentId", "TrxId AS PayTrx", "Country", "Status", "RecDate AS PaidOn")
    inputs = [
        dict(df=b, name="pay", join_cols="TrxId", look_back_time=2, max_waiting_time=4),
        dict(df=renamed, name="paid", join_cols={"TrxId": "PayTrx"}, inc_col=("RecDate", "PaidOn"), look_back_time=0,
             max_waiting_time=3, partner_order_by="Status"),
    ]  # fmt: skip
    expected = inc_join_many(a, inputs, output_window_start=FIRST_DAY)
    columns = ordered(expected.columns)
    assert daily["gen_many_first"] == rows(expected, columns)
    codes = {r[columns.index("JoinType_paid")] for r in daily["gen_many_first"]}
    assert codes >= {1, 3, 4}, codes


def test_python_models_leave_no_temporary_table(spark, project, daily):
    """An incremental run of a Python model writes its rows into <model>__dbt_tmp, which dbt-spark inserts from and
    then drops: after the daily runs the catalog holds none. On parquet and Delta (where the package's writer makes
    it a parquet table: macros/io/_py_writer.sql) the warehouse holds nothing of it either; an Iceberg table dropped
    without PURGE keeps its files (docs/table-formats.md, Known limits)."""
    from harness.table_formats import table_format

    from .pipeline import RUN_DAYS

    assert len(RUN_DAYS) > 1 and {"gen_left_py", "gen_full_microbatch_py"} <= set(daily)
    # (a SQL model's is a temporary view of the session, which SHOW TABLES lists too)
    listed = spark.sql("SHOW TABLES IN inc_join_it LIKE '*__dbt_tmp'").collect()
    assert {r.tableName for r in listed if r.isTemporary} >= {"gen_left__dbt_tmp"}
    assert [r.tableName for r in listed if not r.isTemporary] == []
    warehouse = project.state_dir / "warehouse" / "inc_join_it.db"
    assert warehouse.is_dir() and (warehouse / "gen_left_py").is_dir()
    if table_format() != "iceberg":
        assert sorted(path.name for path in warehouse.glob("*__dbt_tmp*")) == []


def test_the_daily_runs_log_no_existing_session_warning(project, daily):
    """dbt-spark hands the profile's server_side_parameters to the session before every statement (SQL, and the
    Python models through the package's session helper); with every value as the session has it (the warehouse
    as a `file:` URI) Spark has nothing to warn about (issue 28: 66 such warnings per daily run before). Spark's
    warnings of this session go to spark.log (harness/log4j2.properties), so the daily runs' are all there."""
    log = project.state_dir / "spark.log"
    assert log.exists()
    warned = [line for line in log.read_text().splitlines() if "Using an existing Spark session" in line]
    assert warned == [], f"{len(warned)} warnings, the first: {warned[:1]}"


HOT_AGGREGATE = {
    "n_payments": "count(*)",
    "countries": "count(distinct Country)",
    "last_status": "max_by(Status, PaymentId)",
}


def hot_inputs(spark):
    """stg_hot_a / stg_hot_b over the whole period: gen folded onto 7 keys, every third payment twice."""
    a = spark.table("inc_join_it.gen_a").selectExpr(
        "CAST(TrxId % 7 AS INT) AS TrxId", "Account", "Amount", "RecDate", "TrxId AS Seq"
    )
    b = (
        spark.table("inc_join_it.gen_b")
        .where(f"RecDate < date_add(DATE'{LAST_DAY}', 1)")
        .selectExpr("PaymentId", "CAST(TrxId % 7 AS INT) AS TrxId", "Country", "Status", "RecDate")
    )
    return a, b.unionByName(b.where("PaymentId % 3 = 0"))


@pytest.mark.parametrize(
    "model, options",
    [
        ("hot_first", dict(partner="first", partner_order_by="PaymentId")),
        ("hot_aggregate", dict(aggregate=HOT_AGGREGATE, null_fill={"last_status": "none"})),
    ],
)
@pytest.mark.parquet_only
def test_one_row_per_a_daily_equals_the_core(spark, daily, model, options):
    """spec §11 on keys with many rows a day: the daily tables = one core run; the Python model = the SQL one."""
    expected = inc_join(*hot_inputs(spark), output_window_start=FIRST_DAY, **SETTINGS, **options)
    columns = ordered(expected.columns)
    assert daily[model] == rows(expected, columns)
    assert len(daily[model]) > 300
    if model == "hot_aggregate":
        assert daily["hot_aggregate_py"] == daily[model], "the Python model differs from the SQL model"
        assert {r[columns.index("JoinType")] for r in daily[model]} == {4, 8}


@pytest.mark.parquet_only
def test_one_row_per_a_data_tests(project, daily):
    """a_rows_once with one_row_per_a passes on the one-row tables, and fails (as declared) without the A id."""
    result = project.invoke("test", "--select", "one_row_per_a", today=LAST_DAY)
    statuses = {r.node.name: str(r.status) for r in result.result.results}
    assert statuses and all(status == "pass" for status in statuses.values()), statuses


@pytest.mark.one_format("iceberg")
def test_the_generic_tests_hold_on_the_daily_tables(project, daily):
    """The package's generic tests (per input of inc_join_many) over the tables the daily runs left, in the leg's
    table format: the statuses test_many expects."""
    from .test_many import assert_generic_tests

    assert_generic_tests(project)


def test_join_types_all_occur(daily, project):
    codes = {r.JoinType for r in project.table("gen_full").select("JoinType").distinct().collect()}
    assert codes == {1, 2, 3, 4, 6}


@pytest.fixture(scope="module")
def refreshed(project, daily):
    """The SQL and Python models of every how rebuilt with --full-refresh on the last day, in one dbt run (each
    invocation costs its own start, parse check and relation cache): each table's rows after it."""
    names = [name for how in ("left", "inner", "full") for name in (f"gen_{how}", f"gen_{how}_py") if name in DAILY]
    project.invoke("run", "--full-refresh", "--select", *names, today=LAST_DAY)
    tables = {}
    for name in names:
        table = project.table(name)
        tables[name] = rows(table, ordered(table.columns))
    return tables


@pytest.mark.parametrize("how", HOWS)
def test_full_refresh_gives_the_daily_table(refreshed, daily, how):
    names = [name for name in (f"gen_{how}", f"gen_{how}_py") if name in DAILY]
    assert names
    for name in names:
        assert refreshed[name] == daily[name]


def test_append_microbatch_and_merge_variants_give_the_same_rows(spark, daily):
    assert daily["gen_left_append"] == daily["gen_left"]
    for name in REPLACE:  # the format legs: merge, on a table not partitioned
        assert daily[name] == daily["gen_left"], name

    def since(name):
        """The model's rows that arrive on or after the microbatch models' first batch (every row: test-matrix)."""
        at = [c.lower() for c in ordered(spark.table(f"inc_join_it.{name}").columns)].index("recdate")
        found = [r for r in daily[name] if r[at] >= MICROBATCH_FROM]
        assert found and (len(found) < len(daily[name]) if MICROBATCH_FROM > FIRST_DAY else found == daily[name])
        return found

    assert daily["gen_left_microbatch"] == since("gen_left")
    assert daily["gen_full_microbatch_py"] == since("gen_full")


@pytest.mark.parquet_only
def test_a_python_microbatch_model_keeps_the_open_state_batch_by_batch(daily, daily_pipeline):
    """spec §18: a Python model's microbatch run keeps the state batch by batch (the writer's post-hook tags each
    batch's), so the last day's batch read the one its previous batch left; its rows are the SQL model's."""
    _, lines = daily_pipeline
    assert lines["gen_left_microbatch_py"].startswith("read "), lines["gen_left_microbatch_py"]
    assert daily["gen_left_microbatch_py"] == daily["gen_left_microbatch"]


@pytest.mark.one_engine
def test_the_python_model_of_several_inputs_gives_the_sql_models_rows(daily):
    """gen_many_py = gen_many (inc_join_many, spec §12), in every leg; the parquet legs also compare both with the
    core (test_many.py), which a format leg does not run."""
    assert daily["gen_many"] and daily["gen_many_py"] == daily["gen_many"]


@pytest.mark.one_engine
def test_hourly_pipeline_equals_the_core(spark, daily):
    expected = core(spark, "left", HOUR_SETTINGS, prefix="gen_hour", output_window_start=f"{FIRST_DAY} 00:00")
    assert daily["gen_hour_left"] == rows(expected, ordered(expected.columns))


@pytest.fixture(scope="module")
def reruns(spark, project, daily):
    """gen_left and gen_left_py run again after the daily pipeline: a past day (the output window vars), then the
    last day once more (caught up: an empty window). Each run's inc_join log line per model, the tables after
    both runs, and the statements the Python models' code sent in the first (spark.sql, recorded on its way).
    Two dbt invocations, shared by the test of the tables, the test of the log lines and the test of the
    temporary table."""

    def logged_lines(**invoke):
        lines = {}

        def collect(event):
            if event.info.name == "JinjaLogInfo" and event.info.msg.startswith("inc_join "):
                target, _, rest = event.info.msg[len("inc_join ") :].partition(": ")
                lines[target.split(".")[-1]] = rest.replace(target, "<this>")

        project.invoke("run", "--select", "gen_left", "gen_left_py", callbacks=[collect], **invoke)
        return lines

    past = DAYS[4]
    sent: list[str] = []
    session = type(spark)  # the session dbt's session connection and the Python models' code use
    original = session.sql

    def recorded(self, text, *args, **kwargs):
        sent.append(text)
        return original(self, text, *args, **kwargs)

    session.sql = recorded
    try:
        rerun = logged_lines(
            today=LAST_DAY, vars={"inc_join_output_window_start": past, "inc_join_output_window_end": past}
        )
    finally:
        session.sql = original
    caught_up = logged_lines(today=LAST_DAY)
    tables = {}
    for name in ("gen_left", "gen_left_py"):
        table = project.table(name)
        tables[name] = rows(table, ordered(table.columns))
    return {"past": past, "rerun": rerun, "caught_up": caught_up, "tables": tables, "sent": sent}


def test_rerunning_a_past_day_or_the_same_day_changes_nothing(reruns, daily):
    for name in ("gen_left", "gen_left_py"):
        assert reruns["tables"][name] == daily[name]
    assert set(reruns["rerun"]) == set(reruns["caught_up"]) == {"gen_left", "gen_left_py"}  # both models ran twice


def test_a_python_models_temporary_table_is_parquet_on_delta(reruns):
    """The rerun of a past day writes gen_left_py's rows into gen_left_py__dbt_tmp before dbt-spark inserts them:
    on Delta the writer makes it a parquet table (macros/io/_py_writer.sql: no Delta table to create, read back and
    drop), on Iceberg an Iceberg table; on parquet it is written by a DataFrame writer, with no statement."""
    from harness.table_formats import table_format

    # dbt-spark's insert from it went through the same session (so the recording saw the run's statements)
    inserts = [t for t in reruns["sent"] if "insert" in t.lower() and "gen_left_py__dbt_tmp" in t.replace("`", "")]
    assert len(inserts) == 1, reruns["sent"]
    created = [
        " ".join(text.replace("`", "").split())
        for text in reruns["sent"]
        if "gen_left_py__dbt_tmp" in text.replace("`", "") and text.lstrip().upper().startswith("CREATE")
    ]
    expected = {
        "delta": "CREATE TABLE inc_join_it.gen_left_py__dbt_tmp USING parquet AS SELECT * FROM _inc_join_rows_",
        "iceberg": "CREATE OR REPLACE TABLE inc_join_it.gen_left_py__dbt_tmp USING iceberg AS SELECT * FROM ",
    }.get(table_format() or "parquet")
    assert [text.startswith(expected) for text in created] == ([True] if expected else []), created


@pytest.mark.parquet_only
def test_hourly_microbatch_equals_the_core(spark, project):
    start, end = "2025-01-02T22:00:00", "2025-01-03T02:00:00"  # four hourly batches across midnight
    project.invoke(
        "run", "--select", "+tag:microbatch_hour", "--event-time-start", start, "--event-time-end", end, today=LAST_DAY
    )
    table = project.table("gen_hour_full_microbatch")
    expected = core(
        spark,
        "full",
        HOUR_SETTINGS,
        prefix="gen_hour",
        output_window_start="2025-01-02 22:00",
        output_window_end="2025-01-03 01:00",
    )
    found = rows(table, ordered(table.columns))
    assert found == rows(expected, ordered(table.columns))
    assert len(found) > 0


@pytest.mark.parquet_only
def test_currently_waiting_view_shows_only_provisional_rows(spark, project):
    project.invoke("run", "--select", "+currently_waiting", today=DAYS[5])
    # named as here whatever the view's columns read back as (lower case in Iceberg's session catalog)
    waiting = project.table("currently_waiting").selectExpr("JoinType AS JoinType", "RecDate AS RecDate").collect()
    project.invoke("run", "--select", "stg_gen_a", "stg_gen_b", today=LAST_DAY)  # the views as the others expect
    a = spark.table("inc_join_it.gen_a").where(f"RecDate <= DATE'{DAYS[5]}'")
    b = spark.table("inc_join_it.gen_b").where(f"RecDate <= DATE'{DAYS[5]}'")
    expected = inc_join(a, b, include_waiting=True, output_window_start=DAYS[5], **SETTINGS).where("JoinType = 5")
    assert len(waiting) == expected.count() > 0
    assert {r.JoinType for r in waiting} == {5} and {r.RecDate for r in waiting} == {DAYS[5]}


@pytest.mark.parquet_only
def test_empty_flag_builds_the_model_without_rows(project, daily):
    """dbt run --empty limits every ref to no rows: the model still compiles, describes its inputs and runs."""
    project.invoke("run", "--select", "gen_inner", "--empty", "--full-refresh", today=LAST_DAY)
    assert project.table("gen_inner").count() == 0
    project.invoke("run", "--select", "+gen_inner", "--full-refresh", today=LAST_DAY)  # restore for other tests
    assert rows(project.table("gen_inner"), ordered(project.table("gen_inner").columns)) == daily["gen_inner"]


def test_sql_and_python_models_log_the_same_line(reruns):
    """One log-line format: a SQL model and its Python twin say the same about the same run, for a window with
    work and for an empty one (the pipeline has caught up)."""
    past, rerun, caught_up = reruns["past"], reruns["rerun"], reruns["caught_up"]
    assert rerun["gen_left"] == rerun["gen_left_py"]
    assert rerun["gen_left"].startswith(
        f"window {past}..{past}; start: var inc_join_output_window_start; end: var inc_join_output_window_end; reads a "
    )
    # spec §15: the line ends with the plan and why; one day's run reads one join window of B: the plain join
    assert rerun["gen_left"].endswith(
        "; plan: plain (auto: B's read range of 7 days is at most 2 join windows of 7 days)"
    )
    assert caught_up["gen_left"] == caught_up["gen_left_py"]
    assert caught_up["gen_left"].endswith("; reads nothing; plan: plain (the run reads nothing)")
    assert (
        caught_up["gen_left"].startswith("window empty (")
        and "; start: max(RecDate) in <this> + 1 day; end: " in caught_up["gen_left"]
    )
