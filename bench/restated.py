"""The restated-inputs suite (`--suite restated`, spec §14): what checking a run's inputs for restated units costs,
and what a redo costs, on the run ledger suite's generated dbt projects (bench/ledger.py). The cells, and how a run
"without the check" is measured (the run minus the check's own statements, timed in dbt-spark's cursor): docs/
performance.md, "Restated inputs"."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta, timezone

from pyspark.sql.types import DateType

from dbt_inc_join.io.watermark import availability_watermark
from dbt_inc_join.sql_text.time_units import TimeUnit

from .ledger import (
    SCHEMA,
    Ledger,
    LedgerCase,
    LedgerCell,
    LedgerRun,
    _drop_record,
    _statement_text,
    agreement_row,
    range_rows,
    recording,
    run_key,
    same_rows,
    set_up,
    setup_json,
)
from .protocol import (
    Cell,
    Ratio,
    Target,
    find,
    ratio_target,
    rounds,
    seconds,
    settle,
    table,
    target,
    times,
    types_text,
)
from .variants import DATABASE, INC_COL

RESTATED_SCHEMA = "inc_join_bench_restated"
REDO_DAYS = 30  # the redo's window: this many days up to the last day
CHECK_GOAL = "≤ 1.10"  # a daily run with the check / without it
FLAT_GOAL = "≤ 1.3"  # the longest history / the shortest, and many records / few
REDO_GOAL = "≤ 1.2"  # a redo / a run over the same days
HORIZON_DAYS = 30  # the horizon of the daily run that compares more units than it reads
HORIZON_GOAL = "≤ 1.5"  # a daily run with restated_horizon HORIZON_DAYS / without (it hashes 30 more days)
FILES_GOAL = "≤ 0.05"  # the test restated_inputs listing the input tables' files / a daily run (issue 40)


@dataclass(frozen=True)
class RestatedCase(LedgerCase):
    """A ledger suite case (always with the ledger, SQL) in this suite's own projects and schemas; ``run``:
    ``daily``, ``redo`` or ``window`` (the last two on the longest history's daily model)."""

    run: str = "daily"
    horizon: int = 0  # a daily run's var inc_join_restated_horizon (its own model, so its own table and property)

    @property
    def model(self) -> str:
        return super().model + (f"_h{self.horizon}" if self.horizon else "")

    @property
    def project(self) -> str:
        return f"restated-{super().project}"

    @property
    def schema(self) -> str:
        return super().schema.replace(SCHEMA, RESTATED_SCHEMA, 1)

    @property
    def label(self) -> str:
        if self.run == "daily":
            return f"daily {self.history}d, {self.ledger_text}" + (
                f", restated_horizon {self.horizon}" if self.horizon else ""
            )
        how = "var inc_join_redo_from" if self.run == "redo" else "var inc_join_output_window_start"
        return f"{REDO_DAYS} days {self.history}d, {how}"


@dataclass(frozen=True)
class RestatedRun(LedgerRun):
    """A ledger suite run, with the seconds of the check's query (the fingerprints, which also find the watermark)
    in the run; and, timed again one after the other right after the run (daily runs only), that query and the
    watermark's query it replaces."""

    check: float = 0.0
    check_alone: float = 0.0
    watermark: float = 0.0
    # daily runs of the shortest and longest history: right after, `dbt test` of the model's restated_inputs
    # with its two input tables (models/tests.yml), which lists their files (nothing changed: no unit to
    # fingerprint); the test node's execution_time and its listing statement's seconds
    files_test: float = 0.0
    listing: float = 0.0

    @property
    def check_cost(self) -> float:
        """What the check adds to the run: its query less the watermark's, timed alike."""
        return self.check_alone - self.watermark

    @property
    def without_check(self) -> float:
        return self.seconds - self.check_cost


def is_check_statement(text: str) -> bool:
    """The check's query (macros/io/_restated_run.sql: _read_units): the fingerprints of the read ranges."""
    lower = _statement_text(text).lower()
    return lower.startswith("select '") and " as input, " in lower


def alone(spark, case: RestatedCase, start: date, checks: Sequence[str]) -> tuple[float, float]:
    """Seconds of the run's check query and of the watermark's query that a run without the check sends instead
    (availability_watermark: the macro _latest_arrivals's query over DataFrames), one after the other on this
    session, in the same state: (check, watermark)."""
    began = time.perf_counter()
    for text in checks:
        spark.sql(text).collect()
    check = time.perf_counter() - began
    sides = [(spark.table(f"{DATABASE}.{side}_{case.history}d"), INC_COL, DateType()) for side in ("a", "b")]
    began = time.perf_counter()
    availability_watermark(sides, TimeUnit.DAY, start)
    return check, time.perf_counter() - began


def files_test(project, case: RestatedCase) -> tuple[float, float]:
    """The model's test restated_inputs over its input tables (bench/templates/ledger/tests.yml), after its daily
    run: (the test node's execution_time, its listing statement's seconds). dbt fails the invocation (and this
    suite) if the test finds a restated unit: the inputs never change here."""
    with recording() as statements:
        tested = project.invoke("test", "--select", f"{case.model}_files")
    [node] = tested.result.results
    listing = sum(took for sql, took in statements if "from binaryfile." in _statement_text(sql).lower())
    return node.execution_time, listing


def redo_start(last_day: date) -> date:
    return last_day - timedelta(days=REDO_DAYS - 1)


def run_variables(case: RestatedCase, last_day: date) -> dict | None:
    if case.horizon:
        return {"inc_join_restated_horizon": case.horizon}
    start = str(redo_start(last_day))
    return {"redo": {"inc_join_redo_from": start}, "window": {"inc_join_output_window_start": start}}.get(case.run)


def run_restated(spark, ledger: str, invocation: str) -> dict:
    """What the run's record says of its inputs: restated units, its redo's start, fingerprints recorded."""
    [record] = spark.sql(
        f"SELECT restated, redo_from, fingerprints FROM {ledger} WHERE invocation_id = '{invocation}'"
    ).collect()
    return {
        "restated": len(record.restated or []),
        "redo_from": str(record.redo_from.date()) if record.redo_from else None,
        "fingerprints": bool(record.fingerprints),
    }


def _overhead(cell: Cell) -> Ratio:
    return Ratio.over([r.seconds / r.without_check for r in cell.runs])


def _overhead_text(cell: Cell) -> str:
    """The overhead of a daily cell; a redo or window run has no run without the check to compare with."""
    return str(_overhead(cell)) if cell.median_of("watermark") else "—"


def _found_nothing(cell: LedgerCell) -> bool:
    """The run found no restated unit and recorded its fingerprints."""
    return cell.check["restated"]["restated"] == 0 and bool(cell.check["restated"]["fingerprints"])


class Restated(Ledger):
    name = "restated"
    timed = "dbt runs"
    before: dict  # the redo window's rows as the set-up wrote them

    def cells(self, run) -> list[LedgerCell]:
        """The cells, in the order a round runs them; quick mode (rows only, kept short for the test suite): the
        longest history's daily run, the redo and the window."""
        config = run.config
        shortest, longest = min(config.histories), max(config.histories)
        cases = [RestatedCase("sql", longest, "few")]
        if not config.quick:
            cases.insert(0, RestatedCase("sql", shortest, "few"))
            if config.ledger_records:
                cases.append(RestatedCase("sql", longest, "many", max(config.ledger_records)))
            cases.append(RestatedCase("sql", longest, "few", horizon=HORIZON_DAYS))
        cases += [RestatedCase("sql", longest, "few", run="redo"), RestatedCase("sql", longest, "few", run="window")]
        return [LedgerCell(case, "dbt", config.repeats) for case in cases]

    def measure(self, spark, cells: Sequence[LedgerCell], run) -> None:  # type: ignore[override]
        """bench/ledger.py's set-up, then round-robin over the cells; the first run of a cell is its check run. A
        daily run starts from the state bench/ledger.py's reset gives; a redo or window run's record leaves the
        ledger afterwards (untimed), so the ledger keeps its size."""
        config = run.config
        setup = set_up(spark, cells, run)
        run.phases.done("restated set-up", f" (ledger rows: {setup.records})")
        last_day = setup.last_day
        longest = max(config.histories)
        # the set-up wrote the table up to the day before the last
        before_last = last_day - timedelta(days=1)
        self.before = range_rows(spark, RestatedCase("sql", longest, "few").relation, redo_start(last_day), before_last)

        def one(cell: LedgerCell, checking: bool):
            case = cell.case
            project = setup.projects[case.project]
            if case.run == "daily":
                setup.reset(case)
            settle(spark)
            result, kinds = setup.daily_run(case, run_variables(case, last_day))
            invocation = setup.invocations[case]
            start = last_day if case.run == "daily" else redo_start(last_day)
            check = None
            if checking:
                written = range_rows(spark, case.relation, start, last_day)
                record = None
                if case.run == "daily":
                    record = setup.check_record(case, written)
                check = {**written, "record": record, "restated": run_restated(spark, project.ledger, invocation)}
                if case.run != "daily":
                    check["earlier"] = range_rows(spark, case.relation, start, last_day - timedelta(days=1))
                    check["last"] = range_rows(spark, case.relation, last_day, last_day)
                cell.statements = kinds
                rows = written["rows"]
            else:
                rows = range_rows(spark, case.relation, start, last_day)["rows"]
            if case.run != "daily":
                month = datetime.now(timezone.utc).strftime("%Y-%m")
                _drop_record(spark, project.ledger, run_key(invocation, case, start), month)
            checked = sum(s for _, s, text in kinds if is_check_statement(text))
            checks = [text for _, _, text in kinds if is_check_statement(text)]
            again = alone(spark, case, last_day, checks) if case.run == "daily" else (0.0, 0.0)
            tested = case.run == "daily" and case.ledger == "few" and not case.horizon
            listed = files_test(project, case) if tested else (0.0, 0.0)
            result = RestatedRun(**{**asdict(result), "rows": rows}, check=checked, check_alone=again[0],
                                 watermark=again[1], files_test=listed[0], listing=listed[1])  # fmt: skip
            text = f"{case.label:<52} {result.seconds:6.2f} s (check {checked:.2f} s; alone {again[0]:.2f} s, "
            text += f"its watermark {again[1]:.2f} s; files test {listed[0]:.2f} s, listing {listed[1]:.2f} s)"
            text += f"  {rows} rows"
            return result, check, None, text

        setup.load = rounds(cells, config.warmup, one, progress=run.say)
        self.setup = setup
        run.phases.done("restated runs")

    def targets(self, cells: Sequence[LedgerCell]) -> list[Target]:
        """spec §14's targets, from runs of the same rounds (docs/performance.md, "Restated inputs")."""
        found: list[Target] = []
        daily = [c for c in cells if c.case.run == "daily" and c.case.ledger == "few"]
        shortest, longest = min(c.case.history for c in daily), max(c.case.history for c in daily)
        short, long = (find(cells, run="daily", history=h, ledger="few", horizon=0) for h in (shortest, longest))
        if long is not None and long.runs:
            name = f"sql daily run, {longest} d, ledger on: with the check / without (run ÷ (run − (the check's "
            name += f"query, {long.median_of('check_alone'):.2f} s, − the watermark's query it replaces, "
            found.append(target(f"{name}{long.median_of('watermark'):.2f} s)))", _overhead(long), CHECK_GOAL))
        if shortest != longest:
            found += ratio_target(f"sql daily run with the check: {longest} d / {shortest} d of history", long,
                                  short, FLAT_GOAL)  # fmt: skip
            found += ratio_target(
                f"sql check's statements: {longest} d / {shortest} d of history", long, short, value=lambda r: r.check
            )
        for cell in (short, long) if shortest != longest else (long,):
            if cell is not None and cell.median_of("files_test"):
                name = "sql test restated_inputs listing the input tables' files (nothing changed), "
                name += (
                    f"{cell.case.history} d: the test (its listing {cell.median_of('listing'):.2f} s) / the daily run"
                )
                found.append(target(name, Ratio.within(cell, lambda r: r.files_test), FILES_GOAL))
        if shortest != longest:
            found += ratio_target(f"sql test restated_inputs listing files: {longest} d / {shortest} d of history",
                                  long, short, value=lambda r: r.files_test)  # fmt: skip
        found += ratio_target(
            f"sql daily run, {longest} d: with restated_horizon {HORIZON_DAYS} / without",
            find(cells, run="daily", ledger="few", horizon=HORIZON_DAYS),
            long,
            HORIZON_GOAL,
        )
        many = find(cells, run="daily", ledger="many")
        if many is not None:
            counted = self.setup.records
            name = f"sql daily run with the check, {longest} d: ledger of {counted.get(many.case.project)} records / "
            name += f"of {counted.get(long.case.project) if long else '?'} records"
            found += ratio_target(name, many, long, FLAT_GOAL)
        found += ratio_target(
            f"sql redo from {REDO_DAYS} days back (var inc_join_redo_from) / a run over those {REDO_DAYS} days "
            "(var inc_join_output_window_start), same table",
            find(cells, run="redo"),
            find(cells, run="window"),
            REDO_GOAL,
        )
        return found

    def agreement(self, cells: Sequence[LedgerCell]) -> list[dict[str, object]]:
        """Daily cells: the same rows on the last day in every cell, records consistent (bench/ledger.py), no
        restated unit found, fingerprints recorded. Redo and window: the rows the set-up wrote over those days;
        the redo recorded its start, the window run none."""
        daily = [c for c in cells if c.case.run == "daily"]
        reference = daily[0].check

        def consistent(c: LedgerCell) -> bool:
            return c.check["record"]["consistent"] and _found_nothing(c)

        rows = [agreement_row({"runs": "daily"}, daily, reference, consistent)]
        redone = [c for c in cells if c.case.run != "daily"]
        if redone:
            expected = {"redo": str(redo_start(self.setup.last_day)), "window": None}
            first = redone[0].check

            def same(c: LedgerCell) -> bool:
                # the days before the last as the set-up wrote them, the last day as the daily runs write it
                earlier, last = same_rows(c.check["earlier"], self.before), same_rows(c.check["last"], reference)
                return same_rows(c.check, first) and earlier and last

            def redo_recorded(c: LedgerCell) -> bool:
                return c.check["restated"]["redo_from"] == expected[c.case.run] and _found_nothing(c)

            labels = {"runs": f"redo and window, {REDO_DAYS} days"}
            rows.append(agreement_row(labels, redone, first, redo_recorded, same))
        return rows

    def agrees(self, agreed: Sequence[dict]) -> bool:
        return all(a["same_rows"] and a["stable"] and a["records_consistent"] and a["rows"] > 0 for a in agreed)

    def sections(self, cells: Sequence[LedgerCell], agreed: Sequence[dict], run) -> list[str]:
        rows = [
            [cell.case.label, times(cell)]
            + [f"{seconds(cell.median_of('compile'))} / {seconds(cell.median_of('execute'))}"]
            + [f"{cell.median_of('check'):.2f}", f"{cell.median_of('check_alone'):.2f}"]
            + [f"{cell.median_of('watermark'):.2f}", _overhead_text(cell)]
            + [f"{cell.median_of('files_test'):.2f} / {cell.median_of('listing'):.2f}"]
            + [seconds(cell.median_of("invocation")), cell.check["rows"]]
            for cell in cells
        ]
        head = ("run", "median s (runs)", "compile / execute", "check s", "check alone s", "watermark alone s")
        head += ("with / without the check", "files test s / its listing s")
        runs = table([*head, "invocation s", "rows"], rows)
        rows = [
            [cell.case.label, "; ".join(f"{_label(t)} {s:.2f}" for _, s, t in cell.statements if is_check_statement(t))]
            for cell in cells
        ]
        statements = table(("run", "the check's statements (seconds)"), rows)
        rows = [
            [r["runs"], r["rows"], types_text(r["types"]), "yes" if r["same_rows"] and r["stable"] else "**NO**"]
            + ["yes" if r["records_consistent"] else "**NO**"]
            for r in agreed
        ]
        head = ("runs", "rows", "rows per JoinType", "same rows", "records as expected")
        return self.section(
            run,
            days=REDO_DAYS,
            runs=runs,
            statements=statements,
            agreement=table(head, rows),
        )

    def as_json(self, cells: Sequence[LedgerCell], agreed: Sequence[dict]) -> dict[str, list | dict]:
        """Everything in the suite's sections, machine-readable."""
        return {"restated": setup_json(self.setup, cells, agreed)}


def _label(text: str) -> str:
    return "SELECT fingerprints (and the watermark)"
