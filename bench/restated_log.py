"""Restatements from the log (`--suite restated-log --format delta|iceberg`, spec §17, issue 43): what reading a
Delta or Iceberg input's log since the version the last committed run read costs a daily dbt run, at 30 and at 365
days of daily commits, beside the fingerprint check (spec §14).

Per history, input tables A and B in the format with one commit per day (one INSERT per day and table), a SQL
model with the post-hook record_run over them (its table in the format too), brought up to the day before the last
by a first run and yesterday's daily run; then the last day appended to both inputs, once, as a real day does. Each
timed run is the daily run of the last day from the same state: the reset takes the last day's rows out of the
model's table, the previous timed run's record out of the ledger, and puts back the table properties inc_join.*
yesterday's run left (fingerprints, committed run, input versions), so every run reads the same one commit per
input since the recorded version. The inputs are not touched between runs: a RESTORE or rollback would itself be a
commit in the log the next run reads. Each run is measured against the same run with the log check switched off
(var inc_join_input_logs), in the same rounds. docs/performance.md, "Restatements from the log"."""

from __future__ import annotations

import os
import re
import shutil
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from . import protocol
from .ledger import (
    LEDGER_MODEL,
    Project,
    _drop_record,
    _invocation_id,
    _statement_text,
    _without_comment,
    recording,
    run_key,
)
from .protocol import Cell, Ratio, Target, ratio_target, target
from .restated import is_check_statement
from .variants import INC_COL, REPO

SCHEMA = PROJECT = "inc_join_bench_restated_log"
ROWS_PER_DAY = 300  # A rows a day unless --rows-per-day; B about as many (the log's cost does not depend on them)
EPOCH = date(2000, 1, 1)  # day numbers from here: the same day has the same rows at every history
SHARE_GOAL = "≤ 0.03"  # the log check / the daily run (issue 43)
SWITCH_GOAL = "≤ 1.03"  # the daily run / the same run with the log check switched off (issue 74)
FLAT_GOAL = "≤ 1.3"  # the log check at the longest history / at the shortest
HOW = "left"
# The statements the log check adds per input, by how they start (macros/io/_input_versions.sql, _input_log.sql)
VERSION, LOG, AS_OF, FINGERPRINT, MODEL = "version", "log", "as_of", "fingerprint", "model"
CHECK_KINDS = (VERSION, LOG, AS_OF)  # the log check's own statements
SLOWEST = 6  # the report names this many slowest statements of a run (where its time goes)
# Since 2026-11-29 the logs ride on the fingerprint check's query (macros/io/_one_statement.sql: one UNION ALL of
# parts, each its rows as JSON); their cost is that statement's seconds less the same statement without the log
# parts, both run again after the run on the bench's session, PAIRS times alternately (median of the differences).
PART = re.compile(r"\nUNION ALL\n(?=SELECT '\w+' AS part, to_json\()")
PAIRS = 5


@dataclass(frozen=True)
class LogCase:
    """A daily run over inputs in ``table_format`` of ``history`` daily commits each; ``logs`` False: the same run
    with the log check switched off (var inc_join_input_logs), the run it is measured against."""

    table_format: str
    history: int
    logs: bool = True

    @property
    def model(self) -> str:
        return f"log_{self.history}d"

    @property
    def relation(self) -> str:
        return f"{SCHEMA}.{self.model}"

    @property
    def unique_id(self) -> str:
        return f"model.{PROJECT}.{self.model}"

    @property
    def inputs(self) -> tuple[str, str]:
        return (f"{SCHEMA}.a_{self.history}d", f"{SCHEMA}.b_{self.history}d")

    @property
    def label(self) -> str:
        return f"{self.table_format} daily {self.history}d" + ("" if self.logs else ", logs off")


@dataclass(frozen=True)
class LogRun:
    """One daily run: ``seconds`` the node's execution_time (compile + execute, post-hook included), the dbt
    invocation's wall time, and the seconds of each kind of statement (statement_kind) and of each of the log
    check's statements (statement_label), timed in dbt-spark's cursor, fetch included."""

    seconds: float
    invocation: float
    rows: int
    kinds: dict[str, float] = field(default_factory=dict)
    parts: dict[str, float] = field(default_factory=dict)
    load: float = 0.0
    riding: float = 0.0  # the logs' cost in the fingerprint check's statement (riding_cost)
    rode: bool = False  # the logs rode on it

    @property
    def log_check(self) -> float:
        return sum(self.kinds.get(kind, 0.0) for kind in CHECK_KINDS) + self.riding

    @property
    def fingerprint(self) -> float:
        return self.kinds.get(FINGERPRINT, 0.0) - self.riding

    @property
    def share(self) -> float:
        return share(self.log_check, self.seconds)


def share(part: float, whole: float) -> float:
    """``part`` seconds as a share of a run of ``whole`` seconds (0 for a run of no time)."""
    return part / whole if whole > 0 else 0.0


def statement_parts(sql: str) -> dict[str, str]:
    """The parts of a statement _one_statement sent ({part name: its SELECT}); {} for any other statement."""
    pieces = PART.split(_without_comment(sql))
    if len(pieces) < 2:
        return {}
    return {re.match(r"SELECT '(\w+)'", piece).group(1): piece for piece in pieces}  # type: ignore[union-attr]


def riding_cost(spark, sql: str, pairs: int = PAIRS) -> float:
    """The seconds the log parts add to a statement of parts: the whole statement and its ``units`` part alone, run
    ``pairs`` times alternately on ``spark`` (the same state), the median of the differences; 0 when the statement
    has no log part."""
    parts = statement_parts(sql)
    if "units" not in parts or len(parts) < 2:
        return 0.0
    differences = []
    for _ in range(pairs):
        took = []
        for text in (sql, parts["units"]):
            began = time.perf_counter()
            spark.sql(text).collect()
            took.append(time.perf_counter() - began)
        differences.append(took[0] - took[1])
    return statistics.median(differences)


def _bare(name: str) -> str:
    return name.replace("`", "").lower()


def statement_kind(sql: str, inputs: Sequence[str]) -> str:
    """What a statement of a run is, by its text: ``version`` an input's version (DESCRIBE HISTORY … LIMIT 1, the
    refs' main snapshot), ``log`` its log (DESCRIBE DETAIL, the _delta_log commit files, Iceberg's snapshots and
    manifest entries), ``as_of`` the fingerprints of candidate units as of both versions, ``fingerprint`` the
    fingerprint check's query (bench/restated.py), else ``model``. Only the inputs' statements count: the model's own
    table is in the format too (the post-hook reads its history)."""
    text = _bare(_statement_text(sql))
    if statement_parts(sql).get("units"):
        return FINGERPRINT  # the logs ride on it (riding_cost gives their share)
    if "_delta_log/" in text:
        return LOG  # since 2026-11-29 also the inputs' versions (their newest commit files), all inputs at once
    if any(f" from {name}.snapshots" in text for name in map(_bare, inputs)):
        return LOG  # Iceberg's snapshots, with main's since 2026-11-29 (the version and the log in one)
    if any(f" from {name}.entries version as of " in text for name in map(_bare, inputs)):
        return LOG  # the entries of the snapshots since (one statement for all inputs for a while on 2026-11-29)
    if is_check_statement(text):
        return AS_OF if " version as of " in text else FINGERPRINT
    for name in map(_bare, inputs):
        if text in (
            f"describe history {name} limit 1",
            f"select snapshot_id as version from {name}.refs where name = 'main'",
        ):
            return VERSION
        if text == f"describe detail {name}":
            return LOG
        if f" from {name}.all_entries where " in text or f" from {name}.entries version as of " in text:
            return LOG  # the entries of the snapshots since (all_entries until 2026-11-29, then per snapshot)
    return MODEL


def statement_label(sql: str) -> str:
    """A log check statement's short name for the report."""
    text = _bare(_statement_text(sql))
    labels = (
        ("describe history", "DESCRIBE HISTORY"),
        ("describe detail", "DESCRIBE DETAIL"),
        ("select snapshot_id as version", "refs"),
    )
    found = next((label for start, label in labels if text.startswith(start)), None)
    if found:
        return found
    if "_delta_log/" in text:
        if "/_delta_log/*.json" in text:
            return "_delta_log adds"
        return "_delta_log commits + versions" if " as input, " in text else "_delta_log commits"
    if ".all_entries " in text:
        return "all_entries"
    if ".entries version as of " in text:
        return "entries per snapshot"
    if " version as of " in text:
        return "fingerprints as of"
    return "snapshots + main" if ".refs " in text else "snapshots"


def split(statements: Sequence[Sequence], inputs: Sequence[str]) -> tuple[dict[str, float], dict[str, float]]:
    """A run's statements ([sql, seconds]) summed per kind and, of the log check's, per label."""
    kinds: dict[str, float] = {}
    parts: dict[str, float] = {}
    for sql, took in statements:
        kind = statement_kind(sql, inputs)
        kinds[kind] = kinds.get(kind, 0.0) + took
        if kind in CHECK_KINDS:
            label = statement_label(sql)
            parts[label] = parts.get(label, 0.0) + took
    return kinds, parts


def slow(statements: Sequence[tuple[str, float, str]], n: int = 0) -> list[tuple[str, float, str]]:
    """The ``n`` (default SLOWEST) slowest of a run's statements (kind, seconds, text), slowest first."""
    return sorted(statements, key=lambda s: -s[1])[: n or SLOWEST]


def _cell_text(text: str) -> str:
    """A statement's start, fit for a Markdown table cell."""
    return text[:70].replace("`", "").replace("|", "\\|")


def log_rows(config) -> int:
    """A rows a day: --rows-per-day when given, else ROWS_PER_DAY."""
    return config.rows_per_day if config.rows_given else ROWS_PER_DAY


def day_number(day: date) -> int:
    return (day - EPOCH).days


def insert_sql(table: str, side: str, day: date, rows: int = ROWS_PER_DAY) -> str:
    """One day's load of an input: A ``rows`` transactions; B their payments, a quarter of them a day late (paying
    the day before's transactions), one in 25 missing (A rows without partner)."""
    first = day_number(day) * rows
    span = f"range({first}, {first + rows})"
    if side == "a":
        amount = "CAST(pmod(id, 100000) / 100 AS DECIMAL(12, 2))"
        return f"INSERT INTO {table} SELECT id AS TrxId, {amount} AS Amount, DATE'{day}' AS {INC_COL} FROM {span}"
    trx = f"IF(pmod(id, 4) = 0, id - {rows}, id)"
    return f"INSERT INTO {table} SELECT id AS PaymentId, {trx} AS TrxId, DATE'{day}' AS {INC_COL} FROM {span} " \
        "WHERE pmod(id, 25) <> 0"  # fmt: skip


COLUMNS = {"a": "TrxId BIGINT, Amount DECIMAL(12, 2)", "b": "PaymentId BIGINT, TrxId BIGINT"}


def profile_text(project: str, schema: str) -> str:
    """bench/dbt/profiles.yml (its session, delta and iceberg outputs) under this project's name and schema."""
    text = (Path(__file__).resolve().parent / "dbt" / "profiles.yml").read_text()
    text = text.replace("\ninc_join_bench:\n", f"\n{project}:\n", 1)
    return text.replace("      schema: inc_join_bench\n", f"      schema: {schema}\n", 1)


def write_project(root: Path, cases: Sequence[LogCase], run) -> Path:
    """A dbt project with one model per case over its two inputs (the ledger suite's model and sources templates),
    its table in the run's format, with the post-hook record_run."""
    shutil.rmtree(root, ignore_errors=True)
    (root / "models").mkdir(parents=True)
    config = run.config
    values = dict(project=PROJECT, schema=SCHEMA, inc_col=INC_COL, repo=REPO, database=SCHEMA, how=HOW)
    values.update(look_back_time=config.look_back_time, max_waiting_time=config.max_waiting_time)
    values.update(histories=sorted({c.history for c in cases}), join_cols=["TrxId"], table_format=config.table_format)
    (root / "dbt_project.yml").write_text(protocol.render("templates/restated_log/dbt_project.yml", **values))
    (root / "profiles.yml").write_text(profile_text(PROJECT, SCHEMA))
    (root / "packages.yml").write_text(protocol.render("templates/ledger/packages.yml", **values))
    (root / "models" / "sources.yml").write_text(protocol.render("templates/ledger/sources.yml", **values))
    for case in cases:
        text = protocol.render("templates/ledger/model.sql.jinja", **values, history=case.history)
        (root / "models" / f"{case.model}.sql").write_text(text)
    return root


def load_days(spark, tables: dict[str, str], days: Sequence[date], rows: int = ROWS_PER_DAY, workers: int = 4) -> None:
    """One INSERT per day and table (one commit each) of ``rows`` A rows a day, the days in order within a table,
    the tables in parallel (``tables``: name -> side)."""

    def fill(item: tuple[str, str]) -> None:
        for day in days:
            spark.sql(insert_sql(item[0], item[1], day, rows))

    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(fill, tables.items()))


def inc_properties(spark, relation: str) -> dict[str, str]:
    return {k: v for k, v in spark.sql(f"SHOW TBLPROPERTIES {relation}").collect() if k.startswith("inc_join.")}


def _literal(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


@dataclass
class LogSetup:
    spark: Any
    last_day: date
    project: Project | None = None
    properties: dict[LogCase, dict[str, str]] = field(default_factory=dict)  # inc_join.* after yesterday's run
    timed: dict[str, str] = field(default_factory=dict)  # per model, its latest timed run's invocation (reset drops it)
    versions: dict[str, int] = field(default_factory=dict)  # each input's commits after the set-up
    seconds: dict[str, float] = field(default_factory=dict)
    load: list[float] = field(default_factory=list)

    def reset(self, case: LogCase) -> None:
        """Back to the state after yesterday's daily run: the last day out of the model's table, the last timed
        run's record out of the ledger, the table properties inc_join.* as yesterday's run left them."""
        spark, saved = self.spark, self.properties[case]
        spark.sql(f"DELETE FROM {case.relation} WHERE {INC_COL} = DATE'{self.last_day}'")
        if case.model in self.timed and self.project is not None:
            key = run_key(self.timed.pop(case.model), case, self.last_day)
            _drop_record(spark, self.project.ledger, key, datetime.now(timezone.utc).strftime("%Y-%m"))
        extra = [k for k in inc_properties(spark, case.relation) if k not in saved]
        if extra:
            spark.sql(f"ALTER TABLE {case.relation} UNSET TBLPROPERTIES IF EXISTS ({', '.join(map(_literal, extra))})")
        pairs = ", ".join(f"{_literal(k)} = {_literal(v)}" for k, v in saved.items())
        spark.sql(f"ALTER TABLE {case.relation} SET TBLPROPERTIES ({pairs})")

    def daily_run(self, case: LogCase) -> tuple[LogRun, list, dict]:
        """One ``dbt run --select <model>``, its statements recorded: (run, [(kind, seconds, text)], the record)."""
        assert self.project is not None
        load, began = os.getloadavg()[0], time.perf_counter()
        switch = {} if case.logs else {"vars": {"inc_join_input_logs": False}}
        with recording() as statements:
            result = self.project.invoke("run", "--select", case.model, **switch)
        invocation = time.perf_counter() - began
        self.timed[case.model] = invocation_id = _invocation_id()
        [node] = result.result.results
        kinds, parts = split(statements, case.inputs)
        rows = self.spark.table(case.relation).where(f"{INC_COL} = DATE'{self.last_day}'").count()
        ridden = [sql for sql, _ in statements if len(statement_parts(sql)) > 1]
        riding = sum(riding_cost(self.spark, sql) for sql in ridden)
        if riding:
            parts["logs riding on the fingerprint check"] = riding
        found = LogRun(node.execution_time, invocation, rows, kinds, parts, load, riding, bool(ridden))
        listed = [(statement_kind(sql, case.inputs), took, _statement_text(sql)) for sql, took in statements]
        return found, listed, self.record(invocation_id)

    def record(self, invocation_id: str) -> dict:
        """What the run's record says: restated units, input versions."""
        assert self.project is not None
        query = f"SELECT restated, input_versions FROM {self.project.ledger} WHERE invocation_id = '{invocation_id}'"
        records = self.spark.sql(query).collect()
        if len(records) != 1:
            return {"records": len(records)}
        [row] = records
        versions = {v.relation.replace("`", "").lower(): v.version for v in (row.input_versions or [])}
        return {"records": 1, "restated": len(row.restated or []), "input_versions": versions}


def newest_versions(spark, tables: Sequence[str], table_format: str) -> dict[str, str]:
    """Each table's current version: Delta's newest commit, Iceberg's main snapshot."""
    found = {}
    for table in tables:
        if table_format == "delta":
            found[table] = str(spark.sql(f"DESCRIBE HISTORY {table} LIMIT 1").first()["version"])
        else:
            found[table] = str(spark.sql(f"SELECT snapshot_id FROM {table}.refs WHERE name = 'main'").first()[0])
    return found


def set_up(spark, cases: Sequence[LogCase], run) -> LogSetup:
    """The inputs day by day up to two days before the last, the project, a first run, yesterday's load and daily
    run (its record and table properties kept), then the last day's load."""
    fmt, last, rows = run.config.table_format, run.spec.last_day, log_rows(run.config)
    setup = LogSetup(spark, last)
    began = time.perf_counter()
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {SCHEMA}")
    tables: dict[int, dict[str, str]] = {}
    for case in (c for c in cases if c.logs):  # a case with its logs off is its twin's run: the same tables
        tables[case.history] = {}
        for table, side in zip(case.inputs, ("a", "b"), strict=True):
            spark.sql(f"DROP TABLE IF EXISTS {table}")
            spark.sql(f"CREATE TABLE {table} ({COLUMNS[side]}, {INC_COL} DATE) USING {fmt} PARTITIONED BY ({INC_COL})")
            tables[case.history][table] = side
    for case in (c for c in cases if c.logs):
        days = [last - timedelta(days=n) for n in range(case.history - 1, 1, -1)]
        load_days(spark, tables[case.history], days, rows)
        run.say(f"  {case.label}: {len(days)} daily commits per input, {time.perf_counter() - began:.0f} s")
    setup.seconds["inputs"] = time.perf_counter() - began
    began = time.perf_counter()
    root = write_project(Path(run.state_dir) / "restated-log-project", [c for c in cases if c.logs], run)
    project = setup.project = Project(root, run.state_dir, SCHEMA)
    project.invoke("deps")
    project.invoke("run", "--select", LEDGER_MODEL)
    models = sorted({c.model for c in cases})
    project.invoke("run", "--select", *models)  # the first run: the whole history up to two days before the last
    everything = {t: s for c in cases for t, s in tables[c.history].items()}
    load_days(spark, everything, [last - timedelta(days=1)], rows)
    project.invoke("run", "--select", *models)  # yesterday's daily run, which records the versions it read
    for case in cases:
        setup.properties[case] = inc_properties(spark, case.relation)
    load_days(spark, everything, [last], rows)  # today's load: the one commit per input the timed runs read
    setup.seconds["runs"] = time.perf_counter() - began
    setup.versions = {t: _commits(spark, t, fmt) for t in everything}
    return setup


def _commits(spark, table: str, table_format: str) -> int:
    if table_format == "delta":
        return int(spark.sql(f"DESCRIBE HISTORY {table}").count())
    return int(spark.sql(f"SELECT count(*) FROM {table}.snapshots").first()[0])


@dataclass
class LogCell(Cell):
    statements: list[tuple[str, float, str]] = field(default_factory=list)


class RestatedLog(protocol.Suite):
    name, phase = "restated-log", "restated-log "
    setup: LogSetup

    def cells(self, run) -> list[LogCell]:
        config = run.config
        histories = sorted({min(config.histories), max(config.histories)})
        return [LogCell(LogCase(config.table_format, h, logs), "dbt", config.repeats)
                for h in histories for logs in (True, False)]  # fmt: skip

    def runs(self, config) -> list[str]:
        return [
            f"restated-log: {config.warmup} warm-up round(s), then {config.repeats} timed daily dbt runs per "
            "history, with the log check and with it switched off (var inc_join_input_logs: false), interleaved "
            "round-robin, each from the same state (reset), garbage collected before each; medians"
        ]

    def measure(self, spark, cells: Sequence[LogCell], run) -> None:  # type: ignore[override]
        setup = self.setup = set_up(spark, [c.case for c in cells], run)
        commits = ", ".join(f"{t} {n}" for t, n in setup.versions.items())
        run.phases.done("restated-log set-up", f" (commits: {commits})")

        def one(cell: LogCell, checking: bool):
            case = cell.case
            setup.reset(case)
            protocol.settle(spark)
            result, listed, record = setup.daily_run(case)
            seen = None
            if checking:
                cell.statements = listed
                seen = {"rows": result.rows, "record": record}
                seen["versions"] = newest_versions(spark, case.inputs, case.table_format)
            text = f"{case.label:<30} {result.seconds:6.2f} s (log check {result.log_check:.3f} s = "
            text += ", ".join(f"{k} {v:.3f}" for k, v in sorted(result.parts.items()))
            text += f"; fingerprints {result.fingerprint:.2f} s)  {result.rows} rows"
            return result, seen, None, text

        setup.load = protocol.rounds(cells, run.config.warmup, one, progress=run.say)
        run.phases.done("restated-log runs")

    def targets(self, cells: Sequence[LogCell]) -> list[Target]:
        found: list[Target] = []
        measured = [c for c in cells if c.runs and c.case.logs]
        for cell in measured:
            fmt, history = cell.case.table_format, cell.case.history
            off = next((c for c in cells if c.case == LogCase(fmt, history, False)), None)
            name = f"{fmt} daily run, {history} d: with the log check / switched off (same round)"
            found += ratio_target(name, cell, off, SWITCH_GOAL)
        for cell in measured:
            fmt, history = cell.case.table_format, cell.case.history
            name = f"{fmt} daily run, {history} d: the log check ({cell.median_of('log_check'):.3f} s) / the run"
            found.append(target(name, Ratio.over([r.share for r in cell.runs]), SHARE_GOAL))
        if len(measured) == 2:
            short, long = measured
            fmt, h, s = long.case.table_format, long.case.history, short.case.history
            found += ratio_target(f"{fmt} log check: {h} d / {s} d of history", long, short, FLAT_GOAL,
                                  value=lambda r: r.log_check)  # fmt: skip
            found += ratio_target(f"{fmt} daily run: {h} d / {s} d of history", long, short)
        for cell in measured:
            name = f"{cell.case.table_format} daily run, {cell.case.history} d: the log check / the fingerprint check"
            found.append(target(name, Ratio.over([share(r.log_check, r.fingerprint) for r in cell.runs])))
        return found

    def agreement(self, cells: Sequence[LogCell]) -> list[dict[str, object]]:
        """Per cell: every run wrote the check run's rows, the same rows at both histories (the same day's loads);
        the record: one, nothing restated, the inputs' current versions; every run read the log and fingerprinted
        no candidate as of both versions (a plain append day)."""
        reference = cells[0].check["rows"]
        rows = []
        for cell in cells:
            record = cell.check["record"]
            recorded = record.get("input_versions", {})
            # switched off, the run records no version and reads no log
            versions = {_bare(k): v for k, v in cell.check["versions"].items()} if cell.case.logs else {}
            rows.append(
                {
                    "suite": self.name,
                    "case": cell.case,
                    "rows": cell.check["rows"],
                    "same_rows": cell.check["rows"] == reference and reference > 0,
                    "stable": cell.stable,
                    "record": record.get("records") == 1 and record.get("restated") == 0 and recorded == versions,
                    # the log statement gives the versions too since 2026-11-29
                    "log_read": all((r.kinds.get(LOG, 0) > 0 or r.rode) == cell.case.logs for r in cell.runs),
                    "no_as_of": all(r.kinds.get(AS_OF, 0) == 0 for r in cell.runs),
                }
            )
        return rows

    def agrees(self, agreed: Sequence[dict]) -> bool:
        return all(a["same_rows"] and a["stable"] and a["record"] and a["log_read"] and a["no_as_of"] for a in agreed)

    def sections(self, cells: Sequence[LogCell], agreed: Sequence[dict], run) -> list[str]:
        labels = sorted({label for c in cells for r in c.runs for label in r.parts})
        rows = []
        for c in cells:
            loads = [r.load for r in c.runs]
            parts = [f"{statistics.median(r.parts.get(label, 0.0) for r in c.runs):.3f}" for label in labels]
            as_of = statistics.median(r.kinds.get(AS_OF, 0.0) for r in c.runs)
            rows.append(
                [c.case.label, protocol.times(c), f"{c.median_of('log_check'):.3f}"]
                + [str(Ratio.over([r.share for r in c.runs])), *parts]
                + [f"{c.median_of('fingerprint'):.2f}", f"{as_of:.3f}", protocol.seconds(c.median_of("invocation"))]
                + [f"{min(loads):.1f}–{max(loads):.1f}", c.check["rows"]]
            )
        head = ["run", "median s (runs)", "log check s", "log check / run", *(f"{label} s" for label in labels)]
        head += ["fingerprint check s", "as of both versions s", "invocation s", "load avg", "rows"]
        statements = [
            [c.case.label, "; ".join(f"{statement_label(t)} {s:.3f}" for k, s, t in c.statements if k in CHECK_KINDS)]
            for c in cells
        ]
        agree = [
            [a["case"].label, a["rows"], "yes" if a["same_rows"] and a["stable"] else "**NO**"]
            + ["yes" if a["record"] else "**NO**", "yes" if a["log_read"] else "**NO**"]
            + ["yes" if a["no_as_of"] else "**NO**"]
            for a in agreed
        ]
        commits = ", ".join(f"{t} {n}" for t, n in self.setup.versions.items())
        intro = (
            f"SQL models (how = {HOW}) with the post-hook record_run over two {cells[0].case.table_format} inputs "
            f"of one commit per day ({log_rows(run.config):,} A rows a day), the model's table in the same format; "
            "the timed run is the last day's daily run, after that day's one commit per input, from the state "
            "yesterday's daily run left (reset: the day's rows out of the table, the run's record out of the "
            "ledger, the table properties inc_join.* put back; the inputs untouched); `logs off`: the same run "
            "with the var inc_join_input_logs false. Seconds: the node's execution_time; the statements' seconds "
            "timed in dbt-spark's cursor, fetch included. `log check s`: the inputs' versions, their logs (where "
            "they ride on the fingerprint check's query: that statement less the same without them, run again "
            f"after the run {PAIRS} times alternately, the median difference) and any fingerprints as of both "
            "versions (spec §17); `fingerprint check s`: the check's query of the read ranges (spec §14), which "
            "also gives the watermark, less the logs riding on it. Commits per input table after the set-up: "
            f"{commits}. Load average (1 minute) at the start of each round: {protocol.load_text(self.setup.load)}."
        )
        lines = ["", "## Restatements from the log (spec §17)", "", intro, "", *protocol.table(head, rows), ""]
        lines += ["The log check's statements in one run (each cell's check run), seconds:", ""]
        lines += protocol.table(("run", "statements"), statements)
        slowest = [
            [c.case.label, "; ".join(f"{k}: `{_cell_text(t)}` {s:.2f}" for k, s, t in slow(c.statements))]
            for c in cells
        ]
        lines += ["", f"The {SLOWEST} slowest statements of each check run (kind: text, seconds):", ""]
        lines += protocol.table(("run", "statements"), slowest)
        lines += ["", "Do the runs agree? Rows written on the last day (the same at both histories, every run as many "
                  "as the check run); the record: one, nothing restated, the inputs' current versions (none with the "
                  "log check off); every run with the check read the inputs' versions and logs, none without it; none "
                  "fingerprinted units as of both versions.", ""]  # fmt: skip
        head = ("run", "rows", "same rows", "record as expected", "log read", "no units as of both versions")
        return lines + protocol.table(head, agree)

    def as_json(self, cells: Sequence[LogCell], agreed: Sequence[dict]) -> dict[str, list | dict]:
        found = [
            {
                "case": asdict(c.case),
                "label": c.case.label,
                "median": c.median,
                "runs": [{**asdict(r), "log_check": r.log_check, "share": r.share} for r in c.runs],
                "check": c.check,
                # every statement of the check run (where the rest of a run's time goes), the log check's in full
                "statements": [
                    [kind, s, text if kind in CHECK_KINDS else text[:300]] for kind, s, text in c.statements
                ],
            }
            for c in cells
        ]
        setup = {"versions": self.setup.versions, "setup_seconds": self.setup.seconds, "load": self.setup.load}
        rows = [{**a, "case": asdict(a["case"])} for a in agreed]
        return {"restated_log": {**setup, "cells": found, "agreement": rows}}
