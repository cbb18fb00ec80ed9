"""The JoinType table is one table (src/dbt_inc_join/tables/shared_tables.py): the generated SQL macro and the Python
module hold the same rows, every JoinType has its scenario macro, and nothing else spells a code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dbt_inc_join.sql_text import render
from dbt_inc_join.tables.join_types import HOW_VALUES, JOIN_TYPE_TABLE, JoinType

pytestmark = pytest.mark.one_engine  # engine-independent: `make test` runs it on Spark 4 only

REPO = Path(__file__).resolve().parents[2]
MACROS = REPO / "macros"
ROW = re.compile(
    r"\{'code': (\d+), 'name': '(\w+)', 'placed_at': '([^']+)', 'hows': (\w+|\[[^\]]*\]), "
    r"'matched': (true|false), 'modes': (\w+|\[[^\]]*\]), 'provisional': (true|false), "
    r"'late': (true|false)\}"
)


def emitted_join_types(
    how: str, include_waiting: bool, mode: str = "all", late_match: bool = False
) -> tuple[JoinType, ...]:
    """The JoinTypes a run emits, in code order: the macro ``_emitted_join_types``, which the statement's
    classification takes them from."""
    return tuple(JoinType(row["code"]) for row in render("_emitted_join_types", how, include_waiting, mode, late_match))


def sql_table():
    text = (MACROS / "tables" / "generated" / "_join_types.sql").read_text()
    lists = {
        name: re.findall(r"'(\w+)'", body)
        for name, body in re.findall(r"set (\w+_(?:hows|modes?)) = \[([^\]]*)\]", text)
    }

    def listed(value):
        return frozenset(lists[value] if value in lists else re.findall(r"'(\w+)'", value))

    rows = []
    for code, name, placed_at, hows, matched, modes, provisional, late in ROW.findall(text):
        flags = (matched == "true", listed(modes), provisional == "true", late == "true")
        rows.append((int(code), name, placed_at, listed(hows), *flags))
    return rows


def test_sql_and_python_tables_hold_the_same_rows():
    python = [
        (int(r.join_type), r.join_type.label, r.placed_at, r.hows, r.matched, r.modes, r.provisional, r.late)
        for r in JOIN_TYPE_TABLE
    ]
    assert sql_table() == python
    assert [r.join_type for r in JOIN_TYPE_TABLE] == list(JoinType)


def test_every_join_type_has_its_scenario_and_it_takes_code_and_name_from_the_table():
    ctx = {"time_uom": "day", "lb": 1, "mw": 2, "end_sql": "DATE'2025-03-09'", "mode": "all", "late_match": True}
    for join_type in JoinType:
        text = (MACROS / "sql_text" / "scenarios" / f"{join_type.label}.sql").read_text()
        assert f"dbt_inc_join._join_type('{join_type.label}')" in text, "the code and name come from the table"
        scenario = render(f"_scenario_{join_type.label}", ctx)
        assert (scenario["code"], scenario["name"]) == (int(join_type), join_type.label)


def test_no_renderer_spells_a_join_type_code():
    """Codes live in the table only: every macro but the generated table, and every module of the core, reads
    them from it (inc_join_many's JoinType_<name> too)."""
    sql_files = [path for path in sorted(MACROS.rglob("*.sql")) if path.parent.name != "generated"]
    python_files = [path for path in sorted((REPO / "src" / "dbt_inc_join").rglob("*.py"))]
    assert len(sql_files) > 60 and len(python_files) > 20
    for path in sql_files + python_files:
        if path.name == "shared_tables.py":  # the table itself
            continue
        text = path.read_text()
        assert not re.search(r"(JoinType|_join_type|code)\s*(<=|>=|<|>|=|==|IN|in)\s*\(?\d", text), path
        assert not re.search(r"\{\s*[1-9]\s*:", text), path  # no {4: ...} maps keyed by code
        assert not re.search(r"\b(THEN|ELSE)\s+[1-8]\b", text), path  # no code as a CASE's value


def test_inc_join_many_gives_the_codes_of_the_table():
    """What many.py and _many_render.sql once spelled as numbers, now rendered from the table: the same text, and
    the lint would catch it spelled by hand."""
    picked = render("_many_settled_sql", 0, _item("first"))[1]
    assert picked == (
        "CASE WHEN _i0_b_arrival IS NULL THEN 4 WHEN _i0_b_arrival = _a_arrival THEN 1 "
        "WHEN _i0_b_arrival < _a_arrival THEN 2 ELSE 3 END"
    )
    assert re.search(r"\b(THEN|ELSE)\s+[1-8]\b", picked)
    assert render("_many_settled_sql", 1, _item("aggregate"))[1] == "CASE WHEN _i1_b_arrival IS NULL THEN 4 ELSE 8 END"


def _item(mode: str) -> dict:
    return {"params": {"max_waiting_time": 2, "time_uom": "day", "mode": mode}}


def test_emitted_join_types_by_how():
    codes = {how: [int(t) for t in emitted_join_types(how, include_waiting=False)] for how in HOW_VALUES}
    assert codes == {"inner": [1, 2, 3], "left": [1, 2, 3, 4], "full": [1, 2, 3, 4, 6], "left_anti": [4]}
    waiting = {how: [int(t) for t in emitted_join_types(how, include_waiting=True)] for how in HOW_VALUES}
    assert waiting == {"inner": [1, 2, 3], "left": [1, 2, 3, 4, 5], "full": [1, 2, 3, 4, 5, 6], "left_anti": [4, 5]}


def test_emitted_join_types_by_row_mode():
    """spec §11: one partner per A row keeps the pair codes; aggregate has its own code 8 and no B-only rows."""
    for partner in ("first", "last"):
        for how in HOW_VALUES:
            assert emitted_join_types(how, False, partner) == emitted_join_types(how, False), (partner, how)
    aggregated = {how: [int(t) for t in emitted_join_types(how, False, "aggregate")] for how in ("inner", "left")}
    assert aggregated == {"inner": [8], "left": [4, 8]}
    assert [int(t) for t in emitted_join_types("left", True, "aggregate")] == [4, 5, 8]


def test_emitted_join_types_with_late_matches():
    """spec §10: code 7 for how = inner, left and full with partner = all, and only with late_match_time > 0."""
    late = {how: [int(t) for t in emitted_join_types(how, False, "all", late_match=True)] for how in HOW_VALUES}
    assert late == {"inner": [1, 2, 3, 7], "left": [1, 2, 3, 4, 7], "full": [1, 2, 3, 4, 6, 7], "left_anti": [4]}
    for mode in ("first", "last", "aggregate"):
        assert JoinType.LATE_MATCH not in emitted_join_types("left", False, mode, late_match=True), mode


def test_readme_join_type_tables_are_the_table():
    readme = (REPO / "README.md").read_text()
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \| [^|]+ \| ([^|]+) \|", readme, flags=re.MULTILINE)
    assert [(int(code), name, placed.strip()) for code, name, placed in rows] == [
        (int(r.join_type), r.join_type.label, r.placed_at) for r in JOIN_TYPE_TABLE
    ]
    for how in HOW_VALUES:
        line = re.search(rf"^\| `{how}`(?: \(default\))? \| ([^|]+) \|", readme, flags=re.MULTILINE).group(1)
        listed = sorted(int(code) for code in re.findall(r"\d+", line.split("(")[0]))
        assert listed == [int(t) for t in emitted_join_types(how, include_waiting=False)], how
        assert ("+5" in line) == (JoinType.A_WAITING in emitted_join_types(how, include_waiting=True)), how
        assert ("+7" in line) == (JoinType.LATE_MATCH in emitted_join_types(how, False, late_match=True)), how
