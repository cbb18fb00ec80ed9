"""The enrich suite (`--suite enrich`, spec §12): inc_join_many of A with ``b`` and ``c`` against two chained
inc_join calls and one hand-written query (docs/performance.md, "Several inputs")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from . import protocol
from .data import COLUMNS, ensure, register_table
from .labels import CODES, LABELS
from .protocol import Cell, Suite, Target, agreed_text, find, ratio_target, types_text
from .variants import DATABASE, Tables, macro_call

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

# The output columns (inc_join_many's, which the chain and the hand-written query give too), all fingerprinted:
# which A row, where it was placed, b's partner and its code, c's aggregates and its code.
# b's partner and its code: inc_join's column -> inc_join_many's
FIRST_OUTPUT = {c: f"{c}_{FIRST.name}" for c in B_COLUMNS} | {f"{INC_COL}_B": f"{INC_COL}_{FIRST.name}"}
FIRST_OUTPUT["JoinType"] = f"JoinType_{FIRST.name}"
OUTPUT = (KEY, INC_COL, *A_COLUMNS, f"{INC_COL}_A", *FIRST_OUTPUT.values(), *dict(AGGREGATE.aggregate))
OUTPUT += (f"JoinType_{AGGREGATE.name}",)
FINGERPRINT = f"sum(pmod(xxhash64({', '.join(OUTPUT)}), 1000000007))"


@dataclass(frozen=True)
class EnrichCase(Tables):
    """One measured situation: a history length and an output window over it."""

    history: int
    window: str  # "daily" (the last day) or "whole" (every day of the history)
    start: date
    end: date
    data_first_day: date  # the generated data's first day (c has no rows on it)
    fingerprint = FINGERPRINT

    @property
    def label(self) -> str:
        return f"enrich {self.window} {self.history}d"

    def read_from(self, name: str) -> date:
        """The first day a run of ours may read of A (``name`` 'a') or of an input (spec §12)."""
        if name == "a":
            return self.start - timedelta(days=REACH)
        return self.start - timedelta(days=REACH + next(i for i in INPUTS if i.name == name).look_back_time)

    @property
    def output_window(self) -> dict[str, date]:
        return dict(output_window_start=self.start, output_window_end=self.end)

    def model_sql(self) -> str:
        inputs = input_specs("relation", lambda i: self.input(i.name))
        return macro_call("inc_join_many", self.input("a"), inputs, **self.output_window)


def input_specs(
    source_key: str, source: Callable[[Input], object], conditions: bool = False, grouped: bool = False
) -> list[dict]:
    """The inputs of inc_join_many, each with its table under ``source_key`` ('relation' in the macro, 'df' in
    Python); with ``conditions``, each with its join_cond of ``CONDITIONS``; ``grouped``: the grouped plan forced."""
    specs: list[dict[str, object]] = []
    for i in INPUTS:
        spec = dict({source_key: source(i)}, name=i.name, join_cols=[KEY], inc_col=INC_COL)
        spec.update(look_back_time=i.look_back_time, max_waiting_time=i.max_waiting_time)
        spec.update({"aggregate": dict(i.aggregate)} if i.aggregate else {"partner": "first"})
        spec.update({"many_rows_per_key": True} if grouped else {})
        specs.append({**spec, "join_cond": CONDITIONS[i.name]} if conditions else spec)
    return specs


# Variant name -> what it is, in report order
VARIANTS: dict[str, str] = {
    "sql": "the SQL macro dbt_inc_join.inc_join_many (rendered by dbt compile --inline, run with spark.sql)",
    "core": "the PySpark core dbt_inc_join.inc_join_many (each input's plan chosen, spec §15: here the plain key join)",
    "grouped": "the core with each input's grouped plan forced (many_rows_per_key=True), the plan before spec §15",
    "cond": "the core with a join_cond on each input that every pair meets, over A's Amount (nearly one value per "
    "A row) and B's columns",
    "chain": "two chained dbt_inc_join.inc_join: A with b (partner first) over [s − mw_c, e], then its output with "
    "c (aggregate) over [s, e]",
    "chain-plain": "the same chain with each step's plain key join (many_rows_per_key=False; one row per A takes "
    "the grouped plan by default)",
    "hand": "hand-written Spark SQL: each input's own read range, min_by for b, GROUP BY for c, then the rows "
    "whose latest settle time lies in [s, e]",
    "hand-row-number": "the same by hand without relying on A's keys being unique (issue 44's shape): each A row "
    "numbered with row_number() among its key and arrival, the pairs grouped by that number too, joined back",
}


def core(spark, case: EnrichCase, conditions: bool = False, grouped: bool = False):
    from dbt_inc_join import inc_join_many

    inputs = input_specs("df", lambda i: spark.table(case.table(i.name)), conditions, grouped)
    return inc_join_many(spark.table(case.table_a), inputs, **case.output_window)


def chain(spark, case: EnrichCase, plain: bool = False):
    """A with b (partner first), then its output with c (aggregate). The second step reads its A (the first
    step's rows) over [s − mw_c, e] by their output arrival, so the first step runs over that window. Each step
    takes one row per A's grouped plan, or (``plain``) the plain key join (spec §15, many_rows_per_key=False)."""
    from dbt_inc_join import inc_join

    inputs = input_specs("df_b", lambda i: spark.table(case.table(i.name)))
    plan = {"many_rows_per_key": False} if plain else {}
    b, c = ({**{k: v for k, v in spec.items() if k != "name"}, **plan} for spec in inputs)
    select = "join_cols, inc_col, df_a_cols, {}, JoinType"
    window = dict(
        output_window_start=case.start - timedelta(days=AGGREGATE.max_waiting_time), output_window_end=case.end
    )
    first = inc_join(spark.table(case.table_a), **b, how="left", **window, output_select=select.format("df_b_cols"))
    first = first.selectExpr(
        KEY, INC_COL, *A_COLUMNS, f"{INC_COL}_A AS {INC_COL}_A0", *(f"{c} AS {n}" for c, n in FIRST_OUTPUT.items())
    )
    second = inc_join(first, **c, how="left", **case.output_window, output_select=select.format("aggregates"))
    renamed = {f"{INC_COL}_A": f"{INC_COL}_A0", f"JoinType_{AGGREGATE.name}": "JoinType"}
    return second.selectExpr(*(f"{renamed[c]} AS {c}" if c in renamed else c for c in OUTPUT))


def hand_sql(case: EnrichCase, row_ids: bool = False) -> str:
    """By hand, in one statement (bench/sql/enrich_hand.sql); ``row_ids``: each A row numbered first."""
    values = dict(key=KEY, inc_col=INC_COL, a_columns=A_COLUMNS, b_columns=B_COLUMNS, b=FIRST, c=AGGREGATE)
    return protocol.render("sql/enrich_hand.sql", case=case, codes=CODES, row_ids=row_ids, **values)


class Enrich(Suite):
    name = "enrich"
    phase = "enrich "
    few_rows_data = True
    uses_sql = True
    check_first = True
    builds = {
        "core": core,
        "grouped": lambda spark, case: core(spark, case, grouped=True),
        "cond": lambda spark, case: core(spark, case, conditions=True),
        "chain": chain,
        "chain-plain": lambda spark, case: chain(spark, case, plain=True),
        "hand": lambda spark, case: spark.sql(hand_sql(case)),
        "hand-row-number": lambda spark, case: spark.sql(hand_sql(case, row_ids=True)),
    }

    def data(self, spark, run) -> None:
        """``c``: B's rows one day later, generated from the few-rows data's ``b/`` on first use, as catalog tables
        ``c_<n>d`` with the partitions of the last ``n`` days that exist (c has none on the data's first day)."""
        spec = run.spec
        df = (
            spark.read.parquet(str(run.dataset / "b"))
            .selectExpr(*B_COLUMNS[:1], KEY, *B_COLUMNS[1:], f"date_add({INC_COL}, {SHIFT_DAYS}) AS {INC_COL}")
            .where(f"{INC_COL} <= DATE'{spec.last_day}'")
        )
        content = {"few_rows": spec.key, "shift_days": SHIFT_DAYS, "generator_version": GENERATOR_VERSION}
        key, total = f"enrich_{spec.key}_v{GENERATOR_VERSION}", spec.days * spec.rows_per_day
        dataset, generated = ensure(spark, key, run.config.cache_dir, {AGGREGATE.name: df}, total, content)
        first = spec.first_day + timedelta(days=SHIFT_DAYS)
        for n in sorted({min(run.config.histories), max(run.config.histories)}):
            days = [d for d in (spec.last_day - timedelta(days=i) for i in range(n)) if d >= first]
            register_table(spark, f"{DATABASE}.{AGGREGATE.name}_{n}d", COLUMNS["b"], dataset / AGGREGATE.name, days)
        run.phases.done("data enrich", f" ({'generated' if generated else 'cached'} in {dataset})")

    def cells(self, run) -> list[Cell]:
        """The daily run over the shortest and the longest history, and the whole longest history."""
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

    def types(self, variant: str) -> dict[str, str]:
        """Rows per JoinType of each input (``b a_late``, ...)."""
        return {f"{i.name} {label}": f"JoinType_{i.name} = {code}" for i in INPUTS for code, label in LABELS.items()}

    def bounds(self, case: EnrichCase) -> dict[str, int]:
        """Per table (``a_<n>d``, ...): the partitions a run may read (read_from), within the days it holds."""
        first_a = case.end - timedelta(days=case.history - 1)
        first = {"a": first_a, FIRST.name: first_a}
        first[AGGREGATE.name] = max(first_a, case.data_first_day + timedelta(days=SHIFT_DAYS))
        names = ("a", *(i.name for i in INPUTS))
        return {f"{n}_{case.history}d": (case.end - max(case.read_from(n), first[n])).days + 1 for n in names}

    def cell_json(self, cell: Cell) -> dict[str, object]:
        bounds = self.bounds(cell.case)
        extra = {"reads": protocol.reads(cell, bounds), "reads_within_bounds": protocol.reads_within(cell, bounds)}
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
                name = f"enrich: {v} / chain of two inc_join, {window} {'history' if window == 'whole' else 'run'}"
                found += ratio_target(f"{name}, {longest} d", at(window, v), at(window, "chain"), "≤ 1.0")
        for v in ("sql", "core") if len(histories) > 1 else ():
            name = f"enrich: {v} daily run, {histories[-1]} d / {histories[0]} d of history"
            found += ratio_target(name, at("daily", v, histories[-1]), at("daily", v, histories[0]), "≤ 1.3")
        for window in ("whole", "daily"):
            name = f"enrich: join_cond on each input (over A's Amount) / none, {window}, {longest} d"
            found += ratio_target(name, at(window, "cond"), at(window, "core"), "≤ 1.3")
        found += protocol.scans_target(
            "enrich: partitions read by sql and core = A [s − max mw, e], input i [s − max mw − lb_i, e], every scan",
            [c for c in cells if c.variant in ("sql", "core", "grouped", "cond")],
            lambda c: protocol.reads_within(c, self.bounds(c.case)),
        )
        for window, v in ((w, v) for w in ("whole", "daily") for v in ("sql", "core")):
            # issue 44: this query assumes A's keys unique, which the package cannot; so 1.1, no longer 1.0
            name = f"enrich: {v} / hand-written query, {window}, {longest} d"
            found += ratio_target(name, at(window, v), at(window, "hand"), "≤ 1.1")
            name = f"enrich: {v} / hand-written query with numbered A rows (issue 44), {window}, {longest} d"
            found += ratio_target(name, at(window, v), at(window, "hand-row-number"), "≤ 1.1")
        for window in ("whole", "daily"):
            name = f"enrich: core (plan chosen) / grouped plan forced, {window}, {longest} d"
            found += ratio_target(name, at(window, "core"), at(window, "grouped"), "≤ 1.1")
            name = f"enrich: chain, one row per A's plain plan (many_rows_per_key=False) / its default, {window}, "
            found += ratio_target(f"{name}{longest} d", at(window, "chain-plain"), at(window, "chain"))
        return found

    def agrees(self, agreed: Sequence[dict]) -> bool:
        return all(a["ours_agree"] and a["stable"] and a["chain_plans_agree"] for a in agreed)

    def agreement(self, cells: Sequence[Cell]) -> list[dict[str, object]]:
        """Per case: do sql, grouped, cond and hand give the core's rows, does the chain differ, and do the chain's
        two plans agree?"""
        return protocol.agreement(
            cells,
            self.name,
            ("sql", "grouped", "cond", "hand", "hand-row-number"),
            hand_agrees=lambda ref, by: all(h in by and by[h].check == ref for h in ("hand", "hand-row-number")),
            chain=lambda ref, by: protocol.difference(ref, by["chain"].check if "chain" in by else None),
            chain_plans_agree=lambda ref, by: "chain-plain" in by and by["chain-plain"].check == by["chain"].check,
        )

    def sections(self, cells: Sequence[Cell], agreed: Sequence[dict], run) -> list[str]:
        def window_text(i: Input) -> str:
            what = f"aggregate `{dict(i.aggregate)}`" if i.aggregate else "partner='first'"
            return f"`{i.name}` ({what}, look_back_time {i.look_back_time}, max_waiting_time {i.max_waiting_time})"

        def read(c: Cell) -> list[str]:
            bounds = self.bounds(c.case)
            read = " / ".join(",".join(map(str, scans)) or "0" for scans in protocol.reads(c, bounds).values())
            return [f"{read} [{' / '.join(map(str, bounds.values()))}]"]

        rows = [
            [r["case"].label, r["rows"], types_text(r["types"]), agreed_text(r), r["chain"]]
            + ["yes" if r["chain_plans_agree"] else "**NO**"]
            for r in agreed
        ]
        return protocol.section(
            "enrich",
            spec=run.spec,
            shift=SHIFT_DAYS,
            inputs=f"{window_text(FIRST)} and {window_text(AGGREGATE)}",
            variants=VARIANTS,
            cells=protocol.variant_table(cells, ("partitions per scan A / b / c [bound]",), read),
            agreement=protocol.table(
                ("case", "rows", "rows per JoinType", "sql = core = grouped = cond = hand", "chain of two inc_join")
                + ("chain = chain-plain",),
                rows,
            ),
        )
