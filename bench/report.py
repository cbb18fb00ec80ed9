"""Targets, agreement between variants, and the Markdown report of a benchmark run."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from .measure import Cell, Check
from .metrics import spec_bounds
from .variants import PEER_B_ONLY, Case

OURS = ("sql", "core")


@dataclass(frozen=True)
class Target:
    name: str
    goal: str
    measured: str
    passed: bool | None  #: None: a ratio the issue asks to report, without a goal


class Results:
    """Look-ups over the measured cells."""

    def __init__(self, cells: Sequence[Cell], hows: Sequence[str], histories: Sequence[int]) -> None:
        self.cells = list(cells)
        self.hows = list(hows)
        self.histories = sorted(histories)
        self.longest = self.histories[-1]

    def cell(self, how: str, window: str, history: int, variant: str, late: int = 0) -> Cell | None:
        """The cell of that case and variant; ``late``: its late_match_time (0: the cases without late
        matches)."""
        for c in self.cells:
            case = c.case
            if (case.how, case.window, case.history, c.variant, case.late_match_time) == (
                how,
                window,
                history,
                variant,
                late,
            ):
                return c
        return None

    @property
    def late_match_time(self) -> int:
        """The late-match cases' late_match_time (0 when the run has none)."""
        return max((c.case.late_match_time for c in self.cells), default=0)

    def ratio(self, x: tuple, y: tuple) -> Ratio:
        """The time of cell ``x`` over cell ``y`` (each given as how, window, history, variant[, late])."""
        return Ratio.of(self.cell(*x), self.cell(*y))

    def bounds(self, case: Case) -> tuple[int, int]:
        """spec §4's partitions for A and B, within the days the table holds (the history ends on the last
        day, which every case's window ends on)."""
        first = case.end - timedelta(days=case.history - 1)
        return spec_bounds(
            case.start, case.end, case.how, case.look_back_time, case.max_waiting_time, first, case.late_match_time
        )

    def reads_exactly_the_bounds(self, cell: Cell) -> bool:
        """Each input scanned as often as expected_scans says, every scan reading exactly spec §4's partitions."""
        scans = expected_scans(cell.case)
        return all(
            [s.partitions for s in cell.plan.scans if s.table == table.split(".")[1]] == [bound] * scans
            for table, bound in zip((cell.case.table_a, cell.case.table_b), self.bounds(cell.case), strict=True)
        )


def expected_scans(case: Case) -> int:
    """Scans of each input in a run of this package: one, and with late matches two (A's slice and B's keys
    and arrivals again in the anti-join that finds the timed-out A rows)."""
    return 2 if case.late_match_time else 1


@dataclass(frozen=True)
class Ratio:
    """How much longer one cell took than another, from runs paired by round.

    Runs of the same round were taken seconds apart, so each pair saw about the same background load; the
    median of the per-round ratios is steadier on a shared machine than the ratio of two medians taken over
    the whole phase. ``low``/``high`` are the smallest and largest per-round ratio."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, x: Cell, y: Cell) -> Ratio:
        pairs = [a.seconds / b.seconds for a, b in zip(x.runs, y.runs, strict=False)]
        return cls(statistics.median(pairs), min(pairs), max(pairs))

    def __str__(self) -> str:
        digits = 1 if self.median >= 10 else 2
        if self.low == self.high:
            return f"{self.median:.{digits}f}"
        return f"{self.median:.{digits}f} ({self.low:.{digits}f}–{self.high:.{digits}f})"


def targets(results: Results) -> list[Target]:
    """The issue's targets, each a ratio of times measured in the same run (median of the per-round ratios)."""
    found: list[Target] = []
    shortest, longest = results.histories[0], results.longest
    for how in results.hows:
        for variant in OURS:
            ratio = results.ratio((how, "daily", longest, variant), (how, "daily", shortest, variant))
            found.append(
                Target(
                    f"{variant} daily run, {how}: {longest} d / {shortest} d of history",
                    "≤ 1.3",
                    str(ratio),
                    ratio.median <= 1.3,
                )
            )
    ours = [c for c in results.cells if c.variant in OURS]
    exact = [c for c in ours if results.reads_exactly_the_bounds(c)]
    found.append(
        Target(
            "partitions read by sql and core = spec §4 bounds, one scan per input (two with late matches)",
            "all cases",
            f"{len(exact)}/{len(ours)} cases",
            len(exact) == len(ours),
        )
    )
    for how in results.hows:
        for window in ("daily", "whole"):
            ratio = results.ratio((how, window, longest, "core"), (how, window, longest, "peer"))
            found.append(Target(f"core / peer, {how}, {window} window", "≤ 1.0", str(ratio), ratio.median <= 1.0))
    for how in results.hows:
        for window in ("daily", "whole"):
            ratio = results.ratio((how, window, longest, "sql"), (how, window, longest, "core"))
            found.append(Target(f"sql / core, {how}, {window} window", "≤ 1.25", str(ratio), ratio.median <= 1.25))
    for how in results.hows:
        for variant in OURS:
            ratio = results.ratio((how, "daily", longest, "naive"), (how, "daily", longest, variant))
            found.append(
                Target(
                    f"full recompute / {variant} daily run, {how}, {longest} d", "≥ 10", str(ratio), ratio.median >= 10
                )
            )
    return found + late_targets(results)


def late_targets(results: Results) -> list[Target]:
    """Issue 13's targets for late matches (spec §10): the daily run stays flat in history, and the whole
    history costs at most 1.75 times the same join without late matches. Deciding which A rows timed out is
    one more join of A's slice with B's keys and arrivals (an anti-join, shuffled like the main join), so a
    whole-history run does close to twice the join work; the plan keeps that join narrow (B's keys and arrivals
    only) and adds no aggregation or join back to A."""
    late = results.late_match_time
    hows = sorted({c.case.how for c in results.cells if c.case.late_match_time})
    found: list[Target] = []
    shortest, longest = results.histories[0], results.longest
    for how in hows:
        for variant in OURS:
            ratio = results.ratio((how, "daily", longest, variant, late), (how, "daily", shortest, variant, late))
            found.append(
                Target(
                    f"{variant} daily run, {how}, late_match_time {late}: {longest} d / {shortest} d of history",
                    "≤ 1.3",
                    str(ratio),
                    ratio.median <= 1.3,
                )
            )
        for variant in OURS:
            ratio = results.ratio((how, "whole", longest, variant, late), (how, "whole", longest, variant))
            found.append(
                Target(
                    f"{variant} whole history, {how}: late_match_time {late} / 0",
                    "≤ 1.75",
                    str(ratio),
                    ratio.median <= 1.75,
                )
            )
    return found


def agreement(results: Results) -> list[dict[str, object]]:
    """Per case: do sql, core and naive give the same rows (count, per JoinType, fingerprint)? Did every timed
    run return as many rows as the check run? And how does the peer differ?"""
    rows = []
    cases = sorted({c.case for c in results.cells}, key=lambda k: (k.late_match_time, k.how, k.window, k.history))
    for case in cases:
        by_variant = {c.variant: c for c in results.cells if c.case == case}
        reference = by_variant["core"].check
        ours_agree = all(by_variant[v].check == reference for v in ("sql", "naive") if v in by_variant)
        peer = by_variant.get("peer")
        rows.append(
            {
                "case": case,
                "ours_agree": ours_agree,
                "rows": reference.rows,
                "types": reference.types,
                "peer": check_difference(reference, peer.check) if peer else _peer_not_run(case),
                "stable": all(c.stable for c in by_variant.values()),
            }
        )
    return rows


def _peer_not_run(case: Case) -> str:
    return "no late matches" if case.late_match_time else "not run"


def _late_lines(results: Results) -> list[str]:
    """The late-match cases: their daily run over each history and their whole-history run, next to the same
    runs without late matches."""
    late = results.late_match_time
    if not late:
        return []
    longest = results.longest
    lines = [
        "",
        f"## Late matches (late_match_time = {late})",
        "",
        "Median seconds; `× L = 0`: the median per-round ratio to the same variant's run without late matches "
        "(measured in the same phase); late_match rows: rows of code 7 in the check run. The full recompute "
        "(naive, with late matches) runs once per case on the longest history, as the rows' reference.",
        "",
        "| how | variant | "
        + " | ".join(f"daily {h} d" for h in results.histories)
        + f" | daily {longest} d × L = 0 | whole | whole × L = 0 | late_match rows daily / whole |",
        "|---|---|" + "---|" * len(results.histories) + "---|---|---|---|",
    ]
    hows = sorted({c.case.how for c in results.cells if c.case.late_match_time})
    for how in hows:
        for variant in OURS:
            daily = [results.cell(how, "daily", h, variant, late) for h in results.histories]
            whole = results.cell(how, "whole", longest, variant, late)
            plain_daily = results.cell(how, "daily", longest, variant)
            plain_whole = results.cell(how, "whole", longest, variant)
            lines.append(
                f"| {how} | {variant} | "
                + " | ".join(_seconds(c.median) for c in daily)
                + f" | {Ratio.of(daily[-1], plain_daily)} | {_seconds(whole.median)} | "
                f"{Ratio.of(whole, plain_whole)} | {daily[-1].check.types.get('late_match', 0)} / "
                f"{whole.check.types.get('late_match', 0)} |"
            )
    return lines


def check_difference(ours: Check, theirs: Check) -> str:
    """How another variant's check run differs from ours (rows, rows per JoinType), or 'same rows'."""
    if (ours.rows, ours.types, ours.fingerprint) == (theirs.rows, theirs.types, theirs.fingerprint):
        return "same rows"
    parts = [f"{theirs.rows - ours.rows:+d} rows"]
    for name in sorted(set(ours.types) | set(theirs.types)):
        mine, other = ours.types.get(name, 0), theirs.types.get(name, 0)
        if mine != other:
            parts.append(f"{name} {mine} → {other}")
    if ours.rows == theirs.rows and ours.types == theirs.types:
        parts.append("same counts, other rows")
    return ", ".join(parts)


def _seconds(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def _result(target: Target) -> str:
    return "—" if target.passed is None else "PASS" if target.passed else "MISS"


def markdown(
    results: Results | None,
    context: dict[str, str],
    found: Sequence[Target],
    agreed: Sequence[dict[str, object]],
    sections: Sequence[str] = (),
) -> str:
    """The report: setup, targets, the daily run against history length, all variants, agreement (the few-rows
    suite, when ``results`` are given), then ``sections`` (the many-rows suite's lines)."""
    lines = [f"# inc_join benchmark ({context['mode']})", ""]
    lines += [f"- {key}: {value}" for key, value in context.items() if key != "mode"]
    lines += [
        "",
        "## Targets",
        "",
        "Each ratio is the median over rounds of the ratio of two runs taken in the same round (seconds "
        "apart), with the smallest and largest per-round ratio in brackets.",
        "",
        "| target | goal | measured | result |",
        "|---|---|---|---|",
    ]
    lines += [f"| {t.name} | {t.goal} | {t.measured} | {_result(t)} |" for t in found]
    if results is None:
        return "\n".join([*lines, *sections]) + "\n"

    longest = results.longest
    lines += [
        "",
        "## A daily run against the length of the history",
        "",
        "Median seconds of a run over the last day; the ratio of the longest to the shortest history (per "
        "round, as for the targets); partitions and files read per input on the longest history (spec §4 "
        "bound in brackets).",
        "",
    ]
    head = " | ".join(f"{h} d" for h in results.histories)
    lines += [
        f"| how | variant | {head} | {longest} d / {results.histories[0]} d | A partitions [bound] | "
        f"B partitions [bound] | A / B files |",
        "|---|---|" + "---|" * len(results.histories) + "---|---|---|---|",
    ]
    for how in results.hows:
        for variant in ("sql", "core", "peer", "naive"):
            cells = [results.cell(how, "daily", h, variant) for h in results.histories]
            if any(c is None for c in cells):
                continue
            last = cells[-1]
            a, b = results.bounds(last.case)
            ta, tb = last.case.table_a.split(".")[1], last.case.table_b.split(".")[1]
            lines.append(
                f"| {how} | {variant} | "
                + " | ".join(_seconds(c.median) for c in cells)
                + f" | {Ratio.of(cells[-1], cells[0])} | {last.plan.partitions_read(ta)} [{a}] | "
                f"{last.plan.partitions_read(tb)} [{b}] | {last.plan.files_read(ta)} / {last.plan.files_read(tb)} |"
            )

    lines += [
        "",
        f"## The four variants on {longest} days of history",
        "",
        "Median seconds (timed runs in brackets); `× core`: the median per-round ratio to the core. Scans, "
        "partitions read and plan operators from the executed plan (adaptive execution's final plan).",
        "",
        "| how | window | variant | median s | × core | rows | scans A / B | partitions A / B | shuffles | "
        "broadcasts | reused exchanges | joins |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for how in results.hows:
        for window in ("daily", "whole"):
            core = results.cell(how, window, longest, "core")
            for variant in ("sql", "core", "peer", "naive"):
                c = results.cell(how, window, longest, variant)
                if c is None:
                    continue
                ta, tb = c.case.table_a.split(".")[1], c.case.table_b.split(".")[1]
                joins = ", ".join(f"{n}× {k}" for k, n in sorted(c.plan.joins.items()))
                lines.append(
                    f"| {how} | {window} | {variant} | {_seconds(c.median)} ({len(c.runs)}) | "
                    f"{Ratio.of(c, core).median:.2f} | {c.check.rows} | {c.plan.scan_count(ta)} / "
                    f"{c.plan.scan_count(tb)} | {c.plan.partitions_read(ta)} / {c.plan.partitions_read(tb)} | "
                    f"{c.plan.shuffles} | {c.plan.broadcasts} | {c.plan.reused_exchanges} | {joins} |"
                )

    lines += _late_lines(results)
    lines += [
        "",
        "## Do the variants agree?",
        "",
        "Rows, rows per JoinType and a fingerprint of (TrxId, output RecDate, PaymentId, DiffArrivalTime, "
        "WaitingTime), from each cell's check run; every timed run returned as many rows. sql, core and "
        "naive must agree; the peer is compared with them.",
        "",
        "| case | rows | sql = core = naive | peer (inc-join 0.1.3) |",
        "|---|---|---|---|",
    ]
    for row in agreed:
        case = row["case"]
        lines.append(
            f"| {case.label} | {row['rows']} | {'yes' if row['ours_agree'] else '**NO**'}"
            f"{'' if row['stable'] else ' (runs differ!)'} | {row['peer']} |"
        )
    if any(PEER_B_ONLY in r["peer"] for r in agreed if isinstance(r["peer"], str)):
        lines += [
            "",
            f"The peer emits a B row without partner as `{PEER_B_ONLY}` at its own arrival b, before a "
            "late A row could still claim it; this package emits it once as `b_timed_out` at b + "
            "look_back_time (spec §3), so the same row can land on another day or, near the window's end, "
            "in a later run.",
        ]
    return "\n".join([*lines, *sections]) + "\n"
