"""The enrich suite (`--suite enrich`, spec §12): inc_join_many of A with ``b`` and ``c`` against two chained
inc_join calls and one hand-written query (docs/performance.md, "Several inputs")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from .data import COLUMNS, DataSpec, ensure, register_table
from .protocol import (
    Cell,
    Check,
    Suite,
    Target,
    agreed_text,
    agreement,
    difference,
    find,
    joins,
    measure,
    ratio_target,
    reads,
    reads_within,
    render,
    scans_target,
    section,
    table,
    times,
    types_text,
    variant_rows,
    versus_core,
)
from .variants import DATABASE, LABELS

GENERATOR_VERSION = 1
KEY = "TrxId"
INC_COL = "RecDate"
A_COLUMNS = ("AccountId", "Amount", "CreditDebit")  # besides the key and the arrival
B_COLUMNS = ("PaymentId", "CountryCode", "Status")  # besides the key and the arrival (the same in c)
SHIFT_DAYS = 1  # c: B's rows, arriving this many days later


@dataclass(frozen=True)
class Input:
    """One enrichment of A."""

    name: str  # names the input's columns and its table (<name>_<n>d)
    look_back_time: int
    max_waiting_time: int
    aggregate: tuple[tuple[str, str], ...] = ()  # () : partner='first'


FIRST = Input("b", 2, 4)
AGGREGATE = Input(
    "c", 1, 2, (("n", "count(*)"), ("settled", "count_if(Status = 'settled')"), ("last_payment", "max(PaymentId)"))
)
INPUTS = (FIRST, AGGREGATE)
REACH = max(i.max_waiting_time for i in INPUTS)  # A's read reaches back max mw_i
# join_cond per input for the cond variant: true for every pair of these data (Amount is in [0, 100000),
# PaymentId >= 0), which Spark cannot know, so nothing is folded away
CONDITIONS = {
    FIRST.name: "a.Amount >= 0 AND b.PaymentId >= 0",
    AGGREGATE.name: "a.Amount < 100000 OR b.Status = 'settled'",
}

# JoinType codes per input (spec §3, §11, §12)
SAME_TIME, A_LATE, B_LATE, A_TIMED_OUT, A_AGGREGATED = 1, 2, 3, 4, 8
# The output columns (inc_join_many's, which the chain and the hand-written query give too), all fingerprinted:
# which A row, where it was placed, b's partner and its code, c's aggregates and its code.
OUTPUT = (
    KEY,
    INC_COL,
    *A_COLUMNS,
    f"{INC_COL}_A",
    *(f"{c}_{FIRST.name}" for c in B_COLUMNS),
    f"{INC_COL}_{FIRST.name}",
    f"JoinType_{FIRST.name}",
    *(name for name, _ in AGGREGATE.aggregate),
    f"JoinType_{AGGREGATE.name}",
)
FINGERPRINT = f"sum(pmod(xxhash64({', '.join(OUTPUT)}), 1000000007))"


@dataclass(frozen=True)
class EnrichCase:
    """One measured situation: a history length and an output window over it."""

    history: int
    window: str  # "daily" (the last day) or "whole" (every day of the history)
    start: date
    end: date
    data_first_day: date  # the generated data's first day (c has no rows on it)

    def table(self, name: str) -> str:
        return f"{DATABASE}.{name}_{self.history}d"

    @property
    def table_a(self) -> str:
        return self.table("a")

    @property
    def label(self) -> str:
        return f"enrich {self.window} {self.history}d"

    @property
    def fingerprint(self) -> str:
        return FINGERPRINT

    def read_from(self, name: str) -> date:
        """The first day a run of ours may read of A (``name`` 'a') or of an input (spec §12)."""
        if name == "a":
            return self.start - timedelta(days=REACH)
        return self.start - timedelta(days=REACH + next(i for i in INPUTS if i.name == name).look_back_time)

    def bounds(self) -> dict[str, int]:
        """Per table (``a_<n>d``, ...): the partitions a run may read, within the days the table holds."""
        first_a = self.end - timedelta(days=self.history - 1)
        first = {
            "a": first_a,
            FIRST.name: first_a,
            AGGREGATE.name: max(first_a, self.data_first_day + timedelta(days=SHIFT_DAYS)),
        }
        return {
            f"{name}_{self.history}d": (self.end - max(self.read_from(name), first[name])).days + 1
            for name in ("a", *(i.name for i in INPUTS))
        }

    def model_sql(self) -> str:
        """The dbt model a user would write for this case."""
        inputs = input_specs("relation", lambda i: _Raw(f"bench_input('{i.name}_{self.history}d')"))
        return (
            f"{{{{ dbt_inc_join.inc_join_many(bench_input('a_{self.history}d'), {_jinja(inputs)}, "
            f"output_window_start='{self.start}', output_window_end='{self.end}') }}}}"
        )


def input_specs(
    source_key: str, source: Callable[[Input], object], conditions: bool = False
) -> list[dict[str, object]]:
    """The inputs of inc_join_many, each with its table under ``source_key`` ('relation' in the macro, 'df' in
    Python); with ``conditions``, each with its join_cond of ``CONDITIONS``."""
    specs: list[dict[str, object]] = []
    for i in INPUTS:
        spec: dict[str, object] = {
            source_key: source(i),
            "name": i.name,
            "join_cols": [KEY],
            "inc_col": INC_COL,
            "look_back_time": i.look_back_time,
            "max_waiting_time": i.max_waiting_time,
        }
        if i.aggregate:
            spec["aggregate"] = dict(i.aggregate)
        else:
            spec["partner"] = "first"
        if conditions:
            spec["join_cond"] = CONDITIONS[i.name]
        specs.append(spec)
    return specs


class _Raw(str):
    """A Jinja expression, written as it is."""


def _jinja(value: object) -> str:
    """A Jinja literal; braces get spaces, so no '}}' closes the expression early."""
    if isinstance(value, _Raw):
        return str(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_jinja(k)}: {_jinja(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_jinja(v) for v in value) + "]"
    return repr(value)  # str, int


# Variant name -> what it is, in report order
VARIANTS: dict[str, str] = {
    "sql": "the SQL macro dbt_inc_join.inc_join_many (rendered by dbt compile --inline, run with spark.sql)",
    "core": "the PySpark core dbt_inc_join.inc_join_many",
    "cond": "the core with a join_cond on each input that every pair meets, over A's Amount (nearly one value per "
    "A row) and B's columns",
    "chain": "two chained dbt_inc_join.inc_join: A with b (partner first) over [s − mw_c, e], then its output with "
    "c (aggregate) over [s, e]",
    "hand": "hand-written Spark SQL: each input's own read range, min_by for b, GROUP BY for c, then the rows "
    "whose latest settle time lies in [s, e]",
}


def core(spark, case: EnrichCase, conditions: bool = False):
    from dbt_inc_join import inc_join_many

    inputs = input_specs("df", lambda i: spark.table(case.table(i.name)), conditions)
    return inc_join_many(spark.table(case.table_a), inputs, output_window_start=case.start, output_window_end=case.end)


def cond(spark, case: EnrichCase):
    return core(spark, case, conditions=True)


def chain(spark, case: EnrichCase):
    """A with b (partner first), then its output with c (aggregate). The second step reads its A (the first
    step's rows) over [s − mw_c, e] by their output arrival, so the first step runs over that window."""
    from dbt_inc_join import inc_join

    first = inc_join(
        spark.table(case.table_a),
        spark.table(case.table(FIRST.name)),
        join_cols=[KEY],
        inc_col=INC_COL,
        how="left",
        look_back_time=FIRST.look_back_time,
        max_waiting_time=FIRST.max_waiting_time,
        partner="first",
        output_window_start=case.start - timedelta(days=AGGREGATE.max_waiting_time),
        output_window_end=case.end,
        output_select="join_cols, inc_col, df_a_cols, df_b_cols, JoinType",
    ).selectExpr(
        KEY,
        INC_COL,
        *A_COLUMNS,
        f"{INC_COL}_A AS {INC_COL}_A0",
        *(f"{c} AS {c}_{FIRST.name}" for c in B_COLUMNS),
        f"{INC_COL}_B AS {INC_COL}_{FIRST.name}",
        f"JoinType AS JoinType_{FIRST.name}",
    )
    second = inc_join(
        first,
        spark.table(case.table(AGGREGATE.name)),
        join_cols=[KEY],
        inc_col=INC_COL,
        how="left",
        look_back_time=AGGREGATE.look_back_time,
        max_waiting_time=AGGREGATE.max_waiting_time,
        aggregate=dict(AGGREGATE.aggregate),
        output_window_start=case.start,
        output_window_end=case.end,
        output_select="join_cols, inc_col, df_a_cols, aggregates, JoinType",
    )
    renamed = {f"{INC_COL}_A": f"{INC_COL}_A0", f"JoinType_{AGGREGATE.name}": "JoinType"}
    return second.selectExpr(*(f"{renamed[c]} AS {c}" if c in renamed else c for c in OUTPUT))


def hand_sql(case: EnrichCase) -> str:
    """By hand, in one statement (bench/sql/enrich_hand.sql)."""
    codes = dict(SAME_TIME=SAME_TIME, A_LATE=A_LATE, B_LATE=B_LATE, A_TIMED_OUT=A_TIMED_OUT, A_AGGREGATED=A_AGGREGATED)
    values = dict(key=KEY, inc_col=INC_COL, a_columns=A_COLUMNS, b_columns=B_COLUMNS, b=FIRST, c=AGGREGATE)
    return render("sql/enrich_hand.sql", case=case, codes=codes, **values)


# --- data


def dataset_key(spec: DataSpec) -> str:
    """The cache directory of the enrichment ``c`` of the few-rows dataset ``spec``."""
    return f"enrich_{spec.key}_v{GENERATOR_VERSION}"


def ensure_data(spark, spec: DataSpec, few_rows: Path, cache_dir: Path) -> Path:
    """The directory holding ``c/`` (B's rows one day later), generated from the few-rows data's ``b/`` on first
    use, then reused."""
    df = (
        spark.read.parquet(str(few_rows / "b"))
        .selectExpr(*B_COLUMNS[:1], KEY, *B_COLUMNS[1:], f"date_add({INC_COL}, {SHIFT_DAYS}) AS {INC_COL}")
        .where(f"{INC_COL} <= DATE'{spec.last_day}'")
    )
    content = {"few_rows": spec.key, "shift_days": SHIFT_DAYS, "generator_version": GENERATOR_VERSION}
    total = spec.days * spec.rows_per_day
    return ensure(spark, dataset_key(spec), cache_dir, {AGGREGATE.name: df}, total, content)


def register(spark, dataset: Path, spec: DataSpec, histories: Sequence[int]) -> None:
    """Catalog tables ``c_<n>d`` over the dataset's files, each with the partitions of the last ``n`` days that
    exist (c has none on the data's first day), like bench/data.py's register_tables."""
    first = spec.first_day + timedelta(days=SHIFT_DAYS)
    for n in histories:
        days = [d for d in (spec.last_day - timedelta(days=i) for i in range(n)) if d >= first]
        register_table(spark, f"{DATABASE}.{AGGREGATE.name}_{n}d", COLUMNS["b"], dataset / AGGREGATE.name, days)


class Enrich(Suite):
    name = "enrich"
    few_rows_data = True
    uses_sql = True

    def data(self, spark, run) -> None:
        cached = (run.config.cache_dir.resolve() / dataset_key(run.spec) / "_COMPLETE.json").exists()
        dataset = ensure_data(spark, run.spec, run.dataset, run.config.cache_dir)
        register(spark, dataset, run.spec, sorted({min(run.config.histories), max(run.config.histories)}))
        run.phases.done("data enrich", f" ({'cached' if cached else 'generated'} in {dataset})")

    def cells(self, run) -> list[Cell]:
        """The daily run over the shortest and the longest history and the whole longest history, each case's
        variants next to each other."""
        histories, spec, config = run.config.histories, run.spec, run.config
        last = spec.last_day
        cases = [EnrichCase(h, "daily", last, last, spec.first_day) for h in sorted({min(histories), max(histories)})]
        whole = EnrichCase(max(histories), "whole", last - timedelta(days=max(histories) - 1), last, spec.first_day)
        cells = [Cell(case, v, config.repeats) for case in cases for v in VARIANTS]
        return cells + [Cell(whole, v, config.whole_repeats) for v in VARIANTS]

    def runs(self, config) -> list[str]:
        return [
            f"enrich suite: daily, then whole-history phase; in each one untimed check run per cell, which "
            f"counts as the first of {max(config.warmup, 1)} warm-up round(s), then {config.repeats} timed runs "
            f"per daily cell and {config.whole_repeats} per whole-history cell, interleaved round-robin"
        ]

    def builders(self, run) -> dict[str, Callable]:
        return {"sql": run.sql, "core": core, "cond": cond, "chain": chain, "hand": lambda s, c: s.sql(hand_sql(c))}

    def measure(self, spark, cells: Sequence[Cell], run) -> None:
        """The daily phase, then the whole-history phase: in each, one check run per cell (sequential; it is also
        the phase's first warm-up round), then the remaining warm-up rounds and the timed runs, interleaved."""
        chosen = self.builders(run)
        for window in ("daily", "whole"):
            phase = [c for c in cells if c.case.window == window]
            if not phase:
                continue
            for cell in phase:
                cell.check = check(spark, chosen[cell.variant], cell.case)
                cell.warmups += 1
                run.say(f"  check run: {cell.case.label:<22} {cell.variant:<5} {cell.check.rows} rows")
            warmup = max(run.config.warmup - 1, 0)
            measure(spark, chosen, phase, warmup, not run.config.quick, self.types, run.say)
            run.phases.done(f"enrich {window} runs")

    def bounds(self, case: EnrichCase) -> dict[str, int]:
        return case.bounds()

    def cell_json(self, cell: Cell) -> dict[str, object]:
        bounds = self.bounds(cell.case)
        extra = {"reads": reads(cell, bounds), "reads_within_bounds": reads_within(cell, bounds)}
        return {**super().cell_json(cell), **extra}

    def targets(self, cells: Sequence[Cell]) -> list[Target]:
        if not cells:
            return []
        histories = sorted({c.case.history for c in cells if c.case.window == "daily"})
        longest = max(c.case.history for c in cells)

        def at(window: str, variant: str, history: int = longest) -> Cell | None:
            return find(cells, variant, window=window, history=history)

        found = []
        for window in ("whole", "daily"):
            for v in ("sql", "core"):
                what = "history" if window == "whole" else "run"
                name = f"enrich: {v} / chain of two inc_join, {window} {what}, {longest} d"
                found += ratio_target(name, at(window, v), at(window, "chain"), "≤ 1.0")
        if len(histories) > 1:
            for v in ("sql", "core"):
                name = f"enrich: {v} daily run, {histories[-1]} d / {histories[0]} d of history"
                found += ratio_target(name, at("daily", v, histories[-1]), at("daily", v, histories[0]), "≤ 1.3")
        for window in ("whole", "daily"):
            name = f"enrich: join_cond on each input (over A's Amount) / none, {window}, {longest} d"
            found += ratio_target(name, at(window, "cond"), at(window, "core"), "≤ 1.3")
        found += scans_target(
            "enrich: partitions read by sql and core = A [s − max mw, e], input i [s − max mw − lb_i, e], every scan",
            [c for c in cells if c.variant in ("sql", "core", "cond")],
            lambda c: reads_within(c, self.bounds(c.case)),
        )
        for window in ("whole", "daily"):
            name = f"enrich: hand-written / core, {window}, {longest} d"
            found += ratio_target(name, at(window, "hand"), at(window, "core"), reported="—")
        return found

    def agreement(self, cells: Sequence[Cell]) -> list[dict[str, object]]:
        """Per case: do sql, cond and hand give the core's rows (count, per JoinType of each input, fingerprint),
        and does the chain differ?"""
        return agreement(
            cells,
            self.name,
            ("sql", "cond", "hand"),
            hand_agrees=lambda ref, by: "hand" in by and by["hand"].check == ref,
            chain=lambda ref, by: difference(ref, by["chain"].check if "chain" in by else None),
        )

    def sections(self, cells: Sequence[Cell], agreed: Sequence[dict], run) -> list[str]:
        spec = run.spec

        def window_text(i: Input) -> str:
            what = f"aggregate `{dict(i.aggregate)}`" if i.aggregate else "partner='first'"
            return f"`{i.name}` ({what}, look_back_time {i.look_back_time}, max_waiting_time {i.max_waiting_time})"

        def columns(c: Cell, core_cell: Cell) -> list[object]:
            bounds = self.bounds(c.case)
            read = " / ".join(",".join(map(str, scans)) or "0" for scans in reads(c, bounds).values())
            return [c.case.label, c.variant, times(c), versus_core(c, core_cell), c.check.rows] + [
                f"{read} [{' / '.join(map(str, bounds.values()))}]",
                c.plan.shuffles,
                c.plan.broadcasts,
                joins(c),
            ]

        head = ["case", "variant", "median s", "× core", "rows", "partitions per scan A / b / c [bound]"]
        rows = [[r["case"].label, r["rows"], types_text(r["types"]), agreed_text(r), r["chain"]] for r in agreed]
        return section(
            "enrich",
            spec=spec,
            shift=SHIFT_DAYS,
            inputs=f"{window_text(FIRST)} and {window_text(AGGREGATE)}",
            variants=VARIANTS,
            cells=table([*head, "shuffles", "broadcasts", "joins"], variant_rows(cells, columns)),
            agreement=table(("case", "rows", "rows per JoinType", "sql = core = hand", "chain of two inc_join"), rows),
        )


def check(spark, build: Callable, case: EnrichCase) -> Check:
    """One untimed run: rows, rows per JoinType of each input (``b a_late``, ...) and the fingerprint."""
    from pyspark.sql import functions as F

    counts = [
        F.expr(f"count_if(JoinType_{i.name} = {code})").alias(f"{i.name} {label}")
        for i in INPUTS
        for code, label in LABELS.items()
    ]
    row = build(spark, case).agg(F.count(F.lit(1)).alias("rows"), F.expr(FINGERPRINT).alias("fp"), *counts).first()
    types = {name: int(row[name]) for name in row.asDict() if name not in ("rows", "fp") and row[name]}
    return Check(int(row["rows"]), types, int(row["fp"] or 0))
