"""The open state of SQL and Python models (spec §18) through dbt: daily runs read it, and every case that cannot
prove it is the last run's falls back, says why in one line, and writes it again. Each model has a twin with
open_state=false (the Python models, the SQL model's); after every run both tables hold the same rows."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from dbt_inc_join.tables.shared_tables import OPEN_STATE
from harness.table_formats import table_format

from .pipeline import DAYS, ordered, rows
from .test_restated import state_lines_into, statements_into

pytestmark = pytest.mark.dbt

PAIRS = [("open_left", "open_left_off"), ("open_first", "open_first_off"), ("open_left_py", "open_left_off"),
         ("open_first_py", "open_first_off"), ("open_many", "open_many_off"),
         ("open_many_py", "open_many_off")]  # fmt: skip
AUTO_LINE = r"none kept \(open_state='auto': {rows} new rows of A a day, below {least}\)"
MODELS = [name for pair in PAIRS for name in pair]


def _run(project, day, *extra, vars=None, statements=None, select="+tag:open_state") -> dict[str, str]:
    """One `dbt run` of the models on `day`: each model's open-state line (and into ``statements``, each model's
    SQL statements)."""
    lines: dict[str, str] = {}
    callbacks = [state_lines_into(lines)] + ([] if statements is None else [statements_into(statements)])
    project.invoke("run", "--select", *select.split(), *extra, today=day, vars=vars, callbacks=callbacks)
    return lines


def _changes_between_cache_and_state(statements: list[str], name: str) -> list[str]:
    """The statements that change the state table after the cache is declared and before the state is written:
    Spark drops a cached plan that reads a changed table, so the state's statement would read the inputs again."""
    table = f"{name}__inc_join_open"
    cached = next(i for i, text in enumerate(statements) if text.startswith("CACHE LAZY TABLE"))
    written = next(i for i, text in enumerate(statements) if text.startswith("INSERT") and table in text)
    return [text for text in statements[cached:written] if table in text and text.startswith(("ALTER", "DELETE"))]


def _writes_to_state(statements: list[str], name: str) -> list[str]:
    """The statements of a run that change the state table, each as its first words."""
    table = f"inc_join_it.{name}__inc_join_open"
    verbs = ("ALTER", "DELETE", "INSERT", "CREATE", "DROP TABLE")
    return [" ".join(text.split()[:2]) for text in statements if table in text and text.startswith(verbs)]


EVERY_PAIR = [*PAIRS, ("open_left_auto", "open_left_off"), ("open_first_filtered_py", "open_first_off")]


def _same_tables(project, pairs=EVERY_PAIR):
    for name, twin in pairs:
        table, other = project.table(name), project.table(twin)
        assert rows(table, ordered(table.columns)) == rows(other, ordered(other.columns)), name


def _tag(project, name, key="inc_join.open_state"):
    spark = project.spark()
    found = spark.sql(f"SHOW TBLPROPERTIES inc_join_it.{name}__inc_join_open ('{key}')").collect()
    return found[0][1]


@pytest.mark.parquet_only  # the state's writes and reads on the formats: every daily pipeline's
def test_daily_runs_read_the_state_and_every_fallback_says_why(project):
    spark = project.spark()
    steps = []
    # a first run, then the next day's run reads the state
    steps.append(("first run", _run(project, DAYS[1]), "not read (a first run or full refresh)"))
    statements: dict[str, list[str]] = {}
    steps.append(("next day", _run(project, DAYS[2], statements=statements), "read "))
    for name in ("open_left", "open_first", "open_many"):
        assert _changes_between_cache_and_state(statements[name], name) == [], name
        # Delta and Iceberg replace the state's rows in one commit between clearing the tag and setting it; parquet
        # drops what a killed attempt left, adds its partition, tags it and drops the partition it read
        replaced = table_format() in ("delta", "iceberg")
        parquet = ["ALTER TABLE", "INSERT INTO", "ALTER TABLE", "ALTER TABLE"]
        expected = ["ALTER TABLE", "INSERT OVERWRITE", "ALTER TABLE"] if replaced else parquet
        assert _writes_to_state(statements[name], name) == expected, name
    # in one run: open_left's state table is gone; open_first is given another max_waiting_time (the first models'
    # own var, which the later runs keep); open_many's tag is of the day before, as after a run killed between the
    # output's commit and the state's
    first_mw = {"open_state_first_mw": 3}
    gone_stale_arguments = {}
    for suffix in ("", "_py"):
        spark.sql(f"DROP TABLE inc_join_it.open_left{suffix}__inc_join_open")
        stale = json.dumps(dict(json.loads(_tag(project, f"open_many{suffix}")), end=f"{DAYS[1]} 00:00:00"))
        spark.sql(f"ALTER TABLE inc_join_it.open_many{suffix}__inc_join_open "
                  f"SET TBLPROPERTIES ('inc_join.open_state' = '{stale}')")  # fmt: skip
        gone_stale_arguments[f"open_left{suffix}"] = "not read (no state yet)"
        gone_stale_arguments[f"open_first{suffix}"] = "not read (the arguments"
        gone_stale_arguments[f"open_many{suffix}"] = f"not read (the state is as of {DAYS[1]}, the window"
    steps.append(("no state, arguments, stale", _run(project, DAYS[3], vars=first_mw), gone_stale_arguments))
    # a Python model's run writes its state's rows before dbt's commit: an attempt killed before the commit whose
    # window ended elsewhere leaves a partition of that end (parquet), which the next run that tags drops
    stray = "inc_join_it.open_first_py__inc_join_open"
    partitioned = table_format() not in ("delta", "iceberg")  # Delta and Iceberg replace the rows: no partition
    if partitioned:
        columns = [c for c in spark.table(stray).columns if c != "inc_join_state_end"]
        spark.sql(f"INSERT INTO {stray} PARTITION (inc_join_state_end = '209901010000') "
                  f"SELECT {', '.join(columns)} FROM {stray}")  # fmt: skip
    # the next day: inc_join_many's arguments change too (its own var); every other state is read again
    both_mw = {**first_mw, "open_state_many_mw": 3}
    many_arguments = {name: "read " for name, _ in PAIRS}
    many_arguments.update(open_many="not read (the arguments", open_many_py="not read (the arguments")
    steps.append(("read again, arguments", _run(project, DAYS[4], vars=both_mw), many_arguments))
    ends = spark.sql(f"SELECT DISTINCT inc_join_state_end FROM {stray}").collect()
    assert [e[0] for e in ends] == [DAYS[4].strftime("%Y%m%d") + "0000"], ends
    _same_tables(project)
    steps.append(("full refresh", _run(project, DAYS[7], "--full-refresh", vars=both_mw),
                  "not read (a first run or full refresh)"))  # fmt: skip
    own = table_format() if table_format() in OPEN_STATE else None  # a format without its own: parquet's
    least = OPEN_STATE[own or "parquet"]["keys"]
    threshold = "" if least is None else f"{least:,}" + ("" if own is None else f" on {own}")
    never = f"none kept (open_state='auto' keeps none with partner='all' on {own})"  # a format that never keeps it
    for step, lines, expected in steps:
        for name, twin in PAIRS:
            said = expected if isinstance(expected, str) else expected[name]
            assert lines[name].startswith(said), (step, name, lines[name])
            assert lines[twin] == "none kept (open_state=false)", (step, twin, lines[twin])
        # a Python model whose input is filtered in its code keeps none: the state's fingerprint names tables
        unkept = "none kept (an input is not a table as dbt.ref or dbt.source loaded it)"
        assert lines["open_first_filtered_py"] == unkept, (step, lines["open_first_filtered_py"])
        # the default, 'auto', keeps none at these sizes, and says how many new rows of A a day the run counted
        auto = AUTO_LINE.format(rows=r"[\d,]+", least=threshold) if least is not None else re.escape(never)
        assert re.fullmatch(auto, lines["open_left_auto"]), lines
    # the next day's run counted the rows of A from its start (the day after the state it read) to that day
    read_as_of = date.fromisoformat(steps[1][1]["open_left"].split("(as of ")[1][:10])
    a = spark.table("inc_join_it.gen_a").where(f"RecDate > DATE'{read_as_of}' AND RecDate <= DATE'{DAYS[2]}'")
    each = f"{a.count() / (DAYS[2] - read_as_of).days:,.0f}"
    said = never if least is None else AUTO_LINE.format(rows=each, least=threshold).replace("\\", "")
    assert steps[1][1]["open_left_auto"] == said, steps[1]
    _same_tables(project)
    # the tag is the last run's, and its end the only one (Delta and Iceberg: an empty state is one row of nulls
    # without an end)
    for name in ("open_left", "open_first", "open_left_py", "open_first_py", "open_many", "open_many_py"):
        assert json.loads(_tag(project, name))["end"] == f"{DAYS[7]} 00:00:00"
        # a Python model's marker has served once its tag is set: emptied, so no run looks unfinished
        if name.endswith("_py"):
            assert _tag(project, name, "inc_join.open_state_pending") == "", name
        ends = spark.sql(f"SELECT DISTINCT inc_join_state_end FROM inc_join_it.{name}__inc_join_open").collect()
        assert [e[0] for e in ends] in ([], [None], [DAYS[7].strftime("%Y%m%d") + "0000"])


@pytest.mark.parquet_only
def test_a_run_that_does_not_read_the_state_clears_its_tag_first(project):
    """A run over a past window (vars) reads as without the state; its pre-hook clears the tag before the output
    is written, so the state of a run before it is never read after it."""
    left = "+open_left +open_left_py +open_left_off"  # the subject is the same for every model: open_left's
    _run(project, DAYS[3], select=left)
    window = {"inc_join_output_window_start": DAYS[2], "inc_join_output_window_end": DAYS[2]}
    lines = _run(project, DAYS[7], vars=window, select=left)
    for name in ("open_left", "open_left_py"):
        assert lines[name].startswith("not read (the state is as of "), lines
        assert json.loads(_tag(project, name))["end"] == f"{DAYS[2]} 00:00:00"
    _same_tables(project, [("open_left", "open_left_off"), ("open_left_py", "open_left_off")])
    # a table whose tag is cleared, as a run stopped between clearing it and setting it leaves it: the next run
    # says so (here a past window again, whatever the tables hold by now)
    for name in ("open_left", "open_left_py"):
        project.spark().sql(
            f"ALTER TABLE inc_join_it.{name}__inc_join_open SET TBLPROPERTIES ('inc_join.open_state' = '')"
        )
    window = {"inc_join_output_window_start": DAYS[3], "inc_join_output_window_end": DAYS[3]}
    lines = _run(project, DAYS[7], vars=window, select=left)
    for name in ("open_left", "open_left_py"):
        assert lines[name] == ("not read (the state has no tag: the run that wrote it last did not finish); the run "
                               "reads as without it and writes it again"), lines  # fmt: skip
        assert json.loads(_tag(project, name))["end"] == f"{DAYS[3]} 00:00:00"
    _same_tables(project, [("open_left", "open_left_off"), ("open_left_py", "open_left_off")])
