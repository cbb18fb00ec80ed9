"""spec §16 on Delta Lake and Iceberg: a run's rows go in with one commit of the format, which carries the run's id
and window; a dbt process killed at any moment of a run leaves the table as it was before or after that commit,
and the next plain `dbt run` ends equal to one run over the inputs, with no window recorded twice.

ledger_replace (gen_left's join, not partitioned, incremental_strategy='merge': one MERGE replaces the window,
with the run-ledger post-hook) is run by processes of its own (ledger_driver.py) whose Spark halts at a chosen
moment (faults/HaltingFileSystem.java): while its data files are written, just before its commit, between its
commit and its ledger record, while it replaces its open state's rows (spec §18), and while a full refresh
writes (`make test` draws one of them: the `kill_points` fixture). Run by the format legs only
(INC_JOIN_TABLE_FORMAT = delta or iceberg)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dbt_inc_join import inc_join

from ..conftest import whole_matrix
from .ledger_driver import HALTED_MARKER
from .pipeline import DAYS, LAST_DAY, SETTINGS, rows
from .test_ledger import KillChain, assert_ledger_agrees, ledger_driver, ledger_rows

pytestmark = pytest.mark.dbt

MODEL = "ledger_replace"


def read_table(spark, chosen: str, directory: Path, name: str):
    """The table as its files say, read by the test's own Spark: a Delta table by its path; an Iceberg table
    registered under a name of its own from its newest metadata file."""
    if chosen == "delta":
        return spark.read.format("delta").load(str(directory))
    newest = max((directory / "metadata").glob("*.metadata.json"), key=lambda p: int(p.name.split("-")[0]))
    spark.sql("CREATE DATABASE IF NOT EXISTS format_kills")
    spark.sql(f"DROP TABLE IF EXISTS format_kills.{name}")  # a registration: drops nothing of the files' owner
    spark.sql(f"CALL spark_catalog.system.register_table('format_kills.{name}', '{newest}')")
    return spark.table(f"format_kills.{name}")


def commit_metadata(spark, chosen: str, directory: Path) -> list[dict]:
    """Every commit's run metadata (the table's history, oldest first), from the format's own log files."""
    found = []
    if chosen == "delta":
        for entry in sorted((directory / "_delta_log").glob("*.json"), key=lambda p: int(p.stem)):
            for line in entry.read_text().splitlines():
                info = json.loads(line).get("commitInfo")
                if info and info.get("userMetadata"):
                    found.append(json.loads(info["userMetadata"]))
        return found
    newest = max((directory / "metadata").glob("*.metadata.json"), key=lambda p: int(p.name.split("-")[0]))
    for snapshot in json.loads(newest.read_text()).get("snapshots", []):
        text = snapshot.get("summary", {}).get("inc_join.run")
        if text:
            found.append(json.loads(text))
    return found


def open_state_lines(state: Path) -> list[str]:
    """The open-state lines of the runs of the driver processes on ``state`` (spec §18), oldest first."""
    said = f"inc_join open state of inc_join_it.{MODEL}: "
    lines = (state / "dbt-logs" / "dbt.log").read_text().splitlines()
    return [line.split(said, 1)[1] for line in lines if said in line]


@pytest.mark.fault
def test_a_run_killed_at_any_moment_leaves_the_table_before_or_after_its_commit(
    spark, project, chosen, halting_file_system, tmp_path, kill_points
):
    a = spark.table("inc_join_it.gen_a")
    b = spark.table("inc_join_it.gen_b").where(f"RecDate <= DATE'{LAST_DAY}'")
    expected = inc_join(a, b, how="left", output_window_start=DAYS[0], **SETTINGS)
    columns = sorted(expected.columns)
    reference = rows(expected, columns)
    arrival = columns.index("RecDate")
    warehouse = tmp_path / "warehouse" / "inc_join_it.db"
    d = [str(day) for day in DAYS]
    reads = iter(range(100))

    def table_rows():
        return rows(read_table(spark, chosen, warehouse / MODEL, f"t{next(reads)}"), columns)

    def until(day):
        return [r for r in reference if r[arrival] <= day]

    def runs():
        return ledger_rows(spark.read.parquet(str(warehouse / "dbt_inc_join_runs")), f"inc_join_it.{MODEL}")

    # Delta's default log store for file: writes its commits through Hadoop's FileContext, which the fault
    # injector (a FileSystem) does not see; LocalLogStore writes the same commit file through the FileSystem
    conf = "--conf spark.delta.logStore.file.impl=io.delta.storage.LocalLogStore" if chosen == "delta" else ""
    chain = KillChain(
        lambda *steps: ledger_driver(halting_file_system, tmp_path, f"model:{MODEL}", *steps, conf=conf),
        kill_points(["data files", "commit", "record", "state", "full refresh"]),
    )

    def halted(result, step, moment):
        assert result.returncode == 137, result.stdout[-3000:] + result.stderr[-3000:]
        assert HALTED_MARKER + step in result.stdout and f"HaltingFileSystem: halt before {moment}" in result.stdout

    # 1. a first run over days 1-3 killed while it writes its data files: no table, no record
    if result := chain.kill("data files", f"halt:{MODEL}:data:0", f"run:{d[2]}"):
        halted(result, f"run:{d[2]}", "creating")
        runs_dir = warehouse / "dbt_inc_join_runs"
        assert not runs_dir.exists() or not any(runs_dir.glob("*/*"))

    # 2. the plain run does days 1-3 (over a killed run's files); day 4's run killed just before its commit, its
    # data files written: the table is as it was
    chain.plain(f"run:{d[2]}")
    if result := chain.kill("commit", f"halt:{MODEL}:commit:0", f"run:{d[3]}"):
        halted(result, f"run:{d[3]}", "")
        assert table_rows() == until(DAYS[2])
        assert [r.window_end.date() for r in runs()] == [DAYS[2]]

    # 3. day 4's run commits and is killed before its ledger record: the table has day 4, the ledger does not
    unrecorded = None
    if result := chain.kill("record", "halt:dbt_inc_join_runs:0", f"run:{d[3]}"):
        halted(result, f"run:{d[3]}", "moving")
        assert table_rows() == until(DAYS[3])
        assert [r.window_end.date() for r in runs()] == [DAYS[2]]
        unrecorded = commit_metadata(spark, chosen, warehouse / MODEL)[-1]
        assert (unrecorded["window_start"], unrecorded["window_end"]) == (f"{d[3]} 00:00:00", f"{d[3]} 00:00:00")

    # 4. the next plain run names that commit, does day 4 again and records it once; day 5's run, which reads the
    # open state (spec §18), commits and records, and is killed while it replaces the state's rows: the tag was
    # cleared before the run, so the next run (days 6-8) reads as without the state
    chain.plain(f"run:{d[3]}")
    state_lines = 0
    if result := chain.kill("state", f"halt:{MODEL}__inc_join_open:data:0", f"run:{d[4]}"):
        halted(result, f"run:{d[4]}", "creating")
        assert f"halt before creating file:{warehouse / MODEL}__inc_join_open/" in result.stdout, result.stdout[-3000:]
        assert table_rows() == until(DAYS[4])
        assert [r.window_end.date() for r in runs()][-1] == DAYS[4]
        assert open_state_lines(tmp_path)[-1].startswith("read "), open_state_lines(tmp_path)
        state_lines = len(open_state_lines(tmp_path))
    else:
        chain.plain(f"run:{d[4]}")
    # then days 6-8 in one run, and a full refresh killed while it writes
    chain.plain(f"run:{d[7]}")
    if result := chain.kill("full refresh", f"halt:{MODEL}:data:0", f"full:{d[7]}"):
        halted(result, f"full:{d[7]}", "creating")
    else:
        result = chain.finish()
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    recorded = runs()
    assert [(r.window_start.date(), r.window_end.date()) for r in recorded] == [
        (DAYS[0], DAYS[2]), (DAYS[3], DAYS[3]), (DAYS[4], DAYS[4]), (DAYS[5], DAYS[7])
    ]  # fmt: skip
    reason = recorded[1].start_reason
    version = "Delta version" if chosen == "delta" else "Iceberg snapshot"
    if unrecorded is not None:
        assert "written by a run that did not record its commit (" + version in reason, reason
        assert f"run {unrecorded['inc_join_run']}, window {d[3]} 00:00:00..{d[3]} 00:00:00): doing it again" in reason
    else:
        assert "did not record its commit" not in reason, reason
    # every recorded run's commit carries its run key (a killed one's too, under its own key)
    if state_lines:  # the run after the killed state's reads as without it, and says why
        said = "not read (the state has no tag: the run that wrote it last did not finish)"
        assert open_state_lines(tmp_path)[state_lines].startswith(said), open_state_lines(tmp_path)
    keys = [m["inc_join_run"] for m in commit_metadata(spark, chosen, warehouse / MODEL)]
    assert {r.run_key for r in recorded} <= set(keys), (keys, [r.run_key for r in recorded])
    if chosen == "delta" or "full refresh" not in chain.taken:  # CREATE OR REPLACE: a killed full refresh left
        final = read_table(spark, chosen, warehouse / MODEL, "before_refresh")  # the table as it was
        assert rows(final, columns) == reference
        assert_ledger_agrees(final, recorded, DAYS[0], LAST_DAY)
    if "full refresh" not in chain.taken:
        return

    # 5. on Iceberg dbt-spark drops the table before it creates the new one, so the killed full refresh left none;
    # the next plain run ends equal to one run over the inputs either way
    chain.plain(f"run:{d[7]}")
    result = chain.finish()
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    final = read_table(spark, chosen, warehouse / MODEL, "final")
    assert rows(final, columns) == reference
    table_runs = runs()  # the newest table's runs: the same on Delta, one run from the beginning on Iceberg
    assert_ledger_agrees(final, table_runs, DAYS[0], LAST_DAY)


# issue 71 item 6: every strategy a model that records its runs may use on these formats, SQL and Python, paired
# (each strategy in SQL on one format and in Python on the other; `make test-matrix` runs all four on both)
EMPTY_WINDOW_MODELS = ("ledger_replace", "ledger_replace_py", "ledger_left", "ledger_left_py")
EMPTY_WINDOW_PAIRS = {"delta": ("ledger_replace", "ledger_left_py"), "iceberg": ("ledger_left", "ledger_replace_py")}


def empty_window_models(chosen: str) -> tuple[str, ...]:
    return EMPTY_WINDOW_MODELS if whole_matrix() else EMPTY_WINDOW_PAIRS[chosen]


def commits(spark, chosen: str, model: str) -> list:
    """The table's commits as the format lists them: Delta's history, Iceberg's snapshots."""
    table = f"inc_join_it.{model}"
    if chosen == "delta":
        return sorted(r.version for r in spark.sql(f"DESCRIBE HISTORY {table}").collect())
    return sorted(r.snapshot_id for r in spark.sql(f"SELECT snapshot_id FROM {table}.snapshots").collect())


@pytest.mark.one_format("iceberg")  # the same macros on either format; `make test-matrix` runs both
def test_a_run_whose_window_is_empty_commits_nothing_and_is_recorded(spark, project, chosen):
    models = empty_window_models(chosen)

    def run(day, *extra):
        # with their input views, which show the inputs as of `day`
        project.invoke("run", "--select", *(f"+{m}" for m in models), "--threads", "1", *extra, today=day)

    def recorded(model):
        return ledger_rows(spark.table("inc_join_it.dbt_inc_join_runs"), f"inc_join_it.{model}")

    run(DAYS[2], "--full-refresh")
    run(DAYS[3])  # a daily run writes its day
    before = {m: commits(spark, chosen, m) for m in models}
    runs = {m: len(recorded(m)) for m in models}
    run(DAYS[3])  # the same day again: nothing new, an empty window
    for model in models:
        assert commits(spark, chosen, model) == before[model], model
        found = recorded(model)
        assert len(found) == runs[model] + 1 and found[-1].empty and found[-1].rows_total == 0, (model, found[-1])
    # the next day's run writes and records as usual: the table's windows still tile its days
    run(DAYS[4])
    a, b = (spark.table(f"inc_join_it.gen_{n}").where(f"RecDate <= DATE'{DAYS[4]}'") for n in ("a", "b"))
    expected = inc_join(a, b, how="left", output_window_start=DAYS[0], **SETTINGS)
    columns = sorted(expected.columns)
    for model in models:
        assert len(commits(spark, chosen, model)) > len(before[model]), model
        table = spark.table(f"inc_join_it.{model}")
        assert rows(table, columns) == rows(expected, columns), model
        assert_ledger_agrees(table, recorded(model), DAYS[0], DAYS[4])


def operations_since(spark, chosen: str, model: str, before: list) -> list[tuple[str, str | None]]:
    """The operations of the table's commits after those of ``before`` (commits'), oldest first, each with the run
    key its metadata names (spec §16): Delta's history, Iceberg's snapshots (a table property is no snapshot
    there)."""
    table = f"inc_join_it.{model}"
    if chosen == "delta":
        history = spark.sql(f"DESCRIBE HISTORY {table}").collect()
        history = sorted(history, key=lambda r: r.version)
        found = [(r.operation, r.userMetadata) for r in history if r.version not in before]
    else:
        snapshots = spark.sql(
            f"SELECT snapshot_id, committed_at, operation, summary['inc_join.run'] AS run FROM {table}.snapshots"
        ).collect()
        snapshots = sorted(snapshots, key=lambda r: r.committed_at)
        found = [(r.operation, r.run) for r in snapshots if r.snapshot_id not in before]
    return [(operation, json.loads(text)["inc_join_run"] if text else None) for operation, text in found]


@pytest.mark.one_format("delta")  # the same macros on either format; `make test-matrix` runs both
def test_a_redo_by_merge_replaces_the_table_from_its_start_in_one_commit(spark, project, chosen):
    """spec §14 and §16: a redo of a model with incremental_strategy='merge' (SQL and Python) deletes every row
    from its start on and writes its window in the run's one MERGE: no DELETE commit of its own, so a reader never
    sees the table without those days. Rows the table holds from the start on (here day 3's, doubled) go."""
    models = ("ledger_replace", "ledger_replace_py")

    def run(day, *extra, **variables):
        project.invoke("run", "--select", *(f"+{m}" for m in models), "--threads", "1", *extra, today=day,
                       vars=variables)  # fmt: skip

    run(DAYS[2], "--full-refresh")
    run(DAYS[4])
    for model in models:  # rows the redo must replace: day 3's, written twice
        spark.sql(f"INSERT INTO inc_join_it.{model} SELECT * FROM inc_join_it.{model} WHERE RecDate = DATE'{DAYS[3]}'")
    before = {m: commits(spark, chosen, m) for m in models}
    run(DAYS[4], inc_join_redo_from=str(DAYS[1]))
    a, b = (spark.table(f"inc_join_it.gen_{n}").where(f"RecDate <= DATE'{DAYS[4]}'") for n in ("a", "b"))
    expected = inc_join(a, b, how="left", output_window_start=DAYS[0], **SETTINGS)
    columns = sorted(expected.columns)
    for model in models:
        operations = operations_since(spark, chosen, model, before[model])
        data = [o for o in operations if o[0] not in ("SET TBLPROPERTIES", "UNSET TBLPROPERTIES")]
        assert [o for o, _ in data] == (["MERGE"] if chosen == "delta" else ["overwrite"]), (model, operations)
        assert rows(spark.table(f"inc_join_it.{model}"), columns) == rows(expected, columns), model
        record = ledger_rows(spark.table("inc_join_it.dbt_inc_join_runs"), f"inc_join_it.{model}")[-1]
        assert record.redo_from.date() == DAYS[1] and record.window_start.date() == DAYS[1], (model, record)
        assert data[0][1] == record.run_key, (model, data, record.run_key)  # the commit names its run


@pytest.mark.one_format("delta")  # a Delta ledger: dbt-databricks's (Unity Catalog keeps managed tables in Delta only)
def test_a_delta_ledger_keeps_every_record_when_runs_record_at_once(spark, project, chosen):
    """docs/cluster.md, Databricks: with var inc_join_ledger_format='delta' (dbt-databricks's default) the run ledger
    is a Delta table, and each record replaces its own partition only: two models recording at the same time, in
    a session whose partition overwrite mode is static (as `merge` models leave it), keep each other's records and
    those of their earlier runs. The ledger is made again as parquet by the next test that records a run."""
    if chosen != "delta":  # `make test-matrix` runs one_format tests on Iceberg too: its session has no Delta Lake
        pytest.skip("a Delta ledger needs Delta Lake in the session")
    models = ("ledger_replace", "ledger_replace_py")
    ledger = "inc_join_it.dbt_inc_join_runs"
    spark.sql(f"DROP TABLE IF EXISTS {ledger}")
    spark.conf.set("spark.sql.sources.partitionOverwriteMode", "static")
    try:
        for day, extra in ((DAYS[2], ["--full-refresh"]), (DAYS[4], [])):
            # `+model` selects the ledger's model: dbt makes the missing ledger before either model records (two
            # post-hooks creating one Delta table at once fail one of them, run-ledger.md)
            result = project.invoke("run", "--select", *(f"+{m}" for m in models), "--threads", "2", *extra,
                                    today=day, vars={"inc_join_ledger_format": "delta"})  # fmt: skip
            assert "dbt_inc_join_runs" in {r.node.name for r in result.result.results}
        assert spark.sql(f"DESCRIBE DETAIL {ledger}").first().format == "delta"
        for model in models:
            runs = ledger_rows(spark.table(ledger), f"inc_join_it.{model}")
            assert len(runs) == 2, (model, [(r.window_start, r.window_end) for r in runs])
            assert_ledger_agrees(spark.table(f"inc_join_it.{model}"), runs, DAYS[0], DAYS[4])
    finally:
        spark.conf.unset("spark.sql.sources.partitionOverwriteMode")
        spark.sql(f"DROP TABLE IF EXISTS {ledger}")


def test_a_parquet_python_model_writes_in_a_session_with_the_formats_catalog(spark, project, chosen):
    """A parquet Python model on a session whose spark_catalog is Delta Lake's (or Iceberg's), as on a cluster that
    has the format switched on: its first run and its daily run write the rows of the core. dbt runs a model in a
    thread of its own, where Spark 4.1 with Delta's catalog refused the writer's saveAsTable ("does not support
    REPLACE TABLE AS SELECT") until the helper made dbt's session the thread's active one."""
    model = "gen_left_parquet_py"
    for day, extra in ((DAYS[2], ["--full-refresh"]), (DAYS[4], [])):
        project.invoke("run", "--select", f"+{model}", *extra, today=day)
    described = {r.col_name: r.data_type for r in spark.sql(f"DESCRIBE TABLE EXTENDED inc_join_it.{model}").collect()}
    assert described["Provider"] == "parquet", described
    a, b = (spark.table(f"inc_join_it.gen_{n}").where(f"RecDate <= DATE'{DAYS[4]}'") for n in ("a", "b"))
    expected = inc_join(a, b, how="left", output_window_start=DAYS[0], **SETTINGS)
    columns = sorted(expected.columns)
    assert rows(spark.table(f"inc_join_it.{model}"), columns) == rows(expected, columns)


@pytest.mark.format_feature("iceberg")
def test_iceberg_tables_partitioned_by_days_of_the_arrival_take_daily_runs(spark, project, chosen):
    """partition_by=['days(RecDate)'] (Iceberg's transform) in a SQL and a Python model with insert_overwrite:
    dbt-spark names the partition in its INSERT OVERWRITE unless it lists the table as Iceberg, and Iceberg's
    SparkSessionCatalog on a Hive metastore lists it as a Hive table, so the second run failed on
    `partition (days(RecDate))`. Through the dispatch entry the package leaves the clause out (dynamic overwrite):
    the daily runs and a run given a past window each replace only their days, and the tables equal the core."""
    models = ("gen_left_days", "gen_left_days_py")
    selected = [f"+{model}" for model in models]
    project.invoke("run", "--select", *selected, "--full-refresh", today=DAYS[2])
    for day in DAYS[3:5]:
        project.invoke("run", "--select", *selected, today=day)
    past = {"inc_join_output_window_start": str(DAYS[3]), "inc_join_output_window_end": str(DAYS[3])}
    project.invoke("run", "--select", *models, vars=past, today=DAYS[4])
    a, b = (spark.table(f"inc_join_it.gen_{n}").where(f"RecDate <= DATE'{DAYS[4]}'") for n in ("a", "b"))
    expected = inc_join(a, b, how="left", output_window_start=DAYS[0], **SETTINGS)
    columns = sorted(expected.columns)
    for model in models:
        described = spark.sql(f"DESCRIBE TABLE inc_join_it.{model}").collect()
        partitions = [str(r[1]).lower() for r in described if str(r[0]).startswith("Part ")]
        assert partitions == ["days(recdate)"], (model, described)
        assert rows(spark.table(f"inc_join_it.{model}"), columns) == rows(expected, columns), model
