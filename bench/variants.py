"""The few-rows suite's four variants (docs/performance.md, "The benchmark"): ``sql`` (the macro rendered once
per case by ``dbt compile --inline``, run with ``spark.sql``; every suite's), ``core``, ``peer`` (inc-join 0.1.3
from ``.bench-peer``) and ``naive`` (a full recompute), each with the same explicit window; the cases' tables and
models, shared by the suites."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from .data import DATABASE
from .labels import CODES
from .protocol import render

REPO = Path(__file__).resolve().parent.parent
PEER_DIR = REPO / ".bench-peer"
DBT_PROJECT = Path(__file__).resolve().parent / "dbt"
JOIN_COLS = ("TrxId",)
INC_COL = "RecDate"

KINDS = {"left": "LEFT OUTER", "full": "FULL OUTER", "inner": "INNER"}  # how -> the hand-written SQL's join

# Per row: the key, where it was placed, which B row, and the derived numbers (not the JoinType itself, whose
# type differs between this package (code) and the peer (name); it is compared through the counts per type).
FINGERPRINT = "sum(pmod(xxhash64(TrxId, RecDate, PaymentId, DiffArrivalTime, WaitingTime), 1000000007))"


class Raw(str):
    """A Jinja expression, written as it is."""


def jinja(value: object) -> str:
    """A Jinja literal; braces get spaces, so no '}}' closes the expression early."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{jinja(k)}: {jinja(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(jinja(v) for v in value) + "]"
    return repr(str(value) if isinstance(value, date) else value)  # str, int


def macro_call(macro: str, *inputs: str, **arguments: object) -> str:
    """The dbt model a user would write: one call of the package's ``macro`` over the benchmark's catalog tables
    ``inputs`` (bench/dbt/macros/bench_input.sql), the window given explicitly like a re-run of a past window."""
    values = [jinja(value) for value in inputs] + [f"{name}={jinja(value)}" for name, value in arguments.items()]
    return f"{{{{ dbt_inc_join.{macro}({', '.join(values)}) }}}}"


class Tables:
    """A case's catalog tables ``<prefix><name>_<history>d`` (bench/data.py's register_tables)."""

    prefix = ""
    history: int

    def table(self, name: str) -> str:
        return f"{DATABASE}.{self.prefix}{name}_{self.history}d"

    def input(self, name: str) -> Raw:
        return Raw(f"bench_input('{self.table(name).split('.')[1]}')")

    @property
    def table_a(self) -> str:
        return self.table("a")

    @property
    def table_b(self) -> str:
        return self.table("b")

    def model_sql(self) -> str:
        """The dbt model a user would write for the case (its ``arguments()``)."""
        return macro_call("inc_join", self.input("a"), self.input("b"), **self.arguments())


@dataclass(frozen=True)
class Case(Tables):
    """One measured situation: a join type, a history length, and an output window over it."""

    how: str
    history: int
    window: str  # "daily" (the last day) or "whole" (every day of the history)
    start: date
    end: date
    look_back_time: int
    max_waiting_time: int
    late_match_time: int = 0  # spec §10; the peer has no late matches, so such a case has no peer cell
    fingerprint = FINGERPRINT  # the check run's fingerprint of all output rows (an aggregate expression)

    @property
    def label(self) -> str:
        late = f" late {self.late_match_time}" if self.late_match_time else ""
        return f"{self.how} {self.window} {self.history}d{late}"

    def arguments(self) -> dict[str, object]:
        """The keyword arguments of inc_join, the same in the core and the macro."""
        join = dict(join_cols=list(JOIN_COLS), inc_col=INC_COL, how=self.how, look_back_time=self.look_back_time)
        join.update(max_waiting_time=self.max_waiting_time, late_match_time=self.late_match_time)
        return dict(join, output_window_start=self.start, output_window_end=self.end)


def core(spark, case):
    """The PySpark core over the case's two catalog tables (any case with ``arguments()``)."""
    from dbt_inc_join import inc_join

    return inc_join(spark.table(case.table_a), spark.table(case.table_b), **case.arguments())


def core_with(many_rows_per_key: bool | str):
    """``core`` with the plan of partner = 'all' forced (False: one join on the key, the window a condition;
    True: the grouped plan) or chosen by many_rows_per_key='auto' (spec §15)."""

    def build(spark, case):
        from dbt_inc_join import inc_join

        arguments = dict(case.arguments(), many_rows_per_key=many_rows_per_key)
        return inc_join(spark.table(case.table_a), spark.table(case.table_b), **arguments)

    return build


def load_peer(peer_dir: Path = PEER_DIR):
    """The peer module from the overlay directory, refusing any other ``inc_join`` on the path."""
    if not (peer_dir / "inc_join" / "__init__.py").exists():
        raise SystemExit(
            f"bench: the peer inc-join 0.1.3 is not installed in {peer_dir}; run `make bench-peer` "
            "(pip install --no-deps --target .bench-peer -r requirements/bench.txt)."
        )
    if str(peer_dir) not in sys.path:
        sys.path.insert(0, str(peer_dir))
    import inc_join as peer

    if not str(Path(peer.__file__).resolve()).startswith(str(peer_dir.resolve())):
        raise SystemExit(f"bench: imported inc_join from {peer.__file__}, expected the overlay {peer_dir}.")
    return peer


def peer(spark, case: Case):
    """inc-join 0.1.3 with the same keys, windows and output window (it has no inc_col and no late matches)."""
    assert not case.late_match_time, "the peer has no late matches"
    arguments = {k: v for k, v in case.arguments().items() if k not in ("inc_col", "late_match_time")}
    return load_peer().inc_join(spark.table(case.table_a), spark.table(case.table_b), **arguments)


def naive_sql(case: Case) -> str:
    """A full recompute (bench/sql/few_naive.sql)."""
    assert not (case.late_match_time and case.how == "full"), "the naive recompute has late matches for left and inner"
    kind = KINDS[case.how]
    lb, mw, late = case.look_back_time, case.max_waiting_time, case.late_match_time
    return render("sql/few_naive.sql", case=case, kind=kind, codes=CODES, lb=lb, mw=mw, late=late)


def naive(spark, case: Case):
    return spark.sql(naive_sql(case))


def equi(spark, case: Case):
    """The plain equi-join of the case's tables (bench/sql/few_equi.sql)."""
    return spark.sql(render("sql/few_equi.sql", case=case, kind=KINDS[case.how]))


class SqlMacro:
    """The dbt macro's SQL, rendered through dbt on the already running SparkSession, once per case."""

    # Separates the cases of one inline node; dbt renders them in a single invocation (each invocation costs
    # a project load and an adapter connection, about 1-2 s, which a benchmark of many cases need not pay).
    SEPARATOR = "-- inc_join_bench: next case"

    def __init__(self, state_dir: Path) -> None:
        from harness.local_dbt import LocalDbtProject

        self.state_dir = Path(state_dir)
        self.project = LocalDbtProject(DBT_PROJECT, self.state_dir)
        self.compiled: dict = {}  # case -> its rendered SQL
        self.compile_seconds = 0.0
        # dbt's logs and artefacts go to the run's state directory, not into the repository
        self._flags = ("--log-level", "none", "--log-path", str(self.state_dir / "dbt-logs"))
        self.project.invoke("deps", *self._flags)

    def compile(self, cases: Sequence) -> None:
        """Every case not rendered yet, in one ``dbt compile --inline`` (each case still runs its own describe and
        watermark queries, as a real run would)."""
        todo = [c for c in dict.fromkeys(cases) if c not in self.compiled]
        if not todo:
            return
        began = time.perf_counter()
        inline = f"\n{self.SEPARATOR}\n".join(c.model_sql() for c in todo)
        # no cache population: dbt would describe every table of the schema first
        target = ("--target-path", str(self.state_dir / "dbt-target"))
        result = self.project.invoke("compile", "--inline", inline, "--no-populate-cache", *target, *self._flags)
        parts = result.result.results[0].node.compiled_code.split(self.SEPARATOR)
        assert len(parts) == len(todo), f"expected {len(todo)} rendered cases, got {len(parts)}"
        self.compiled.update((case, sql.strip()) for case, sql in zip(todo, parts, strict=True))
        self.compile_seconds += time.perf_counter() - began

    def __call__(self, spark, case):
        self.compile([case])
        return spark.sql(self.compiled[case])
