"""The open state at the level a user sees it: daily `dbt run`s of a SQL (or Python) model that keeps the state
(``open_state=true``) and of the same model at the default (``'auto'``: kept from a number of new rows of A a day,
spec §18) against their twin with ``open_state=false``, over bench/open_state.py's inputs (same data, lb 2,
mw 10), in one process.

A first run covers the days up to FIRST_END; then each day after it is one round: the three models run that day, one
``dbt run --select <model>`` each, the order alternating. The first round warms up. Per model: dbt's own
execution time of the node (the materialization, the hooks included) and the statements the run sent
(dbt-spark's session cursor), split into the state's (the hooks' and the state table's) and the rest. After
every round the tables hold the same rows on that day, each daily run of the model with the state read it, and the
default's read it exactly when the day's rows reach the threshold, or the benchmark stops.

    python -m bench.open_state_dbt --rows 20000 --out bench/results/open-state-dbt.md
    .venv-formats/bin/python -m bench.open_state_dbt --rows 20000 --format delta
    python -m bench.open_state_dbt --rows 1000000 --language python --partner first

With ``--format delta`` or ``iceberg`` the session has the format's jars and catalog (harness/table_formats.py), and
the inputs and the models' tables are in that format.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from . import open_state as data
from .ledger import Project, recording
from .protocol import publish, render, standalone_spark
from .variants import REPO

PROJECT = "inc_join_bench_open"
SCHEMA = "inc_join_bench_open"
FIRST_END = data.LAST_DAY - timedelta(days=6)  # the first run's last day; six daily rounds follow
MODEL = """{{{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          file_format='{file_format}') }}}}
{{{{ dbt_inc_join.inc_join(source('bench', 'a'), source('bench', 'b'), join_cols='k', inc_col='RecDate',
                       how='left', look_back_time={lb}, max_waiting_time={mw}, many_rows_per_key=false{extra}) }}}}
"""
# partner 'many': inc_join_many of A with B and C (bench/open_state.py), each its first partner
MANY_MODEL = """{{{{ config(materialized='incremental', incremental_strategy='insert_overwrite',
          partition_by=['RecDate'], file_format='{file_format}') }}}}
{{{{ dbt_inc_join.inc_join_many(source('bench', 'a'), [
    {{'relation': source('bench', 'b'), 'name': 'pay', 'join_cols': 'k', 'look_back_time': {lb},
     'max_waiting_time': {mw}, 'many_rows_per_key': false}},
    {{'relation': source('bench', 'c'), 'name': 'ship', 'join_cols': 'k', 'look_back_time': {lb},
     'max_waiting_time': {mw}, 'many_rows_per_key': false}}]{extra}) }}}}
"""
PY_MODEL = """from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="insert_overwrite", partition_by=["RecDate"],
               file_format="{file_format}")
    return inc_join_model(dbt, dbt.source("bench", "a"), dbt.source("bench", "b"), join_cols="k", inc_col="RecDate",
                          how="left", look_back_time={lb}, max_waiting_time={mw}, many_rows_per_key=False{extra})
"""
# Python models reach inc_join's writer through the dispatch entry (README, step 2)
DISPATCH = f"dispatch:\n  - macro_namespace: dbt\n    search_order: ['{PROJECT}', 'dbt_inc_join', 'dbt']\n"


def write_project(root: Path, a_name: str, b_name: str, file_format: str, language: str = "sql",
                  partners: Sequence[str] = ("all", "first"), c_name: str = "") -> list[str]:  # fmt: skip
    """The project: per partner (all, first; many: inc_join_many, SQL) a model that keeps the state, one at the
    default and their twin without, in the language; the models."""
    (root / "models").mkdir(parents=True, exist_ok=True)
    (root / "dbt_project.yml").write_text(
        f"name: {PROJECT}\nversion: '0.1.0'\nconfig-version: 2\nprofile: {PROJECT}\nmodel-paths: ['models']\n"
        + (DISPATCH if language == "python" else "")
    )
    (root / "profiles.yml").write_text(render("templates/ledger/profiles.yml", project=PROJECT, schema=SCHEMA))
    (root / "packages.yml").write_text(f"packages:\n  - local: {REPO}\n")
    database, a_table = a_name.split(".")
    sources = [
        "version: 2",
        "sources:",
        "  - name: bench",
        f"    schema: {database}",
        "    tables:",
        f"      - name: a\n        identifier: {a_table}",
        f"      - name: b\n        identifier: {b_name.split('.')[1]}",
        f"      - name: c\n        identifier: {(c_name or b_name).split('.')[1]}",
    ]
    (root / "models" / "sources.yml").write_text("\n".join(sources) + "\n")
    models = []
    python = language == "python"
    for partner in partners:
        for state, suffix in ((True, ""), (False, "_off"), (None, "_auto")):
            extra = "" if partner in ("all", "many") else (', partner="first"' if python else ", partner='first'")
            extra += "" if state is None else f", open_state={state if python else str(state).lower()}"
            name = f"open_{partner}{suffix}"
            template = MANY_MODEL if partner == "many" else PY_MODEL if python else MODEL
            text = template.format(lb=data.LOOK_BACK, mw=data.MAX_WAIT, extra=extra, file_format=file_format)
            (root / "models" / f"{name}.{'py' if python and partner != 'many' else 'sql'}").write_text(text)
            models.append(name)
    return models


def _state_statement(text: str) -> bool:
    """A statement of the open state: the hooks' and the state table's (the model's own statement, through its
    temporary view, reads the state too)."""
    lower = text.lower()
    return ("__inc_join_open" in lower or "_inc_join_kept_" in lower) and "__dbt_tmp" not in lower


def _label(text: str) -> str:
    """A statement's kind: its first words (an ALTER TABLE's action), without dbt's leading comment."""
    words = text.split("*/", 1)[-1].split() if text.lstrip().startswith("/*") else text.split()
    if words[:2] == ["ALTER", "TABLE"]:
        return " ".join(["ALTER TABLE", *words[3:5]]).removesuffix(" IF")
    return " ".join(words[: {"CACHE": 3, "INSERT": 2, "SHOW": 2, "DROP": 2}.get(words[0].upper(), 1)])


def daily_run(project: Project, model: str, day) -> dict:
    """One `dbt run --select model` over ``day``: the node's execution time, its statements' times, and its
    open-state line (spec §18: whether it read the state)."""
    lines: list[str] = []

    def collect(event) -> None:
        if event.info.name == "JinjaLogInfo" and event.info.msg.startswith("inc_join open state of "):
            lines.append(event.info.msg.split(": ", 1)[-1])

    with recording() as statements:
        result = project.invoke("run", "--select", model, vars={"inc_join_output_window_end": str(day)},
                                callbacks=[collect])  # fmt: skip
    [node] = result.result.results
    state = [(_label(str(sql)), took) for sql, took in statements if _state_statement(str(sql))]
    return {"seconds": node.execution_time, "statements": len(statements), "state": state,
            "state_seconds": sum(took for _, took in state), "line": lines[0] if lines else ""}  # fmt: skip


def _reads_state(model: str, rows: int, file_format: str = "parquet") -> bool:
    """Whether the daily runs of ``model`` read the state: always with open_state=true, never with false, at the
    default when a day's rows reach the threshold of the table format and the model's kind of state
    (shared_tables.OPEN_STATE)."""
    from dbt_inc_join.tables.shared_tables import OPEN_STATE

    if model.endswith("_auto"):
        kind = "rows" if "_first" in model else "many" if "_many" in model else "keys"
        least = OPEN_STATE.get(file_format, OPEN_STATE["parquet"])[kind]
        return least is not None and rows >= least
    return not model.endswith("_off")


def _same_day(spark, model: str, day) -> bool:
    twin = model.removesuffix("_auto") + "_off"
    rows = [spark.sql(f"SELECT * FROM {SCHEMA}.{name} WHERE RecDate = DATE'{day}'") for name in (model, twin)]
    return rows[0].count() == rows[1].count() and rows[0].exceptAll(rows[1]).isEmpty()


def measure(spark, rows: int, state_dir: Path, say, file_format: str = "parquet", language: str = "sql",
            partners: Sequence[str] = ("all", "first")) -> list[dict]:  # fmt: skip
    a_name, b_name, c_name = data.generate(spark, rows, file_format)
    root = state_dir / f"open-state-project-{file_format}-{language}-{rows}"
    models = write_project(root, a_name, b_name, file_format, language, partners, c_name)
    project = Project(root, state_dir, SCHEMA, target="session")  # the benchmark's session, in any format
    project.invoke("deps")
    project.invoke("run", "--full-refresh", vars={"inc_join_output_window_end": str(FIRST_END)})
    found: dict[str, list[dict]] = {name: [] for name in models}
    loads = []
    day = FIRST_END
    for number in range((data.LAST_DAY - FIRST_END).days):
        day += timedelta(days=1)
        loads.append(os.getloadavg()[0])
        for name in models if number % 2 == 0 else models[::-1]:
            run = daily_run(project, name, day)
            if _reads_state(name, rows, file_format) != run["line"].startswith("read "):
                raise RuntimeError(f"{name} on {day}: {run['line']}")
            if number:
                found[name].append(run)
            say(f"{rows}/day {day} {name}: {run['seconds']:.2f} s, {run['statements']} statements")
        for name in (m for m in models if not m.endswith("_off")):
            if not _same_day(spark, name, day):
                raise RuntimeError(f"{name} and its twin differ on {day}")
    results = []
    for partner in partners:
        on, off, auto = (found[f"open_{partner}{suffix}"] for suffix in ("", "_off", "_auto"))
        results.append({
            "language": language,
            "auto": statistics.median(r["seconds"] for r in auto),
            "auto_reads": _reads_state(f"open_{partner}_auto", rows, file_format),
            "rows": rows, "format": file_format, "partner": partner, "load": (min(loads), max(loads)),
            "rounds": len(on),
            "on": statistics.median(r["seconds"] for r in on), "off": statistics.median(r["seconds"] for r in off),
            "statements": (on[-1]["statements"], off[-1]["statements"]), "state": on[-1]["state"],
            "state_seconds": statistics.median(r["state_seconds"] for r in on),
        })  # fmt: skip
    return results


def _thresholds(table: dict, kind: str) -> str:
    """A kind's thresholds of open_state='auto' as the report names them, per table format."""
    return " / ".join(
        f"{'never' if settings[kind] is None else format(settings[kind], ',')} ({name})"
        for name, settings in table.items()
    )


def report(results: Sequence[dict], argv: Sequence[str]) -> str:
    from dbt_inc_join.tables.shared_tables import OPEN_STATE

    lines = [
        "# Daily dbt runs with the open state, and at the default, against the same model with open_state=false",
        "",
        f"`python -m bench.open_state_dbt {' '.join(argv)}` (bench/open_state_dbt.py): bench/open_state.py's "
        f"inputs (lb {data.LOOK_BACK}, mw {data.MAX_WAIT}), SQL models unless the format says Python "
        "(`insert_overwrite`, `method: session`; "
        f"inputs and tables in the format of the table below), a first run up to {FIRST_END}, then one round per "
        "day, the three models each day, the order alternating, the first round discarded. With state: "
        "`open_state=true`; default: `'auto'`, which keeps it from "
        f"{_thresholds(OPEN_STATE, 'rows')} new rows of A a day with `first`, {_thresholds(OPEN_STATE, 'many')} "
        f"with inc_join_many (`many`, two inputs each taking its first partner) and {_thresholds(OPEN_STATE, 'keys')} "
        "with `all`. "
        "Time: dbt's execution time "
        "of the node (hooks included), medians. "
        "State statements: the ones that read or write the state table or the cached relation, and their time "
        "(median of the rounds; a Python model's own code sends its statements to Spark, not through dbt).",
        "",
        "| A rows/day | format | partner | rounds | with state | without | ratio | default | default ÷ without | "
        "statements (with / without) | state statements | their time | load |",
        "|---:|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['rows']:,} | {r['format']}{', Python' if r.get('language') == 'python' else ''} | "
            f"{r['partner']} | {r['rounds']} | {r['on']:.2f} s | {r['off']:.2f} s | "
            f"{r['on'] / r['off']:.2f} | {r['auto']:.2f} s ({'kept' if r['auto_reads'] else 'none'}) | "
            f"{r['auto'] / r['off']:.2f} | {r['statements'][0]} / {r['statements'][1]} | {len(r['state'])} | "
            f"{r['state_seconds']:.2f} s | {r['load'][0]:.1f}–{r['load'][1]:.1f} |"
        )
    lines += ["", "The state's statements of the last round, in order (seconds):", ""]
    for r in results:
        listed = ", ".join(f"{label} {took:.2f}" for label, took in r["state"])
        lines.append(f"- {r['rows']:,} A rows a day, {r['format']}, `{r['partner']}`: {listed}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.open_state_dbt")
    parser.add_argument("--rows", type=int, nargs="+", default=[20000], help="A rows per day (one or more sizes)")
    parser.add_argument("--format", default="parquet", choices=("parquet", "delta", "iceberg"))
    parser.add_argument("--language", default="sql", choices=("sql", "python"))
    data.add_partner_option(parser)  # 'many': a SQL model whatever --language says
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.format != "parquet":
        os.environ["INC_JOIN_TABLE_FORMAT"] = args.format  # the session's jars and catalog
    spark, state_dir = standalone_spark("inc-join-open-dbt-")
    results = [r for rows in args.rows
               for r in measure(spark, rows, state_dir, print, args.format, args.language, args.partner)]  # fmt: skip
    publish(report(results, argv), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
