"""The few-rows suite (`--suite few-rows`): a daily run against the length of the history, and the four variants
of bench/variants.py (the SQL macro, the core, the peer inc-join 0.1.3, a full recompute) on the longest history,
daily and over the whole history; with late matches (spec §10), the left join's SQL macro and core again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from . import formats, protocol
from .data import DataSpec, ensure_dataset, register_tables
from .labels import PEER_B_ONLY
from .protocol import MEMORY, Cell, Ratio, Suite, Target, agreed_text, find, ratio_target
from .variants import Case, core, core_with, equi, naive, peer

OURS = ("sql", "core")
VARIANTS = ("sql", "core", "peer", "naive")
LATE_HOW = "left"
PHASES = (
    "daily windows first, then whole-history windows; in each phase {config.warmup} warm-up round(s) discarded, "
    "then {config.repeats} timed runs per daily cell and {config.whole_repeats} per whole-history cell, interleaved "
    "round-robin, garbage collected before each; medians"
)


class FewRows(Suite):
    name = "few-rows"
    few_rows_data = True
    uses_sql = True
    builds = {"core": core, "core-plain": core_with(False), "peer": peer, "naive": naive, "equi": equi}

    def data(self, spark, run) -> None:
        """With --format: the few-rows tables of the shortest and longest history copied into the format."""
        if run.config.table_format:
            histories = (min(run.config.histories), max(run.config.histories))
            formats.copy_tables(spark, run.config.table_format, "", histories, run.say)
            run.phases.done(f"{run.config.table_format} tables")

    def cells(self, run) -> list[Cell]:
        """Cells compared with each other next to each other, the full recompute last; then the late-match cases,
        their naive recompute once, as the reference. With --format: bench/formats.py's cells."""
        config, last = run.config, run.spec.last_day
        if config.table_format:
            return formats.cells(run, formats.FormatCase, (min(config.histories), max(config.histories)))
        longest = max(config.histories)
        join = dict(look_back_time=config.look_back_time, max_waiting_time=config.max_waiting_time)
        whole_start = last - timedelta(days=longest - 1)
        cells = []
        for how in config.hows:
            cells += [
                Cell(Case(how, h, "daily", last, last, **join), v, config.repeats)
                for v in VARIANTS
                for h in config.histories
            ]
            whole = Case(how, longest, "whole", whole_start, last, **join)
            cells += [Cell(whole, v, config.whole_repeats) for v in VARIANTS]
            # spec §15: the core's default (many_rows_per_key='auto') against the plain plan it should choose here
            daily = Case(how, longest, "daily", last, last, **join)
            cells += [Cell(c, "core-plain", n) for c, n in ((daily, config.repeats), (whole, config.whole_repeats))]
        if not (config.late_match_time and LATE_HOW in config.hows):
            return cells
        late = dict(join, late_match_time=config.late_match_time)
        for history in config.histories:
            case = Case(LATE_HOW, history, "daily", last, last, **late)
            cells += [Cell(case, v, config.repeats) for v in OURS]
            if history == longest:
                cells.append(Cell(case, "naive", 1, skip_warmup=True))
        whole = Case(LATE_HOW, longest, "whole", whole_start, last, **late)
        cells += [Cell(whole, v, config.whole_repeats) for v in OURS]
        return cells + [Cell(whole, "naive", 1, skip_warmup=True)]

    def runs(self, config) -> list[str]:
        return [PHASES.format(config=config)]

    def types(self, variant: str) -> dict[str, str]:
        return {} if variant == "equi" else super().types(variant)

    def agrees(self, agreed: Sequence[dict]) -> bool:
        if agreed and "parquet" in agreed[0]:
            return formats.agrees(agreed)
        return super().agrees(agreed)

    def cell_json(self, cell: Cell) -> dict[str, object]:
        found = {**super().cell_json(cell), "bounds": list(self.bounds(cell.case).values())}
        return found | {"load": [r.load for r in cell.runs]} if isinstance(cell.case, formats.FormatCase) else found

    def targets(self, cells: Sequence[Cell]) -> list[Target]:
        """The issue's targets, each a ratio of times measured in the same run (median of the per-round ratios)."""
        if isinstance(cells[0].case, formats.FormatCase):
            return formats.targets(cells, self.bounds)
        histories = sorted({c.case.history for c in cells})
        shortest, longest = histories[0], histories[-1]
        hows = list(dict.fromkeys(c.case.how for c in cells if not c.case.late_match_time))

        def at(how, window, history, variant, late=0):
            return find(cells, variant, how=how, window=window, history=history, late_match_time=late)

        def flat(name: str, how: str, v: str, late: int = 0) -> list[Target]:
            return ratio_target(name, at(how, "daily", longest, v, late), at(how, "daily", shortest, v, late), "≤ 1.3")

        found = [
            t
            for how in hows
            for v in OURS
            for t in flat(f"{v} daily run, {how}: {longest} d / {shortest} d of history", how, v)
        ]
        # one scan per input, and with late matches two (A's slice and B's keys and arrivals again in the anti-join
        # that finds the timed-out A rows)
        found += protocol.scans_target(
            "partitions read by sql and core = spec §4 bounds, one scan per input (two with late matches)",
            [c for c in cells if c.variant in OURS],
            lambda c: protocol.reads_within(c, self.bounds(c.case), 2 if c.case.late_match_time else 1),
        )
        for x, y, goal in (("core", "peer", "≤ 1.0"), ("sql", "core", "≤ 1.25"), ("core", "core-plain", "≤ 1.1")):
            for how in hows:
                for window in ("daily", "whole"):
                    name = f"{x} / {y}, {how}, {window} window"
                    found += ratio_target(name, at(how, window, longest, x), at(how, window, longest, y), goal)
        for how in hows:
            for v in OURS:
                name = f"full recompute / {v} daily run, {how}, {longest} d"
                found += ratio_target(name, at(how, "daily", longest, "naive"), at(how, "daily", longest, v), "≥ 10")
        # Issue 13's targets for late matches (spec §10): the daily run stays flat in history, and the whole
        # history costs at most 1.75 times the same join without late matches. Deciding which A rows timed out is
        # one more join of A's slice with B's keys and arrivals (an anti-join, shuffled like the main join), so a
        # whole-history run does close to twice the join work.
        late = max((c.case.late_match_time for c in cells), default=0)
        for how in sorted({c.case.how for c in cells if c.case.late_match_time}):
            for v in OURS:
                found += flat(
                    f"{v} daily run, {how}, late_match_time {late}: {longest} d / {shortest} d of history", how, v, late
                )
            for v in OURS:
                name = f"{v} whole history, {how}: late_match_time {late} / 0"
                found += ratio_target(name, at(how, "whole", longest, v, late), at(how, "whole", longest, v), "≤ 1.75")
        return found

    def agreement(self, cells: Sequence[Cell]) -> list[dict[str, object]]:
        """Per case: do sql, core and naive give the same rows? And how does the peer differ?"""
        if isinstance(cells[0].case, formats.FormatCase):
            return formats.agreement(cells, self.name)

        def peer(reference, by_variant) -> str:
            if "peer" in by_variant:
                return protocol.difference(reference, by_variant["peer"].check)
            return "no late matches" if next(iter(by_variant.values())).case.late_match_time else "not run"

        def order(k):
            return (k.late_match_time, k.how, k.window, k.history)

        return protocol.agreement(cells, self.name, ("sql", "naive"), order, peer=peer)

    def sections(self, cells: Sequence[Cell], agreed: Sequence[dict], run) -> list[str]:
        if isinstance(cells[0].case, formats.FormatCase):
            title = f"A daily run and the whole history on {run.config.table_format} beside parquet"
            return formats.sections(cells, agreed, self.bounds, title)
        histories = sorted({c.case.history for c in cells})
        longest = histories[-1]
        hows = list(dict.fromkeys(c.case.how for c in cells if not c.case.late_match_time))
        plain = [c for c in cells if not c.case.late_match_time]
        rows = []
        for how in hows:
            for variant in VARIANTS:
                daily = [find(plain, variant, how=how, window="daily", history=h) for h in histories]
                if any(c is None for c in daily):
                    continue
                last = daily[-1]
                (ta, a), (tb, b) = self.bounds(last.case).items()
                plan = last.plan
                rows.append(
                    [how, variant, *(protocol.seconds(c.median) for c in daily), Ratio.of(last, daily[0])]
                    + [f"{plan.read(ta)} [{a}]", f"{plan.read(tb)} [{b}]"]
                    + [f"{plan.read(ta, 'files')} / {plan.read(tb, 'files')}"]
                )
        head = ["how", "variant", *(f"{h} d" for h in histories), f"{longest} d / {histories[0]} d"]
        history = protocol.table([*head, "A partitions [bound]", "B partitions [bound]", "A / B files"], rows)
        rows = []
        for how in hows:
            for window in ("daily", "whole"):
                core = find(plain, "core", how=how, window=window, history=longest)
                for variant in VARIANTS:
                    c = find(plain, variant, how=how, window=window, history=longest)
                    if c is None:
                        continue
                    ta, tb = self.bounds(c.case)
                    p = c.plan
                    reads = [f"{p.read(ta, 'scans')} / {p.read(tb, 'scans')}", f"{p.read(ta)} / {p.read(tb)}"]
                    rows.append(
                        [how, window, variant, protocol.times(c), f"{Ratio.of(c, core).median:.2f}", c.check.rows]
                        + [*reads, *p.exchanges("Shuffle", "Broadcast", "Reused"), protocol.joins(c)]
                    )
        head = ["how", "window", "variant", "median s", "× core", "rows", "scans A / B", "partitions A / B"]
        variants = protocol.table([*head, "shuffles", "broadcasts", "reused exchanges", "joins"], rows)
        late = max((c.case.late_match_time for c in cells), default=0)
        rows = [[row["case"].label, row["rows"], agreed_text(row), row["peer"]] for row in agreed]
        return protocol.section(
            "few",
            history=history,
            longest=longest,
            variants=variants,
            late=late,
            late_table=self._late_table(cells, histories) if late else [],
            agreement=protocol.table(("case", "rows", "sql = core = naive", "peer (inc-join 0.1.3)"), rows),
            peer_b_only=PEER_B_ONLY if any(PEER_B_ONLY in r["peer"] for r in agreed) else "",
        )

    @staticmethod
    def _late_table(cells: Sequence[Cell], histories: list[int]) -> list[str]:
        """The late-match cases' runs next to the same runs without late matches."""
        late = max(c.case.late_match_time for c in cells)
        longest = histories[-1]
        rows = []
        for how in sorted({c.case.how for c in cells if c.case.late_match_time}):
            for v in OURS:

                def at(window, history, lmt, v=v, how=how):
                    return find(cells, v, how=how, window=window, history=history, late_match_time=lmt)

                daily = [at("daily", h, late) for h in histories]
                whole = at("whole", longest, late)
                rows.append(
                    [how, v, *(protocol.seconds(c.median) for c in daily), Ratio.of(daily[-1], at("daily", longest, 0))]
                    + [protocol.seconds(whole.median), Ratio.of(whole, at("whole", longest, 0))]
                    + [f"{daily[-1].check.types.get('late_match', 0)} / {whole.check.types.get('late_match', 0)}"]
                )
        head = ["how", "variant", *(f"daily {h} d" for h in histories), f"daily {longest} d × L = 0", "whole"]
        return protocol.table([*head, "whole × L = 0", "late_match rows daily / whole"], rows)


class BigCase(Case):
    prefix = "big_"  # the tables of ten times the data


class Big(FewRows):
    """Ten times the data (`--suite big`, issue 29): 10 × --rows-per-day A rows a day, the first how; SQL macro and
    core daily on the shortest and longest history and over the whole history, a plain equi-join beside the
    latter; each run's peak memory from Spark's executor metrics."""

    name, phase, few_rows_data, memory = "big", "big ", False, True
    builds = {"core": core, "equi": equi}

    def data(self, spark, run) -> None:
        spec = DataSpec(run.config.days, 10 * run.config.rows_per_day)
        dataset, generated = ensure_dataset(spark, spec, run.config.cache_dir)
        histories = (min(run.config.histories), spec.days)
        register_tables(spark, dataset, spec, histories, prefix=BigCase.prefix)
        self.rows_per_day = spec.rows_per_day
        run.phases.done("big data", f" ({'generated' if generated else 'cached'} in {dataset})")
        if run.config.table_format:
            formats.copy_tables(spark, run.config.table_format, BigCase.prefix, histories, run.say)
            run.phases.done(f"big {run.config.table_format} tables")

    def cells(self, run) -> list[Cell]:
        config, last = run.config, run.spec.last_day
        join = dict(look_back_time=config.look_back_time, max_waiting_time=config.max_waiting_time)
        histories, how = (min(config.histories), config.days), config.hows[0]
        if config.table_format:
            return formats.cells(run, formats.BigFormatCase, histories)
        cells = [Cell(BigCase(how, h, "daily", last, last, **join), v, config.repeats) for h in histories for v in OURS]
        whole = BigCase(how, config.days, "whole", last - timedelta(days=config.days - 1), last, **join)
        return cells + [Cell(whole, v, config.whole_repeats) for v in (*OURS, "equi")]

    def types(self, variant: str) -> dict[str, str]:
        return {} if variant == "equi" else super().types(variant)

    def targets(self, cells: Sequence[Cell]) -> list[Target]:
        if isinstance(cells[0].case, formats.FormatCase):
            return formats.targets(cells, self.bounds, f"{self.rows_per_day} rows/day, ")
        (short, long), how, size = sorted({c.case.history for c in cells}), cells[0].case.how, self.rows_per_day
        ours = [c for c in cells if c.variant in OURS]
        name = f"{size} rows/day: partitions read by sql and core = spec §4 bounds, one scan per input"
        found = protocol.scans_target(name, ours, lambda c: protocol.reads_within(c, self.bounds(c.case), 1))
        for v in OURS:
            at = [find(cells, v, window="daily", history=h) for h in (long, short)]
            found += ratio_target(f"{size} rows/day: {v} daily run, {how}: {long} d / {short} d", *at, "≤ 1.3")
            at = [find(cells, v, window="whole"), find(cells, "equi")]
            found += ratio_target(f"{size} rows/day: {v} whole history / plain equi-join, {how}", *at, "≤ 1.15")
        return found

    def agreement(self, cells: Sequence[Cell]) -> list[dict[str, object]]:
        if isinstance(cells[0].case, formats.FormatCase):
            return formats.agreement(cells, self.name)
        return protocol.agreement(cells, self.name, ("sql",), lambda k: (k.window, k.history))

    def cell_json(self, cell: Cell) -> dict[str, object]:
        memory = {name: max(r.memory.get(name, 0) for r in cell.runs) for name in MEMORY}
        load = [r.load for r in cell.runs]
        return {**super().cell_json(cell), "peak_memory": memory, "load": load, "plan": cell.plan.text}

    def sections(self, cells: Sequence[Cell], agreed: Sequence[dict], run) -> list[str]:
        rows = []
        for c in cells:
            j, (ta, tb) = self.cell_json(c), self.bounds(c.case)
            mb = [f"{j['peak_memory'][name] / 2**20:.0f}" for name in MEMORY]
            reads, loads = f"{c.plan.read(ta)} / {c.plan.read(tb)}", f"{min(j['load']):.1f}–{max(j['load']):.1f}"
            rows.append([c.case.label, c.variant, protocol.times(c), loads, c.check.rows, reads, *mb])
        head = ["case", "variant", "median s", "load avg", "rows", "partitions A/B", *(f"peak {m} MB" for m in MEMORY)]
        plans = [f"{c.case.label} {c.variant}:\n\n```\n{c.plan.text}```" for c in cells]
        text = [f"## Ten times the data ({self.rows_per_day} A rows a day)", "", *protocol.table(head, rows)]
        if isinstance(cells[0].case, formats.FormatCase):
            title = f"Ten times the data on {run.config.table_format} beside parquet"
            text += formats.sections(cells, agreed, self.bounds, title)
        return ["", *text, "", "Plans as executed (each cell's last timed run):", "", *"\n\n".join(plans).split("\n")]
