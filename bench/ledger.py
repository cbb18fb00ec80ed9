"""The run ledger's suite (`--suite ledger`, spec §13): a daily dbt run with and without the post-hook
``record_run``, on generated dbt projects (bench/templates/ledger/); docs/performance.md, "Run ledger"."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from .protocol import (
    Cell,
    Ratio,
    Suite,
    Target,
    agreed_text,
    load_text,
    ratio_target,
    render,
    rounds,
    seconds,
    section,
    settle,
    table,
    times,
    types_text,
)
from .variants import DATABASE, FINGERPRINT, INC_COL, JOIN_COLS, LABELS, REPO

PROJECT = "inc_join_bench_ledger"
SCHEMA = "inc_join_bench_ledger"
LEDGER_MODEL = "dbt_inc_join_runs"
HOW = "left"
LANGUAGES = ("sql", "python")
OVERHEAD_GOAL = "≤ 1 s"  # a daily run may take at most this much longer with the ledger
FLAT_GOAL = "≤ 1.3"  # the longest history / the shortest, and many records / few


@dataclass(frozen=True)
class LedgerCase:
    """One measured situation: a model's language, its history, and its ledger: ``off`` (no post-hook), ``few``
    (the ledger holds only this benchmark's runs) or ``many`` (pre-filled with ``records`` records)."""

    language: str
    history: int
    ledger: str
    records: int = 0

    @property
    def model(self) -> str:
        return f"{self.language}_{'plain' if self.ledger == 'off' else 'ledger'}_{self.history}d"

    @property
    def project(self) -> str:
        return f"r{self.records}" if self.ledger == "many" else "few"

    @property
    def schema(self) -> str:
        return f"{SCHEMA}_r{self.records}" if self.ledger == "many" else SCHEMA

    @property
    def relation(self) -> str:
        return f"{self.schema}.{self.model}"

    @property
    def unique_id(self) -> str:
        return f"model.{PROJECT}.{self.model}"

    @property
    def ledger_text(self) -> str:
        return {"off": "no ledger", "few": "ledger", "many": f"ledger of {self.records} records"}[self.ledger]

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
    rows: int
    # the SQL model's query of the latest output arrival in its own table (max(inc_col) in this, spec §6 and §13),
    # which reads every partition of the table; a Python model runs it in its code, through Spark (not seen: 0)
    table_latest: float = 0.0

    @property
    def ledger_seconds(self) -> float:
        return self.ledger_read + self.ledger_record


@dataclass
class LedgerCell(Cell):
    """A cell of daily dbt runs (``variant`` 'dbt'): ``check`` is a dict, the rows written and, with the ledger, its
    record; ``statements`` the check run's (kind, seconds, text)."""

    statements: list[tuple[str, float, str]] = field(default_factory=list)


def build_cells(histories: Sequence[int], records: Sequence[int], repeats: int, quick: bool) -> list[LedgerCell]:
    """The cells, in the order a round runs them: per language, each history without and with the ledger, then the
    longest history on each pre-filled ledger. Quick mode: the SQL model on the longest history, without and with
    the ledger (the quick test checks the records, never timings)."""
    longest = max(histories)
    if quick:
        cases = [LedgerCase("sql", longest, "off"), LedgerCase("sql", longest, "few")]
    else:
        cases = []
        for language in LANGUAGES:
            for history in sorted({min(histories), longest}):
                cases += [LedgerCase(language, history, "off"), LedgerCase(language, history, "few")]
            cases += [LedgerCase(language, longest, "many", n) for n in records]
    return [LedgerCell(case, "dbt", repeats) for case in cases]


# --- the generated dbt projects ---------------------------------------------------------------------------------


def write_project(root: Path, schema: str, cases: Sequence[LedgerCase], histories: Sequence[int], join: dict) -> Path:
    """A dbt project with one model per case (``models/plain/`` without the post-hook, ``models/ledger/`` with
    it) over the benchmark's catalog tables (source ``bench``, schema inc_join_bench)."""
    if root.exists():
        shutil.rmtree(root)
    (root / "models" / "plain").mkdir(parents=True)
    (root / "models" / "ledger").mkdir(parents=True)
    files = {"dbt_project.yml": "", "profiles.yml": "", "packages.yml": "", "sources.yml": "models/"}
    values = dict(project=PROJECT, schema=schema, inc_col=INC_COL, repo=REPO, database=DATABASE, how=HOW)
    values.update(join, histories=sorted(set(histories)), join_cols=list(JOIN_COLS))
    for name, folder in files.items():
        (root / folder / name).write_text(render(f"templates/ledger/{name}", **values))
    for case in cases:
        folder = root / "models" / ("plain" if case.ledger == "off" else "ledger")
        suffix = "sql" if case.language == "sql" else "py"
        text = render(f"templates/ledger/model.{suffix}.jinja", **values, history=case.history)
        (folder / f"{case.model}.{suffix}").write_text(text)
    return root


# The embedded Derby metastore now and then fails a partition filter Spark pushes down to it (also seen by
# tests/integration/test_ledger.py, macros/ledger/_ledger.sql): an invocation failing with it is run again.
TRANSIENT = "INTERNAL_ERROR_HIVE_METASTORE_PARTITION_FILTER"
ATTEMPTS = 3


class Project:
    """One generated project, driven through harness.local_dbt with its own target and log paths."""

    def __init__(self, root: Path, state_dir: Path, schema: str) -> None:
        from harness.local_dbt import LocalDbtProject

        self.schema = schema
        self.dbt = LocalDbtProject(root, state_dir)
        self.dbt.target_path = Path(state_dir) / f"dbt-target-{root.name}"
        self.dbt.log_path = Path(state_dir) / f"dbt-logs-{root.name}"
        self.flags = ("--log-level", "none")
        self.retries: list[str] = []  # the invocations run again after TRANSIENT

    @property
    def ledger(self) -> str:
        return f"{self.schema}.{LEDGER_MODEL}"

    def invoke(self, *args: str, retry: bool = True, **kwargs):
        """One dbt invocation; raises on failure, but on TRANSIENT runs it again (up to ATTEMPTS), or with
        ``retry=False`` returns the failed result (the caller undoes the run and runs it again)."""
        from harness.local_dbt import failure_text

        for attempt in range(1, ATTEMPTS + 1):
            result = self.dbt.invoke(*args, *self.flags, expect_success=False, **kwargs)
            if result.success:
                return result
            text = failure_text(result)
            if TRANSIENT not in text or attempt == ATTEMPTS:
                raise RuntimeError(f"dbt {' '.join(args)} failed: {text}")
            self.retries.append(" ".join(args))
            if not retry:
                return result
        raise AssertionError("unreachable")


# --- timing the ledger's statements -------------------------------------------------------------------------------


class StatementTimes:
    """Seconds of every statement dbt-spark's session cursor runs, fetch included (a query's work happens in
    ``fetchall``, after dbt's own query timer stopped), in order: (sql, seconds)."""

    def __init__(self) -> None:
        self.statements: list[list] = []

    @contextmanager
    def recording(self) -> Iterator[StatementTimes]:
        from dbt.adapters.spark import session

        cursor = session.Cursor
        originals = {name: getattr(cursor, name) for name in ("execute", "fetchall", "fetchone")}
        statements = self.statements

        def execute(this, sql, *parameters):
            began = time.perf_counter()
            try:
                return originals["execute"](this, sql, *parameters)
            finally:
                statements.append([sql, time.perf_counter() - began])

        def fetching(name):
            def fetch(this):
                began = time.perf_counter()
                try:
                    return originals[name](this)
                finally:
                    if statements:
                        statements[-1][1] += time.perf_counter() - began

            return fetch

        from dbt_inc_join.python_models.submission import BaseInProcessHelper

        submit = BaseInProcessHelper.submit

        def submitting(this, compiled_code):
            began = time.perf_counter()
            try:
                return submit(this, compiled_code)
            finally:
                statements.append([PYTHON_CODE, time.perf_counter() - began])

        cursor.execute = execute  # type: ignore[method-assign]
        cursor.fetchall = fetching("fetchall")  # type: ignore[method-assign]
        cursor.fetchone = fetching("fetchone")  # type: ignore[method-assign]
        BaseInProcessHelper.submit = submitting  # type: ignore[method-assign]
        try:
            yield self
        finally:
            for name, original in originals.items():
                setattr(cursor, name, original)
            BaseInProcessHelper.submit = submit  # type: ignore[method-assign]


PYTHON_CODE = "<the Python model's code>"  # the marker StatementTimes records for a Python model's run


def _statement_text(sql: str) -> str:
    """The statement on one line, without dbt's leading query comment (/* {"app": "dbt", ...} */)."""
    text = " ".join(str(sql).split())
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
        if lower.startswith((f"insert overwrite table {relation} ", f"create table {relation} ")):
            written = True
            kind = "model"
        elif lower.startswith(f"insert overwrite table {ledger} "):
            kind = "record"
        elif lower.startswith("show tblproperties") or (lower.startswith("select") and f" from {ledger} " in lower):
            kind = "record" if written else "read"
        elif written and lower.startswith("describe") and lower.endswith(f" {relation}"):
            kind = "record"
        elif written and lower.startswith(("select", f"alter table {relation} set tblproperties")):
            kind = "record"  # the rows per JoinType the run wrote; the table property inc_join.committed
        else:
            kind = "model"
        kinds.append((kind, took, text))
    return kinds


# --- one run --------------------------------------------------------------------------------------------------


def run_key(invocation_id: str, case: LedgerCase, day: date) -> str:
    """A record's partition (macros/ledger/_run_record.sql, _ledger_insert_sql: invocation, model, window start)."""
    return f"{invocation_id}/{case.unique_id}/{day} 00:00:00"


def reset(spark, case: LedgerCase, ledger: str, last_day: date, previous_invocation: str | None) -> None:
    """Back to the state before the daily run: the last day's partition out of the model's table and, with the
    ledger, the previous run's record out of the ledger (its own run_key partition) and the table property
    inc_join.committed as yesterday's daily run left it (the set-up's first run covered the whole history; a daily
    run's window is its day)."""
    spark.sql(f"ALTER TABLE {case.relation} DROP IF EXISTS PARTITION ({INC_COL} = DATE'{last_day}')")
    if case.ledger != "off":
        if previous_invocation:
            key = run_key(previous_invocation, case, last_day)
            _drop_record(spark, ledger, key, datetime.now(timezone.utc).strftime("%Y-%m"))
        yesterday = last_day - timedelta(days=1)
        rows = spark.table(case.relation).where(f"{INC_COL} = DATE'{yesterday}'").count()
        committed = json.dumps(
            {
                "window_start": f"{yesterday} 00:00:00",
                "window_end": f"{yesterday} 00:00:00",
                "rows_total": rows,
                "run_key": f"bench/{case.unique_id}/{yesterday} 00:00:00",
            }
        )
        spark.sql(f"ALTER TABLE {case.relation} SET TBLPROPERTIES ('inc_join.committed' = '{committed}')")


def _drop_record(spark, ledger: str, key: str, month: str | None = None) -> None:
    """A record's partition out of the ledger; a partition is named by both levels, so without ``month`` (a
    record of this benchmark's runs: this month) it is looked up first."""
    months = (
        [month]
        if month
        else [
            r[0] for r in spark.sql(f"SELECT DISTINCT recorded_month FROM {ledger} WHERE run_key = '{key}'").collect()
        ]
    )
    for found in months:
        spark.sql(f"ALTER TABLE {ledger} DROP IF EXISTS PARTITION (recorded_month = '{found}', run_key = '{key}')")


def _is_latest_query(text: str, relation: str) -> bool:
    lower = text.lower()
    # from the last committed window's start on when the model records its runs (the macro _committed_state)
    return lower.startswith("select date_format(max(") and (
        lower.endswith(f" from {relation}") or f" from {relation} where " in lower
    )


def _invocation_id() -> str:
    """The id of the dbt invocation that just ended (dbt keeps it until the next one starts)."""
    from dbt_common.invocation import get_invocation_id

    return get_invocation_id()


def daily_run(
    spark, project: Project, case: LedgerCase, last_day: date, variables: dict | None = None
) -> tuple[LedgerRun, str, list[tuple[str, float, str]]]:
    """One ``dbt run --select <model>``: its timings, its invocation id, and its classified statements. A run
    failing with TRANSIENT is undone (reset) and run again; only the run that succeeded is timed."""
    for _ in range(ATTEMPTS):
        times = StatementTimes()
        began = time.perf_counter()
        with times.recording():
            result = project.invoke("run", "--select", case.model, retry=False, vars=variables)
        invocation = time.perf_counter() - began
        if result.success:
            break
        reset(spark, case, project.ledger, last_day, _invocation_id())
    else:
        raise RuntimeError(f"dbt run --select {case.model} failed {ATTEMPTS} times with {TRANSIENT}")
    [node] = result.result.results
    phases = {t.name: (t.completed_at - t.started_at).total_seconds() for t in node.timing}
    kinds = classify(times.statements, case.relation, project.ledger)
    run = LedgerRun(
        seconds=node.execution_time,
        compile=phases.get("compile", 0.0),
        execute=phases.get("execute", 0.0),
        invocation=invocation,
        ledger_read=sum(s for kind, s, _ in kinds if kind == "read"),
        ledger_record=sum(s for kind, s, _ in kinds if kind == "record"),
        rows=0,
        table_latest=sum(s for kind, s, text in kinds if kind == "model" and _is_latest_query(text, case.relation)),
    )
    return run, _invocation_id(), kinds


def _last_day_rows(spark, case: LedgerCase, last_day: date):
    return spark.table(case.relation).where(f"{INC_COL} = DATE'{last_day}'")


def written_rows(spark, case: LedgerCase, last_day: date) -> dict:
    """The rows in the table's last-day partition: count, per JoinType name, fingerprint."""
    rows = _last_day_rows(spark, case, last_day)
    types = {LABELS[int(r[0])]: int(r[1]) for r in rows.groupBy("JoinType").count().collect()}
    fingerprint = rows.selectExpr(f"{FINGERPRINT} AS f").first()[0]
    return {"rows": sum(types.values()), "types": types, "fingerprint": int(fingerprint or 0)}


def check_record(spark, case: LedgerCase, ledger: str, invocation_id: str, last_day: date, written: dict) -> dict:
    """The run's records in the ledger: exactly one, under the run_key reset() drops, for the last day, with the
    rows the run wrote."""
    records = spark.sql(
        f"SELECT run_key, relation, window_start, window_end, empty, rows_total, join_type_rows FROM {ledger} "
        f"WHERE invocation_id = '{invocation_id}'"
    ).collect()
    found: dict = {"records": len(records)}
    if len(records) == 1:
        record = records[0]
        found.update(
            run_key_as_expected=record.run_key == run_key(invocation_id, case, last_day),
            relation=record.relation,
            window=[str(record.window_start.date()), str(record.window_end.date())],
            empty=bool(record.empty),
            rows_total=int(record.rows_total),
            join_type_rows={LABELS[int(k)]: int(v) for k, v in (record.join_type_rows or {}).items()},
        )
    found["consistent"] = (
        found["records"] == 1
        and found["run_key_as_expected"]
        and found["relation"] == case.relation
        and found["window"] == [str(last_day), str(last_day)]
        and not found["empty"]
        and found["rows_total"] == written["rows"]
        and found["join_type_rows"] == written["types"]
    )
    return found


# --- set-up -------------------------------------------------------------------------------------------------------


@dataclass
class Setup:
    projects: dict[str, Project]
    last_day: date
    invocations: dict[LedgerCase, str]  # the latest run's invocation id per case (reset drops its record)
    records: dict[str, int]  # rows in each project's ledger after the set-up
    seconds: dict[str, float]
    load: list[float] = field(default_factory=list)  # the 1-minute load average at the start of each round


def set_up(
    spark,
    state_dir: Path,
    cells: Sequence[LedgerCell],
    histories: Sequence[int],
    last_day: date,
    join: dict,
    progress: Callable[[str], None] = print,
) -> Setup:
    """Per project: its files, ``dbt deps``, its ledger table, and each model's table up to the day before the
    last (one first run of all its models with var inc_join_output_window_end); then the pre-filled ledgers."""
    cases = [cell.case for cell in cells]
    projects: dict[str, Project] = {}
    seconds: dict[str, float] = {}
    invocations: dict[LedgerCase, str] = {}
    for name in dict.fromkeys(c.project for c in cases):
        began = time.perf_counter()
        chosen = [c for c in cases if c.project == name]
        root = write_project(Path(state_dir) / f"ledger-project-{name}", chosen[0].schema, chosen, histories, join)
        project = Project(root, state_dir, chosen[0].schema)
        project.invoke("deps")
        project.invoke("run", "--select", LEDGER_MODEL)  # record_run would create it on the first record too
        project.invoke(
            "run",
            "--select",
            *(c.model for c in chosen),
            vars={"inc_join_output_window_end": str(last_day - timedelta(days=1))},
        )
        invocations.update((case, _invocation_id()) for case in chosen)
        projects[name] = project
        records = chosen[0].records
        if records:
            prefill(spark, project, chosen, records)
        seconds[name] = time.perf_counter() - began
        progress(
            f"  ledger set-up: project {name}, first runs of {len(chosen)} models"
            + (f", ledger pre-filled to {records} records" if records else "")
            + f": {seconds[name]:.1f} s"
        )
    counted = {name: spark.table(p.ledger).count() for name, p in projects.items()}
    return Setup(projects, last_day, invocations, counted, seconds)


def prefill(spark, project: Project, cases: Sequence[LedgerCase], records: int) -> None:
    """A ledger after many recorded runs: the first model's first-run record replaced by one committed record per
    day of its table (that day's rows per JoinType, as daily runs would have recorded them), then synthetic
    records of other models (relation <schema>.other_<i>, a year of daily records each) up to about ``records``
    rows in all. Each record is a partition of its own, like a real record."""
    ledger = project.ledger
    columns = spark.table(ledger).columns
    first = cases[0]
    for row in spark.sql(f"SELECT DISTINCT run_key FROM {ledger} WHERE relation = '{first.relation}'").collect():
        _drop_record(spark, ledger, row.run_key)
    table_id = _table_property(spark, first.relation, "inc_join.table_id")
    own = _daily_records_sql(first.relation, f"'{first.relation}'", f"'{first.unique_id}'", table_id, columns)
    spark.sql(f"INSERT INTO {ledger} PARTITION (recorded_month, run_key) {own}")
    days = spark.table(first.relation).select(INC_COL).distinct().count()
    copies = round(max(0, records - spark.table(ledger).count()) / days)
    if copies:
        other = "concat('{}', CAST(copy.id AS STRING))"
        others = _daily_records_sql(
            first.relation,
            other.format(f"{project.schema}.other_"),
            other.format("model.other.other_"),
            "synthetic",
            columns,
            copies,
        )
        spark.sql(f"INSERT INTO {ledger} PARTITION (recorded_month, run_key) {others}")


def _daily_records_sql(
    source: str, relation: str, model: str, table_id: str, columns: Sequence[str], copies: int = 0
) -> str:
    """One committed record per day of ``source``'s table (bench/sql/ledger_records.sql)."""
    values = dict(source=source, relation=relation, model=model, table_id=table_id, columns=columns, copies=copies)
    return render("sql/ledger_records.sql", inc_col=INC_COL, **values)


def _table_property(spark, relation: str, key: str) -> str:
    for row in spark.sql(f"SHOW TBLPROPERTIES {relation}").collect():
        if row[0] == key:
            return row[1]
    raise AssertionError(f"{relation} has no table property {key}")


# --- the suite ----------------------------------------------------------------------------------------------------


def _cell(cells: Sequence[LedgerCell], case: LedgerCase) -> LedgerCell | None:
    return next((c for c in cells if c.case == case), None)


def _histories(cells: Sequence[LedgerCell]) -> list[int]:
    return sorted({c.case.history for c in cells})


class Ledger(Suite):
    name = "ledger"
    few_rows_data = True
    setup: Setup

    def runs(self, config) -> list[str]:
        return [
            f"ledger suite: {config.warmup} warm-up round(s) discarded, then {config.repeats} timed daily dbt runs "
            "per cell, interleaved round-robin, garbage collected before each; medians"
        ]

    def cells(self, run) -> list[LedgerCell]:
        config = run.config
        return build_cells(config.histories, config.ledger_records, config.repeats, config.quick)

    def measure(self, spark, cells: Sequence[LedgerCell], run) -> None:  # type: ignore[override]
        """The set-up, then round-robin over the cells (protocol.rounds); the first run of a cell is its check
        run. Every run starts from the same state (reset) and after garbage collection (settle)."""
        config = run.config
        join = {"look_back_time": config.look_back_time, "max_waiting_time": config.max_waiting_time}
        setup = set_up(spark, run.state_dir, cells, config.histories, run.spec.last_day, join, run.say)
        run.phases.done("ledger set-up", f" (ledger rows: {setup.records})")

        def one(cell: LedgerCell, checking: bool):
            case = cell.case
            project = setup.projects[case.project]
            reset(spark, case, project.ledger, setup.last_day, setup.invocations.get(case))
            settle(spark)
            result, invocation, kinds = daily_run(spark, project, case, setup.last_day)
            setup.invocations[case] = invocation
            check = None
            if checking:
                written = written_rows(spark, case, setup.last_day)
                record = None
                if case.ledger != "off":
                    record = check_record(spark, case, project.ledger, invocation, setup.last_day, written)
                check = {**written, "record": record}
                cell.statements = kinds
                rows = written["rows"]
            else:
                rows = _last_day_rows(spark, case, setup.last_day).count()
            result = replace(result, rows=rows)
            text = (
                f"{case.label:<40} {result.seconds:6.2f} s (ledger read {result.ledger_read:.2f} s, record "
                f"{result.ledger_record:.2f} s)  {rows} rows"
            )
            return result, check, None, text

        setup.load = rounds(cells, config.warmup, one, progress=run.say)
        self.setup = setup
        run.phases.done("ledger runs")

    def targets(self, cells: Sequence[LedgerCell]) -> list[Target]:
        """The ledger's targets from runs of the same rounds (docs/performance.md, "Run ledger"): the overhead with −
        without (absolute: the ledger adds a fixed number of statements whatever the model's size), flat in history and
        in the ledger's size."""
        found: list[Target] = []
        histories = _histories(cells)
        shortest, longest = histories[0], histories[-1]
        for language in dict.fromkeys(c.case.language for c in cells):

            def at(history: int, ledger: str, records: int = 0, language=language) -> LedgerCell | None:
                return _cell(cells, LedgerCase(language, history, ledger, records))

            for history in histories:
                on, off = at(history, "few"), at(history, "off")
                if on is None or off is None:
                    continue
                name = f"{language} daily run, {history} d: with the ledger − without (× without: "
                name += f"{Ratio.of(on, off).median:.2f})"
                found += ratio_target(name, on, off, OVERHEAD_GOAL, difference=True)
            if len(histories) > 1:
                for ledger, goal in (("few", FLAT_GOAL), ("off", None)):
                    name = f"{language} daily run {'with' if ledger == 'few' else 'without'} the ledger: "
                    found += ratio_target(
                        f"{name}{longest} d / {shortest} d of history", at(longest, ledger), at(shortest, ledger), goal
                    )
                found += ratio_target(
                    f"{language} ledger's own statements (start-from-ledger read + record): {longest} d / "
                    f"{shortest} d of history",
                    at(longest, "few"),
                    at(shortest, "few"),
                    FLAT_GOAL,
                    value=lambda r: r.ledger_seconds,
                )
            for records in sorted({c.case.records for c in cells if c.case.ledger == "many"}):
                many, few = at(longest, "many", records), at(longest, "few")
                if many is None or few is None:
                    continue
                found += ratio_target(
                    f"{language} daily run with the ledger, {longest} d: ledger of {records} records / of "
                    f"this benchmark's few (start-from-ledger read {many.median_of('ledger_read'):.2f} s / "
                    f"{few.median_of('ledger_read'):.2f} s)",
                    many,
                    few,
                    FLAT_GOAL,
                )
        return found

    def agreement(self, cells: Sequence[LedgerCell]) -> list[dict[str, object]]:
        """Per history: every cell (SQL and Python, with and without the ledger) wrote the same rows; every run as
        many as its check run; every record of a check run is the rows its run wrote."""
        rows = []
        for history in _histories(cells):
            chosen = [c for c in cells if c.case.history == history]
            reference = chosen[0].check
            written = [(c.check["rows"], c.check["types"], c.check["fingerprint"]) for c in chosen]
            same = all(w == (reference["rows"], reference["types"], reference["fingerprint"]) for w in written)
            rows.append(
                {
                    "history": history,
                    "cells": [c.case.label for c in chosen],
                    "rows": reference["rows"],
                    "types": reference["types"],
                    "same_rows": same,
                    "stable": all(c.stable for c in chosen),
                    "records_consistent": all(
                        c.check["record"]["consistent"] for c in chosen if c.case.ledger != "off"
                    ),
                }
            )
        return rows

    def agrees(self, agreed: Sequence[dict]) -> bool:
        return all(a["same_rows"] and a["stable"] and a["records_consistent"] for a in agreed)

    def sections(self, cells: Sequence[LedgerCell], agreed: Sequence[dict], run) -> list[str]:
        setup = self.setup
        rows = []
        for cell in cells:
            case = cell.case
            plain = _cell(cells, LedgerCase(case.language, case.history, "off"))
            alone = plain is None or plain is cell
            rows.append(
                [case.language, f"{case.history} d", case.ledger_text, times(cell)]
                + [f"{seconds(cell.median_of('compile'))} / {seconds(cell.median_of('execute'))}"]
                + ["—" if alone else f"{Ratio.of(cell, plain).median:.2f}"]
                + ["—" if alone else str(Ratio.of(cell, plain, difference=True))]
                + [f"{cell.median_of('ledger_read'):.2f}", f"{cell.median_of('ledger_record'):.2f}"]
                + ["—" if case.language == "python" else f"{cell.median_of('table_latest'):.2f}"]
                + [seconds(cell.median_of("invocation")), cell.check["rows"]]
            )
        head = ["model", "history", "ledger", "median s (runs)", "compile / execute", "× no ledger", "with − without"]
        runs = table([*head, "read s", "record s", "max in this s", "invocation s", "rows written"], rows)
        longest = max(_histories(cells))
        rows = [
            [
                cell.case.language,
                cell.case.ledger_text,
                "; ".join(
                    f"{kind}: {_statement_label(t)} {s:.2f}" for kind, s, t in cell.statements if kind != "model"
                ),
            ]
            for cell in cells
            if cell.case.ledger != "off" and cell.case.history == longest
        ]
        statements = table(("model", "ledger", "statements (kind: seconds)"), rows)
        rows = [
            [f"{r['history']} d", r["rows"], types_text(r["types"])]
            + [agreed_text({"ours_agree": r["same_rows"], "stable": r["stable"]})]
            + ["yes" if r["records_consistent"] else "**NO**"]
            for r in agreed
        ]
        head = ("history", "rows written", "rows per JoinType", "same rows in all cells", "records = rows written")
        return section(
            "ledger",
            how=HOW,
            records=", ".join(f"{name} {n}" for name, n in setup.records.items()),
            load=load_text(setup.load),
            transient=TRANSIENT,
            retries=_retries(setup),
            runs=runs,
            statements=statements,
            agreement=table(head, rows),
            quick=run.config.quick,
        )

    def as_json(self, cells: Sequence[LedgerCell], agreed: Sequence[dict]) -> dict[str, list | dict]:
        """Everything in the suite's sections, machine-readable (the quick-mode test reads it)."""
        setup = self.setup
        return {
            "ledger": {
                "records": setup.records,
                "setup_seconds": setup.seconds,
                "load": setup.load,
                "retries": {name: project.retries for name, project in setup.projects.items()},
                "cells": [
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
                ],
                "agreement": list(agreed),
            }
        }


def _retries(setup: Setup) -> str:
    retried = [f"{name}: {what}" for name, project in setup.projects.items() for what in project.retries]
    return "; ".join(retried) if retried else "none"


def _statement_label(text: str) -> str:
    """A short name for one of the ledger's statements."""
    lower = text.lower()
    if lower.startswith("show tblproperties"):
        return "SHOW TBLPROPERTIES"
    if lower.startswith("describe"):
        return "DESCRIBE"
    if lower.startswith("insert"):
        return "INSERT"
    if lower.startswith("alter"):
        return "ALTER TABLE"
    if lower.startswith("select") and " from " in lower and " group by " in lower:
        return "SELECT rows per JoinType"
    if lower.startswith("select"):
        return "SELECT ledger"
    return text.split(" ")[0]
