"""The fault tests' draws (tests/conftest.py's FAULT_DRAWS): every fault test is a member of one group, each member
names a fault test that exists, and a seed takes one member of every group, the same whichever leg asks."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from .conftest import FAULT_DRAWS, drawn_members

TESTS = Path(__file__).parent
FORMATS = ("", "delta", "iceberg")


def _is_fault_mark(decorator: ast.expr) -> bool:
    return ast.unparse(decorator) == "pytest.mark.fault"


def fault_tests() -> set[str]:
    """Every test function marked fault under tests/, as file::function."""
    found = set()
    for path in TESTS.rglob("test_*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and any(_is_fault_mark(d) for d in node.decorator_list):
                found.add(f"{path.name}::{node.name}")
    return found


def test_every_fault_test_is_a_member_of_exactly_one_group_and_every_member_exists():
    members = [member for group in FAULT_DRAWS.values() for member in group]
    assert len(members) == len(set(members))
    named = {member.partition("@")[0] for member in members}
    assert named == fault_tests()
    assert {member.partition("@")[2] for member in members} <= set(FORMATS)


def test_a_seed_takes_one_member_of_each_group_and_over_seeds_every_member():
    assert drawn_members(7) == drawn_members(7)  # what every leg of one `make test` computes alike
    seen: dict[str, set[str]] = {group: set() for group in FAULT_DRAWS}
    for seed in random.Random(0).sample(range(10**6), 60):
        for group, member in drawn_members(seed).items():
            assert member in FAULT_DRAWS[group]
            seen[group].add(member)
    assert seen == {group: set(members) for group, members in FAULT_DRAWS.items()}
