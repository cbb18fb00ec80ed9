"""The four ways to compute the same incremental join that the benchmark compares.

- ``sql``: this package's dbt macro. Its SQL is rendered once per case by ``dbt compile --inline`` on the
  benchmark's own SparkSession (dbt-spark ``method: session``), then each timed run executes that text with
  ``spark.sql``, as ``dbt run`` would inside its CREATE/INSERT statement.
- ``core``: this package's PySpark core, ``dbt_inc_join.inc_join``.
- ``peer``: the original library, PyPI ``inc-join`` 0.1.3 (top-level module ``inc_join``), loaded from the
  benchmark-only overlay directory ``.bench-peer`` (``make bench-peer``); never a dependency of the package.
- ``naive``: what a user without either would run: one plain outer join of all of A with all of B on the keys
  and the sliding join window, the JoinType classification, then the rows placed in the output window.

Every variant gets the same explicit window, so none resolves a watermark inside a timed run (a real run
resolves it once, with one small pruned query; the report gives the time dbt took to render all cases).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from dbt_inc_join import JoinType

REPO = Path(__file__).resolve().parent.parent
PEER_DIR = REPO / ".bench-peer"
DBT_PROJECT = Path(__file__).resolve().parent / "dbt"
DATABASE = "inc_join_bench"
JOIN_COLS = ("TrxId",)
INC_COL = "RecDate"

# JoinType codes and names (the package's JoinType table), and the peer's name for a B row without partner
# (how = full).
LABELS = {int(join_type): join_type.label for join_type in JoinType}
PEER_B_ONLY = "not_matched"

# Per row: the key, where it was placed, which B row, and the derived numbers (not the JoinType itself, whose
# type differs between this package (code) and the peer (name); it is compared through the counts per type).
FINGERPRINT = "sum(pmod(xxhash64(TrxId, RecDate, PaymentId, DiffArrivalTime, WaitingTime), 1000000007))"


@dataclass(frozen=True)
class Case:
    """One measured situation: a join type, a history length, and an output window over it."""

    how: str
    history: int
    window: str  # "daily" (the last day) or "whole" (every day of the history)
    start: date
    end: date
    look_back_time: int
    max_waiting_time: int
    late_match_time: int = 0  # spec §10; the peer has no late matches, so such a case has no peer cell

    @property
    def table_a(self) -> str:
        return f"{DATABASE}.a_{self.history}d"

    @property
    def table_b(self) -> str:
        return f"{DATABASE}.b_{self.history}d"

    @property
    def label(self) -> str:
        late = f" late {self.late_match_time}" if self.late_match_time else ""
        return f"{self.how} {self.window} {self.history}d{late}"

    @property
    def fingerprint(self) -> str:
        """The check run's fingerprint of all output rows (an aggregate expression)."""
        return FINGERPRINT

    def model_sql(self) -> str:
        """The model a user would write (window given explicitly, like a re-run of a past window)."""
        return (
            f"{{{{ dbt_inc_join.inc_join(bench_input('a_{self.history}d'), bench_input('b_{self.history}d'), "
            f"join_cols={list(JOIN_COLS)}, inc_col='{INC_COL}', how='{self.how}', "
            f"look_back_time={self.look_back_time}, max_waiting_time={self.max_waiting_time}, "
            f"late_match_time={self.late_match_time}, "
            f"output_window_start='{self.start}', output_window_end='{self.end}') }}}}"
        )


def core(spark, case: Case):
    """The PySpark core over the two catalog tables."""
    from dbt_inc_join import inc_join

    return inc_join(
        spark.table(case.table_a),
        spark.table(case.table_b),
        join_cols=list(JOIN_COLS),
        inc_col=INC_COL,
        how=case.how,
        look_back_time=case.look_back_time,
        max_waiting_time=case.max_waiting_time,
        late_match_time=case.late_match_time,
        output_window_start=case.start,
        output_window_end=case.end,
    )


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
    """inc-join 0.1.3 with the same keys, windows and output window."""
    assert not case.late_match_time, "the peer has no late matches"
    module = load_peer()
    return module.inc_join(
        spark.table(case.table_a),
        spark.table(case.table_b),
        how=case.how,
        join_cols=list(JOIN_COLS),
        look_back_time=case.look_back_time,
        max_waiting_time=case.max_waiting_time,
        output_window_start=case.start,
        output_window_end=case.end,
    )


def naive_sql(case: Case) -> str:
    """A full recompute: the outer join of everything, classified and placed as spec §3 says, then the
    window's rows. Arrivals are never NULL in the benchmark data, so a present side is a non-NULL arrival.

    With ``late_match_time`` (spec §10; how = left or inner): every A row without a B row in its window also
    pairs with each B row of its key in ``(a + mw, a + mw + L]``, code 7 at b."""
    lb, mw, late = case.look_back_time, case.max_waiting_time, case.late_match_time
    same_time, a_late, b_late = int(JoinType.SAME_TIME), int(JoinType.A_LATE), int(JoinType.B_LATE)
    a_timed_out, b_timed_out = int(JoinType.A_TIMED_OUT), int(JoinType.B_TIMED_OUT)
    kind = {"left": "LEFT OUTER", "full": "FULL OUTER", "inner": "INNER"}[case.how]
    assert not (late and case.how == "full"), "the naive recompute has late matches for how = left and inner only"
    late_rows = f"""
UNION ALL
SELECT a.TrxId, b.RecDate AS RecDate, a.AccountId, a.Amount, a.CreditDebit, a.RecDate AS RecDate_A,
       b.PaymentId, b.CountryCode, b.Status, b.RecDate AS RecDate_B,
       datediff(b.RecDate, a.RecDate) AS DiffArrivalTime, CAST(NULL AS INT) AS WaitingTime,
       {int(JoinType.LATE_MATCH)} AS JoinType
FROM {case.table_a} a
LEFT ANTI JOIN {case.table_b} w
  ON a.TrxId = w.TrxId AND w.RecDate BETWEEN date_sub(a.RecDate, {lb}) AND date_add(a.RecDate, {mw})
JOIN {case.table_b} b
  ON a.TrxId = b.TrxId AND b.RecDate > date_add(a.RecDate, {mw}) AND b.RecDate <= date_add(a.RecDate, {mw + late})
WHERE b.RecDate BETWEEN DATE'{case.start}' AND DATE'{case.end}'
"""
    return f"""
WITH pairs AS (
  SELECT a.TrxId AS a_key, b.TrxId AS b_key, a.AccountId, a.Amount, a.CreditDebit, a.RecDate AS RecDate_A,
         b.PaymentId, b.CountryCode, b.Status, b.RecDate AS RecDate_B
  FROM {case.table_a} a {kind} JOIN {case.table_b} b
    ON a.TrxId = b.TrxId AND b.RecDate BETWEEN date_sub(a.RecDate, {lb}) AND date_add(a.RecDate, {mw})
),
classified AS (
  SELECT *,
         CASE WHEN RecDate_A IS NOT NULL AND RecDate_B IS NOT NULL
                THEN CASE WHEN RecDate_B = RecDate_A THEN {same_time} WHEN RecDate_B < RecDate_A THEN {a_late}
                          ELSE {b_late} END
              WHEN RecDate_A IS NOT NULL THEN {a_timed_out} ELSE {b_timed_out} END AS JoinType,
         CASE WHEN RecDate_A IS NOT NULL AND RecDate_B IS NOT NULL THEN greatest(RecDate_A, RecDate_B)
              WHEN RecDate_A IS NOT NULL THEN date_add(RecDate_A, {mw})
              ELSE date_add(RecDate_B, {lb}) END AS RecDate
  FROM pairs
)
SELECT coalesce(a_key, b_key) AS TrxId, RecDate, AccountId, Amount, CreditDebit, RecDate_A,
       PaymentId, CountryCode, Status, RecDate_B,
       CASE WHEN JoinType IN ({same_time}, {a_late}, {b_late}) THEN datediff(RecDate_B, RecDate_A) END
         AS DiffArrivalTime,
       CASE JoinType WHEN {a_timed_out} THEN {mw} WHEN {b_timed_out} THEN {lb} END AS WaitingTime,
       JoinType
FROM classified
WHERE RecDate BETWEEN DATE'{case.start}' AND DATE'{case.end}'
{late_rows if late else ""}"""


def naive(spark, case: Case):
    return spark.sql(naive_sql(case))


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

    @staticmethod
    def model_sql(case) -> str:
        """The model a user would write for ``case`` (any case with a ``model_sql()``)."""
        return case.model_sql()

    def compile(self, cases: Sequence) -> None:
        """Render every case not rendered yet with one ``dbt compile --inline`` (each case still runs its own
        describe and watermark queries, as a real run would)."""
        todo = [c for c in dict.fromkeys(cases) if c not in self.compiled]
        if not todo:
            return
        began = time.perf_counter()
        inline = f"\n{self.SEPARATOR}\n".join(self.model_sql(c) for c in todo)
        # no cache population: dbt would describe every table of the schema first
        result = self.project.invoke(
            "compile",
            "--inline",
            inline,
            "--no-populate-cache",
            "--target-path",
            str(self.state_dir / "dbt-target"),
            *self._flags,
        )
        parts = result.result.results[0].node.compiled_code.split(self.SEPARATOR)
        assert len(parts) == len(todo), f"expected {len(todo)} rendered cases, got {len(parts)}"
        self.compiled.update((case, sql.strip()) for case, sql in zip(todo, parts, strict=True))
        self.compile_seconds += time.perf_counter() - began

    def __call__(self, spark, case):
        self.compile([case])
        return spark.sql(self.compiled[case])


def join_type_values(variant: str) -> dict[str, str]:
    """JoinType name -> the SQL literal ``variant`` writes in its JoinType column for it (the peer writes names,
    this package and the naive recompute write codes)."""
    if variant == "peer":
        return {name: f"'{name}'" for name in (*LABELS.values(), PEER_B_ONLY)}
    return {name: str(code) for code, name in LABELS.items()}


def variants() -> dict[str, Callable]:
    """Name -> function(spark, case) returning the lazy result DataFrame (the ``sql`` variant, an SqlMacro, is
    made once per run by bench/run.py)."""
    return {"core": core, "peer": peer, "naive": naive}
