"""The benchmark protocol without Spark (bench/protocol.py): in every round each cell once, each variant first in
its case as often as the others; the share of a run before its action."""

from __future__ import annotations

from collections import Counter

from bench.protocol import Cell, Run, before_action_target, round_order


def cells() -> list[Cell]:
    # two cases of three variants and one case of one, as a suite lists them
    return [Cell(case, variant, 3) for case in ("c1", "c2") for variant in ("auto", "grouped", "plain")] + [
        Cell("c3", "alone", 3)
    ]


def test_each_round_runs_every_cell_once_and_a_cases_variants_together():
    due = cells()
    for round_number in range(7):
        order = round_order(due, round_number)
        assert sorted(id(c) for c in order) == sorted(id(c) for c in due)
        seen = [c.case for c in order]
        assert seen == sorted(seen, key=seen.index)  # a case's cells next to each other


def test_every_variant_comes_first_in_its_case_once_in_as_many_rounds_as_it_has_variants():
    due = cells()
    firsts: Counter = Counter()
    for round_number in range(3):
        order = round_order(due, round_number)
        firsts.update(next(c.variant for c in order if c.case == case) for case in ("c1", "c2"))
    assert firsts == {"auto": 2, "grouped": 2, "plain": 2}


def test_each_round_starts_one_case_later():
    due = cells()
    assert [round_order(due, n)[0].case for n in range(4)] == ["c1", "c2", "c3", "c1"]
    assert [c.variant for c in round_order(due, 1)][:3] == ["grouped", "plain", "auto"]


def test_the_share_before_the_action_is_each_run_s_own_build_over_its_seconds():
    cell = Cell("c1", "auto", 3)
    cell.runs = [Run(10.0, 1, build=0.3), Run(20.0, 1, build=0.4), Run(4.0, 1, build=0.4)]  # 3 %, 2 %, 10 %
    [met] = before_action_target("auto's decision", cell, "≤ 0.05")
    assert (met.measured, met.passed) == ("0.03 (0.02–0.10)", True)
    [missed] = before_action_target("auto's decision", cell, "≤ 0.025")
    assert missed.passed is False
    assert before_action_target("no runs", Cell("c2", "auto", 3), "≤ 0.05") == []


def test_every_case_of_the_full_many_rows_suite_has_the_core_its_rows_are_checked_against():
    """The full suite's cases (the quick mode runs fewer): agreement takes each case's core run as the reference."""
    from types import SimpleNamespace

    from bench.many import ManyRows
    from bench.run import parse_args

    due = ManyRows().cells(SimpleNamespace(config=parse_args(["--suite", "many-rows"])))
    cases = {c.case for c in due}
    assert {c.case for c in due if c.variant == "core"} == cases
    assert any(c.case.history == 120 for c in due)  # the dense run of about 1 s
