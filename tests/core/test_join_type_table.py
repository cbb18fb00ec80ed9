"""The JoinType table is one table (src/dbt_inc_join/shared_tables.py): the generated SQL macro and the Python
module hold the same rows, every JoinType has its scenario in both, and nothing else in the renderers spells a code."""

from __future__ import annotations

import re
from pathlib import Path

from dbt_inc_join import scenarios
from dbt_inc_join.join_types import HOW_VALUES, JOIN_TYPE_TABLE, JoinType, emitted_join_types

REPO = Path(__file__).resolve().parents[2]
MACROS = REPO / "macros"
ROW = re.compile(
    r"\{'code': (\d+), 'name': '(\w+)', 'placed_at': '([^']+)', 'hows': (\w+|\[[^\]]*\]), "
    r"'matched': (true|false), 'modes': (\w+|\[[^\]]*\]), 'provisional': (true|false), "
    r"'late': (true|false)\}"
)


def sql_table():
    text = (MACROS / "generated" / "_join_types.sql").read_text()
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


def test_every_join_type_has_its_scenario_in_both_languages():
    for join_type in JoinType:
        assert scenarios.SCENARIOS[join_type].__name__ == join_type.label
        macro_file = MACROS / "scenarios" / f"{join_type.label}.sql"
        text = macro_file.read_text()
        assert f"{{% macro _scenario_{join_type.label}(ctx) %}}" in text
        assert f"dbt_inc_join._join_type('{join_type.label}')" in text, "the code and name come from the table"


def test_renderers_spell_no_join_type_code():
    """Codes live in the table only: the renderers, the scenarios and the JoinType tests read them from it."""
    sql_files = [
        *sorted((MACROS / "internal").glob("_render*.sql")),
        *sorted((MACROS / "scenarios").glob("*.sql")),
        *sorted((MACROS / "generic_tests").glob("*.sql")),
    ]
    # placement.py and late_matches.py hold what scenarios.py and render.py held before (the helpers of the
    # scenarios, the late copies)
    python_files = [
        REPO / "src" / "dbt_inc_join" / name
        for name in ("render.py", "scenarios.py", "placement.py", "late_matches.py", "join.py")
    ]
    for path in sql_files + python_files:
        text = path.read_text()
        assert not re.search(r"(JoinType|_join_type|code)\s*(<=|>=|<|>|=|==|IN|in)\s*\(?\d", text), path
        assert not re.search(r"\{\s*[1-9]\s*:", text), path  # no {4: ...} maps keyed by code


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
