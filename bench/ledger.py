"""The run ledger's suite (`--suite ledger`, spec §13): a daily dbt run with and without the post-hook
``record_run``, on generated dbt projects (bench/templates/ledger/); docs/performance.md, "Run ledger"."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from . import protocol
from .labels import LABELS
from .protocol import Cell, Ratio, Suite, Target, agreed_text, ratio_target, types_text
from .variants import DATABASE, FINGERPRINT, INC_COL, JOIN_COLS, REPO

PROJECT = SCHEMA = "inc_join_bench_ledger"
LEDGER_MODEL = "dbt_inc_join_runs"
HOW = "left"
LANGUAGES = ("sql", "python")
OVERHEAD_GOAL = "≤ 1 s"  # a daily run may take at most this much longer with the ledger
FLAT_GOAL = "≤ 1.3"  # the longest history / the shortest, and many records / few
# The embedded Derby metastore now and then fails a partition filter Spark pushes down to it (also seen by
# tests/integration/test_ledger.py, macros/plan/_ledger.sql): an invocation failing with it is run again.
TRANSIENT = "INTERNAL_ERROR_HIVE_METASTORE_PARTITION_FILTER"
ATTEMPTS = 3
RECORDS = "sql/ledger_records.sql"  # one committed record per day of a table
PYTHON_CODE = "<the Python model's code>"  # what recording() records for a Python model's run
# A short name of a ledger's statement (the report's statements table), by how it starts
STATEMENT_LABELS = {"show tblproperties": "SHOW TBLPROPERTIES", "describe": "DESCRIBE", "insert": "INSERT"}
STATEMENT_LABELS["alter"] = "ALTER TABLE"


@dataclass(frozen=True)
class LedgerCase:
    """A model's language, its history, and its ledger: ``off`` (no post-hook), ``few`` (the ledger holds only
    this benchmark's runs) or ``many`` (pre-filled with ``records`` records); ``ledger_format`` the ledger's table
    format (var inc_join_ledger_format: a Delta ledger is dbt-databricks's, `--format delta`)."""

    language: str
    history: int
    ledger: str
    records: int = 0
    ledger_format: str = "parquet"

    @property
    def model(self) -> str:
        return f"{self.language}_{'plain' if self.ledger == 'off' else 'ledger'}_{self.history}d"

    @property
    def project(self) -> str:
        return f"r{self.records}" if self.ledger == "many" else "few" + self._format_suffix

    @property
    def schema(self) -> str:
        return f"{SCHEMA}_r{self.records}" if self.ledger == "many" else SCHEMA + self._format_suffix

    @property
    def _format_suffix(self) -> str:
        return "" if self.ledger_format == "parquet" else f"_{self.ledger_format}"

    @property
    def relation(self) -> str:
        return f"{self.schema}.{self.model}"

    @property
    def unique_id(self) -> str:
        return f"model.{PROJECT}.{self.model}"

    @property
    def ledger_text(self) -> str:
        text = {"off": "no ledger", "few": "ledger", "many": f"ledger of {self.records} records"}[self.ledger]
        return text if self.ledger_format == "parquet" else f"{self.ledger_format.capitalize()} {text}"

    @property
    def label(self) -> str:
        return f"{self.language} daily {self.history}d, {self.ledger_text}"


@dataclass(frozen=True)
class LedgerRun:
    """One daily run: ``seconds`` the node's execution_time in dbt's run results (compile + execute), the dbt
    invocation's wall time, the seconds of the ledger's own statements, and the rows written."""

    seconds: float
    compile: float
    execute: float
    invocation: float
    ledger_read: float
    ledger_record: float
    rows: int = 0
    # the SQL model's query of the latest output arrival in its own table (max(inc_col) in this, spec §6 and §13),
    # which reads every partition of the table; a Python model runs it in its code, through Spark (not seen: 0)
    table_latest: float = 0.0

    @property
    def ledger_seconds(self) -> float:
        return self.ledger_read + self.ledger_record


@dataclass
class LedgerCell(Cell):
    """Daily dbt runs (``variant`` 'dbt'); ``check`` the rows written and the record (a dict)."""

    statements: list[tuple[str, float, str]] = field(default_factory=list)


def write_project(root: Path, cases: Sequence[LedgerCase], run) -> Path:
    """A dbt project with one model per case (``models/plain/`` without the post-hook, ``models/ledger/`` with
    it) over the benchmark's catalog tables."""
    shutil.rmtree(root, ignore_errors=True)
    config = run.config
    values = dict(project=PROJECT, schema=cases[0].schema, inc_col=INC_COL, repo=REPO, database=DATABASE, how=HOW)
    values.update(ledger_format=cases[0].ledger_format)
    values.update(look_back_time=config.look_back_time, max_waiting_time=config.max_waiting_time)
    values.update(histories=sorted(set(config.histories)), join_cols=list(JOIN_COLS))
    for folder in ("plain", "ledger"):
        (root / "models" / folder).mkdir(parents=True)
    for name in ("dbt_project.yml", "profiles.yml", "packages.yml", "sources.yml", "tests.yml"):
        path = root / ("models" if name in ("sources.yml", "tests.yml") else "") / name
        path.write_text(protocol.render(f"templates/ledger/{name}", **values))
    for case in cases:
        suffix = "sql" if case.language == "sql" else "py"
        text = protocol.render(f"templates/ledger/model.{suffix}.jinja", **values, history=case.history)
        folder = root / "models" / ("plain" if case.ledger == "off" else "ledger")
        (folder / f"{case.model}.{suffix}").write_text(text)
    return root


class Project:
    """One generated project, driven through harness.local_dbt with its own target and log paths."""

    def __init__(self, root: Path, state_dir: Path, schema: str, target: str = "session") -> None:
        from harness.local_dbt import LocalDbtProject

        self.ledger = f"{schema}.{LEDGER_MODEL}"
        # the template's one output, also when --format puts Delta Lake in the session (the models stay parquet)
        self.dbt = LocalDbtProject(root, state_dir, target=target)
        self.dbt.target_path = Path(state_dir) / f"dbt-target-{root.name}"
        self.dbt.log_path = Path(state_dir) / f"dbt-logs-{root.name}"
        self.retries: list[str] = []  # the invocations run again after TRANSIENT

    def invoke(self, *args: str, retry: bool = True, **kwargs):
        """One dbt invocation; on TRANSIENT run again (up to ATTEMPTS), or with ``retry=False`` the failed result
        returned (the caller undoes the run and runs it again)."""
        from harness.local_dbt import failure_text

        for attempt in range(1, ATTEMPTS + 1):
            result = self.dbt.invoke(*args, "--log-level", "none", expect_success=False, **kwargs)
            if result.success:
                return result
            text = failure_text(result)
            if TRANSIENT not in text or attempt == ATTEMPTS:
                raise RuntimeError(f"dbt {' '.join(args)} failed: {text}")
            self.retries.append(" ".join(args))
            if not retry:
                return result
        raise AssertionError("unreachable")


@contextmanager
def recording() -> Iterator[list[list]]:
    """[sql, seconds] of every statement dbt-spark's session cursor runs, fetch included (a query's work happens in
    ``fetchall``, after dbt's own query timer stopped); a Python model's code as PYTHON_CODE."""
    from dbt.adapters.spark.session import Cursor

    from dbt_inc_join.orchestration.python_models.submission import BaseInProcessHelper

    statements: list[list] = []

    def fetched(_, took: float) -> None:
        if statements:
            statements[-1][1] += took

    patches = [
        (Cursor, "execute", lambda args, took: statements.append([args[0], took])),
        (Cursor, "fetchall", fetched),
        (Cursor, "fetchone", fetched),
        (BaseInProcessHelper, "submit", lambda _, took: statements.append([PYTHON_CODE, took])),
    ]
    with ExitStack() as originals:
        for owner, name, record in patches:
            originals.callback(setattr, owner, name, getattr(owner, name))
            setattr(owner, name, _timed(getattr(owner, name), record))
        yield statements


def _timed(original, record):
    def timed(this, *args):
        began = time.perf_counter()
        try:
            return original(this, *args)
        finally:
            record(args, time.perf_counter() - began)

    return timed


def _statement_text(sql: str) -> str:
    """The statement on one line, without dbt's leading query comment (/* {"app": "dbt", ...} */)."""
    return " ".join(_without_comment(sql).split())


def _without_comment(sql: str) -> str:
    """The statement as sent, less dbt's leading query comment."""
    text = str(sql).strip()
    while text.startswith("/*") and "*/" in text:
        text = text[text.index("*/") + 2 :].lstrip()
    return text


def classify(statements: Sequence[Sequence], relation: str, ledger: str) -> list[tuple[str, float, str]]:
    """Each statement of a model's run as (kind, seconds, text): ``read`` the start-from-ledger read before the
    model's write (into its table; a Python model's code writes a temporary table), ``record`` the post-hook's
    statements after it, else ``model``."""
    kinds = []
    written = False
    for sql, took in statements:
        text = _statement_text(sql)
        lower = text.lower()
        kind = "model"
        if lower.startswith((f"insert overwrite table {relation} ", f"create table {relation} ")):
            written = True
        elif lower.startswith(f"insert overwrite table {ledger} "):
            kind = "record"
        elif lower.startswith("show tblproperties") or (lower.startswith("select") and f" from {ledger} " in lower):
            kind = "record" if written else "read"
        elif written and lower.startswith("describe") and lower.endswith(f" {relation}"):
            kind = "record"
        elif written and lower.startswith(("select", f"alter table {relation} set tblproperties")):
            kind = "record"  # the rows per JoinType the run wrote; the table property inc_join.committed
        kinds.append((kind, took, text))
    return kinds


def _is_latest_query(text: str, relation: str) -> bool:
    lower = text.lower()
    # from the last committed window's start on when the model records its runs (the macro _committed_state)
    return lower.startswith("select date_format(max(") and (
        lower.endswith(f" from {relation}") or f" from {relation} where " in lower
    )


def _statement_label(text: str) -> str:
    lower = text.lower()
    found = next((label for start, label in STATEMENT_LABELS.items() if lower.startswith(start)), None)
    if found or not lower.startswith("select"):
        return found or text.split(" ")[0]
    return "SELECT rows per JoinType" if " from " in lower and " group by " in lower else "SELECT ledger"


def run_key(invocation_id: str, case: LedgerCase, day: date) -> str:
    """A record's partition (macros/io/_run_record.sql, _ledger_insert_sql: invocation, model, window start)."""
    return f"{invocation_id}/{case.unique_id}/{day} 00:00:00"


def _drop_record(spark, ledger: str, key: str, month: str | None = None, delta: bool = False) -> None:
    """A record's partition out of the ledger; a partition is named by both levels, so without ``month`` (a
    record of this benchmark's runs: this month) it is looked up first. A Delta ledger: its rows deleted."""
    if delta:
        spark.sql(f"DELETE FROM {ledger} WHERE recorded_month = '{month}' AND run_key = '{key}'")
        return
    query = f"SELECT DISTINCT recorded_month FROM {ledger} WHERE run_key = '{key}'"
    for found in [month] if month else [r[0] for r in spark.sql(query).collect()]:
        spark.sql(f"ALTER TABLE {ledger} DROP IF EXISTS PARTITION (recorded_month = '{found}', run_key = '{key}')")


def _invocation_id() -> str:
    """The id of the dbt invocation that just ended (dbt keeps it until the next one starts)."""
    from dbt_common.invocation import get_invocation_id

    return get_invocation_id()


def range_rows(spark, relation: str, start: date, end: date) -> dict:
    """The rows in a table's partitions [start, end]: count, per JoinType name, fingerprint."""
    rows = spark.table(relation).where(f"{INC_COL} BETWEEN DATE'{start}' AND DATE'{end}'")
    types = {LABELS[int(r[0])]: int(r[1]) for r in rows.groupBy("JoinType").count().collect()}
    fingerprint = rows.selectExpr(f"{FINGERPRINT} AS f").first()[0]
    return {"rows": sum(types.values()), "types": types, "fingerprint": int(fingerprint or 0)}


def same_rows(found: dict, expected: dict) -> bool:
    """The same rows (range_rows): count, per JoinType, fingerprint."""
    return all(found[key] == expected[key] for key in ("rows", "types", "fingerprint"))


@dataclass
class Setup:
    """The generated projects and what each daily run starts from."""

    spark: Any
    last_day: date
    projects: dict[str, Project] = field(default_factory=dict)
    invocations: dict[LedgerCase, str] = field(default_factory=dict)  # each case's latest run (reset drops its record)
    records: dict[str, int] = field(default_factory=dict)  # rows in each project's ledger after the set-up
    seconds: dict[str, float] = field(default_factory=dict)
    load: list[float] = field(default_factory=list)  # the 1-minute load average at the start of each round

    def rows(self, case: LedgerCase, day: date | None = None):
        return self.spark.table(case.relation).where(f"{INC_COL} = DATE'{day or self.last_day}'")

    def reset(self, case: LedgerCase) -> None:
        """Back to the state before the daily run: the last day's partition out of the model's table and, with the
        ledger, the previous run's record out of the ledger (its own run_key partition) and the table property
        inc_join.committed as yesterday's daily run left it (the set-up's first run covered the whole history; a
        daily run's window is its day)."""
        spark, ledger = self.spark, self.projects[case.project].ledger
        spark.sql(f"ALTER TABLE {case.relation} DROP IF EXISTS PARTITION ({INC_COL} = DATE'{self.last_day}')")
        if case.ledger == "off":
            return
        if case in self.invocations:
            key = run_key(self.invocations[case], case, self.last_day)
            month = datetime.now(timezone.utc).strftime("%Y-%m")
            _drop_record(spark, ledger, key, month, delta=case.ledger_format == "delta")
        yesterday = self.last_day - timedelta(days=1)
        committed = {"window_start": f"{yesterday} 00:00:00", "window_end": f"{yesterday} 00:00:00"}
        committed["rows_total"] = self.rows(case, yesterday).count()
        committed["run_key"] = f"bench/{case.unique_id}/{yesterday} 00:00:00"
        spark.sql(f"ALTER TABLE {case.relation} SET TBLPROPERTIES ('inc_join.committed' = '{json.dumps(committed)}')")

    def daily_run(self, case: LedgerCase, variables: dict | None = None) -> tuple[LedgerRun, list]:
        """One ``dbt run --select <model>`` (with ``variables`` as --vars): its timings and its classified
        statements. A run failing with TRANSIENT is undone (reset) and run again; only the run that succeeded is
        timed."""
        project = self.projects[case.project]
        for _ in range(ATTEMPTS):
            began = time.perf_counter()
            with recording() as statements:
                result = project.invoke("run", "--select", case.model, retry=False, vars=variables)
            invocation = time.perf_counter() - began
            self.invocations[case] = _invocation_id()
            if result.success:
                break
            self.reset(case)
        else:
            raise RuntimeError(f"dbt run --select {case.model} failed {ATTEMPTS} times with {TRANSIENT}")
        [node] = result.result.results
        phases = {t.name: (t.completed_at - t.started_at).total_seconds() for t in node.timing}
        kinds = classify(statements, case.relation, project.ledger)
        latest = sum(s for kind, s, text in kinds if kind == "model" and _is_latest_query(text, case.relation))
        ledger = {f"ledger_{kind}": sum(s for k, s, _ in kinds if k == kind) for kind in ("read", "record")}
        compiled, executed = (phases.get(phase, 0.0) for phase in ("compile", "execute"))
        return LedgerRun(node.execution_time, compiled, executed, invocation, **ledger, table_latest=latest), kinds

    def check_record(self, case: LedgerCase, written: dict) -> dict:
        """The run's records in the ledger: exactly one, under the run_key reset() drops, for the last day, with
        the rows the run wrote."""
        invocation_id, ledger = self.invocations[case], self.projects[case.project].ledger
        columns = "run_key, relation, window_start, window_end, empty, rows_total, join_type_rows"
        records = self.spark.sql(f"SELECT {columns} FROM {ledger} WHERE invocation_id = '{invocation_id}'").collect()
        found: dict = {"records": len(records)}
        if len(records) == 1:
            record = records[0]
            found.update(
                run_key_as_expected=record.run_key == run_key(invocation_id, case, self.last_day),
                relation=record.relation,
                window=[str(record.window_start.date()), str(record.window_end.date())],
                empty=bool(record.empty),
                rows_total=int(record.rows_total),
                join_type_rows={LABELS[int(k)]: int(v) for k, v in (record.join_type_rows or {}).items()},
            )
        expected = dict(records=1, run_key_as_expected=True, relation=case.relation, window=[str(self.last_day)] * 2)
        expected.update(empty=False, rows_total=written["rows"], join_type_rows=written["types"])
        found["consistent"] = all(found.get(key) == value for key, value in expected.items())
        return found


def set_up(spark, cells: Sequence[LedgerCell], run) -> Setup:
    """Per project: its files, ``dbt deps``, its ledger, each model's table up to the day before the last (one
    first run of all its models), the pre-filled ledger."""
    setup = Setup(spark, run.spec.last_day)
    cases = [cell.case for cell in cells]
    for name in dict.fromkeys(c.project for c in cases):
        began = time.perf_counter()
        chosen = [c for c in cases if c.project == name]
        root = write_project(Path(run.state_dir) / f"ledger-project-{name}", chosen, run)
        project = setup.projects[name] = Project(root, run.state_dir, chosen[0].schema)
        project.invoke("deps")
        project.invoke("run", "--select", LEDGER_MODEL)  # record_run would create it on the first record too
        window_end = {"inc_join_output_window_end": str(setup.last_day - timedelta(days=1))}
        project.invoke("run", "--select", *(c.model for c in chosen), vars=window_end)
        setup.invocations.update((case, _invocation_id()) for case in chosen)
        records = chosen[0].records
        if records:
            prefill(spark, project, chosen, records)
        setup.seconds[name] = took = time.perf_counter() - began
        filled = f", ledger pre-filled to {records} records" if records else ""
        run.say(f"  ledger set-up: project {name}, first runs of {len(chosen)} models{filled}: {took:.1f} s")
    setup.records = {name: spark.table(p.ledger).count() for name, p in setup.projects.items()}
    return setup


def prefill(spark, project: Project, cases: Sequence[LedgerCase], records: int) -> None:
    """A ledger after many recorded runs: the first model's first-run record replaced by one committed record per
    day of its table (that day's rows per JoinType, as daily runs would have recorded them), then synthetic
    records of other models (relation <schema>.other_<i>, a year of daily records each) up to about ``records``
    rows in all. Each record is a partition of its own, like a real record."""
    ledger, first = project.ledger, cases[0]
    insert = f"INSERT INTO {ledger} PARTITION (recorded_month, run_key)"
    values = dict(source=first.relation, columns=spark.table(ledger).columns, inc_col=INC_COL)
    for row in spark.sql(f"SELECT DISTINCT run_key FROM {ledger} WHERE relation = '{first.relation}'").collect():
        _drop_record(spark, ledger, row.run_key)
    table_id = dict(spark.sql(f"SHOW TBLPROPERTIES {first.relation}").collect())["inc_join.table_id"]
    own = dict(relation=f"'{first.relation}'", model=f"'{first.unique_id}'", table_id=table_id, copies=0)
    spark.sql(f"{insert} {protocol.render(RECORDS, **values, **own)}")
    days = spark.table(first.relation).select(INC_COL).distinct().count()
    copies = round(max(0, records - spark.table(ledger).count()) / days)
    if copies:
        other = "concat('{}', CAST(copy.id AS STRING))"
        others = dict(relation=other.format(f"{first.schema}.other_"), model=other.format("model.other.other_"))
        spark.sql(f"{insert} {protocol.render(RECORDS, **values, **others, table_id='synthetic', copies=copies)}")


class Ledger(Suite):
    name = "ledger"
    few_rows_data = True
    timed = "daily dbt runs"  # what each cell's timed runs are (the report's set-up)
    setup: Setup

    def runs(self, config) -> list[str]:
        rounds = f"{config.warmup} warm-up round(s) discarded, then {config.repeats} timed {self.timed} per cell"
        return [f"{self.name} suite: {rounds}, interleaved round-robin, garbage collected before each; medians"]

    def section(self, run, **values: object) -> list[str]:
        """The suite's part of the report (bench/templates/report/<name>.md), with the set-up's values."""
        records = ", ".join(f"{name} {n}" for name, n in self.setup.records.items())
        load = protocol.load_text(self.setup.load)
        return protocol.section(self.name, records=records, load=load, quick=run.config.quick, **values)

    def cells(self, run) -> list[LedgerCell]:
        """Per language, each history without and with the ledger, then the longest on each pre-filled ledger;
        quick mode: the SQL model on the longest history without and with the ledger (records, never timings)."""
        config = run.config
        longest = max(config.histories)
        cases = [LedgerCase("sql", longest, "off"), LedgerCase("sql", longest, "few")]
        if not config.quick:
            cases = []
            for language in LANGUAGES:
                for history in sorted({min(config.histories), longest}):
                    cases += [LedgerCase(language, history, "off"), LedgerCase(language, history, "few")]
                cases += [LedgerCase(language, longest, "many", n) for n in config.ledger_records]
                if config.table_format == "delta":  # the Delta ledger beside the parquet one, in the same rounds
                    cases.append(LedgerCase(language, longest, "few", ledger_format="delta"))
        return [LedgerCell(case, "dbt", config.repeats) for case in cases]

    def measure(self, spark, cells: Sequence[LedgerCell], run) -> None:  # type: ignore[override]
        """The set-up, then rounds over the cells, each run from the same state (reset) after garbage collection."""
        setup = self.setup = set_up(spark, cells, run)
        run.phases.done("ledger set-up", f" (ledger rows: {setup.records})")

        def one(cell: LedgerCell, checking: bool):
            case = cell.case
            setup.reset(case)
            protocol.settle(spark)
            result, kinds = setup.daily_run(case)
            check = None
            if checking:
                check = range_rows(spark, case.relation, setup.last_day, setup.last_day)
                check["record"] = setup.check_record(case, check) if case.ledger != "off" else None
                cell.statements = kinds
            rows = check["rows"] if check else setup.rows(case).count()
            result = replace(result, rows=rows)
            text = (
                f"{case.label:<40} {result.seconds:6.2f} s (ledger read {result.ledger_read:.2f} s, record "
                f"{result.ledger_record:.2f} s)  {rows} rows"
            )
            return result, check, None, text

        setup.load = protocol.rounds(cells, run.config.warmup, one, progress=run.say)
        run.phases.done("ledger runs")

    def targets(self, cells: Sequence[LedgerCell]) -> list[Target]:
        """docs/performance.md, "Run ledger": the overhead with − without (absolute: the ledger adds a fixed number
        of statements whatever the model's size), flat in history and in the ledger's size."""
        found: list[Target] = []
        histories = _histories(cells)
        shortest, longest = histories[0], histories[-1]
        for language in dict.fromkeys(c.case.language for c in cells):

            def at(history: int, ledger: str, records: int = 0, language=language, ledger_format: str = "parquet"):
                wanted = LedgerCase(language, history, ledger, records, ledger_format)
                return next((c for c in cells if c.case == wanted), None)

            for history in histories:
                on, off = at(history, "few"), at(history, "off")
                if on is not None and off is not None:
                    name = f"{language} daily run, {history} d: with the ledger − without (× without: "
                    name += f"{Ratio.of(on, off).median:.2f})"
                    found += ratio_target(name, on, off, OVERHEAD_GOAL, difference=True)
            if len(histories) > 1:
                for ledger, goal in (("few", FLAT_GOAL), ("off", None)):
                    name = f"{language} daily run {'with' if ledger == 'few' else 'without'} the ledger: "
                    name += f"{longest} d / {shortest} d of history"
                    found += ratio_target(name, at(longest, ledger), at(shortest, ledger), goal)
                name = f"{language} ledger's own statements (start-from-ledger read + record): {longest} d / "
                name += f"{shortest} d of history"
                on, off = at(longest, "few"), at(shortest, "few")
                found += ratio_target(name, on, off, FLAT_GOAL, value=lambda r: r.ledger_seconds)
            delta = at(longest, "few", ledger_format="delta")
            if delta is not None:
                name = f"{language} daily run, {longest} d: with the Delta ledger − without (× without: "
                name += f"{Ratio.of(delta, at(longest, 'off')).median:.2f})"
                found += ratio_target(name, delta, at(longest, "off"), OVERHEAD_GOAL, difference=True)
                name = f"{language} daily run, {longest} d: with the Delta ledger / with the parquet ledger"
                found += ratio_target(name, delta, at(longest, "few"), None)
                name = f"{language} ledger's own statements, {longest} d: Delta ledger / parquet ledger"
                found += ratio_target(name, delta, at(longest, "few"), None, value=lambda r: r.ledger_seconds)
            for records in sorted({c.case.records for c in cells if c.case.ledger == "many"}):
                many, few = at(longest, "many", records), at(longest, "few")
                if many is not None and few is not None:
                    name = f"{language} daily run with the ledger, {longest} d: ledger of {records} records / of "
                    name += f"this benchmark's few (start-from-ledger read {many.median_of('ledger_read'):.2f} s / "
                    name += f"{few.median_of('ledger_read'):.2f} s)"
                    found += ratio_target(name, many, few, FLAT_GOAL)
        return found

    def agreement(self, cells: Sequence[LedgerCell]) -> list[dict[str, object]]:
        """Per history: every cell wrote the same rows, every run as many as its check run, every record those rows."""
        rows = []
        for history in _histories(cells):
            chosen = [c for c in cells if c.case.history == history]
            labels = {"history": history, "cells": [c.case.label for c in chosen]}
            rows.append(agreement_row(labels, chosen, chosen[0].check, _records_consistent))
        return rows

    def agrees(self, agreed: Sequence[dict]) -> bool:
        return all(a["same_rows"] and a["stable"] and a["records_consistent"] for a in agreed)

    def sections(self, cells: Sequence[LedgerCell], agreed: Sequence[dict], run) -> list[str]:
        rows = []
        for cell in cells:
            case = cell.case
            plain = next((c for c in cells if c.case == LedgerCase(case.language, case.history, "off")), cell)
            alone = plain is cell
            rows.append(
                [case.language, f"{case.history} d", case.ledger_text, protocol.times(cell)]
                + [f"{protocol.seconds(cell.median_of('compile'))} / {protocol.seconds(cell.median_of('execute'))}"]
                + ["—" if alone else f"{Ratio.of(cell, plain).median:.2f}"]
                + ["—" if alone else str(Ratio.of(cell, plain, difference=True))]
                + [f"{cell.median_of('ledger_read'):.2f}", f"{cell.median_of('ledger_record'):.2f}"]
                + ["—" if case.language == "python" else f"{cell.median_of('table_latest'):.2f}"]
                + [protocol.seconds(cell.median_of("invocation")), cell.check["rows"]]
            )
        head = ["model", "history", "ledger", "median s (runs)", "compile / execute", "× no ledger", "with − without"]
        runs = protocol.table([*head, "read s", "record s", "max in this s", "invocation s", "rows written"], rows)
        longest = max(_histories(cells))
        rows = [
            [c.case.language, c.case.ledger_text]
            + ["; ".join(f"{kind}: {_statement_label(t)} {s:.2f}" for kind, s, t in c.statements if kind != "model")]
            for c in cells
            if c.case.ledger != "off" and c.case.history == longest
        ]
        statements = protocol.table(("model", "ledger", "statements (kind: seconds)"), rows)
        rows = [
            [f"{r['history']} d", r["rows"], types_text(r["types"])]
            + [agreed_text({"ours_agree": r["same_rows"], "stable": r["stable"]})]
            + ["yes" if r["records_consistent"] else "**NO**"]
            for r in agreed
        ]
        head = ("history", "rows written", "rows per JoinType", "same rows in all cells", "records = rows written")
        retries = [f"{name}: {what}" for name, project in self.setup.projects.items() for what in project.retries]
        return self.section(
            run,
            delta_ledger=any(c.case.ledger_format == "delta" for c in cells),
            how=HOW,
            transient=TRANSIENT,
            retries="; ".join(retries) if retries else "none",
            runs=runs,
            statements=statements,
            agreement=protocol.table(head, rows),
        )

    def as_json(self, cells: Sequence[LedgerCell], agreed: Sequence[dict]) -> dict[str, list | dict]:
        """Everything in the suite's sections, machine-readable (the quick-mode test reads it)."""
        retries = {name: project.retries for name, project in self.setup.projects.items()}
        return {"ledger": setup_json(self.setup, cells, agreed, retries=retries)}


def agreement_row(labels: dict, cells: Sequence, reference: dict, consistent: Callable, same: Callable | None = None):
    """A dbt suite's row of agreement: ``labels``, the reference's rows; did every cell write them (``same``, else
    ``reference``'s rows), every run as many as its check run, are the records as expected (``consistent``)?"""
    same = same or (lambda c: same_rows(c.check, reference))
    found = {"rows": reference["rows"], "types": reference["types"], "same_rows": all(map(same, cells))}
    found.update(stable=all(c.stable for c in cells), records_consistent=all(map(consistent, cells)))
    return {**labels, **found}


def setup_json(setup: Setup, cells: Sequence[LedgerCell], agreed: Sequence[dict], **more: object) -> dict:
    """A dbt suite's set-up, cells and agreement, machine-readable."""
    found = {"records": setup.records, "setup_seconds": setup.seconds, "load": setup.load, **more}
    return {**found, "cells": cells_json(cells), "agreement": list(agreed)}


def cells_json(cells: Sequence[LedgerCell]) -> list[dict]:
    """The ledger and restated suites' cells, machine-readable (statements cut to their first 200 characters)."""
    return [
        {
            "case": asdict(c.case),
            "label": c.case.label,
            "median": c.median,
            "runs": [asdict(r) for r in c.runs],
            "check": c.check,
            "stable": c.stable,
            "statements": [[kind, s, text[:200]] for kind, s, text in c.statements],
        }
        for c in cells
    ]


def _records_consistent(cell: LedgerCell) -> bool:
    return cell.case.ledger == "off" or cell.check["record"]["consistent"]


def _histories(cells: Sequence[LedgerCell]) -> list[int]:
    return sorted({c.case.history for c in cells})
