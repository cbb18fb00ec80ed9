"""The core's renderer (sql_text/macros.py) against dbt's: the macros the core renders give the same value, case
for case, whether dbt renders them or the core does. Since issue 73 the core has no Python twin of a macro's rule
(docs/architecture.md, "Twins"); what is left to hold equal is the port, the context in which each side renders
the same macro: ``return``, ``modules`` (datetime, re, pytz or the core's stand-in), dates passed in and out.

All dbt cases render in one dbt invocation per test session: `run-operation render_cases` of the integration
project (integration_tests/macros/render_cases.sql) takes every case as --args JSON, calls each dbt_inc_join macro
and logs one JSON document, which the test reads through dbtRunner's callbacks. The macros run no query, so dbt
opens no Spark connection (a few seconds, most of it dbt parsing the project).

CASES below is the one table: a macro and the arguments of each of its cases. The results are compared as
canonical JSON-like data (dates tagged, tuples as lists); a case the dbt side does not return fails.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from dbt_inc_join.sql_text import render

from .operations import logged_json

# one `dbt run-operation` renders every case (no Spark): not part of the fast tier (`make test-fast`)
pytestmark = [pytest.mark.dbt, pytest.mark.one_engine]


def canonical(value: Any) -> Any:
    """A result of either side as JSON-like data: dates tagged as render_cases tags them ({'date': iso},
    {'datetime': iso}), tuples as lists."""
    if isinstance(value, datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, date):
        return {"date": value.isoformat()}
    if isinstance(value, Mapping):
        return {key: canonical(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    return value


# ---------------------------------------------------------------------------------------------------------------
# The cases

UNITS = ("day", "hour", "minute")
BOUNDS = (
    None,
    "",
    "2025-03-06",
    " 2025-03-06 10:37:12 ",
    "2025-03-06T10:37",
    "2025-03-06T23:37:12.5+02:00",
    "2025-03-06T10:37Z",
    date(2025, 3, 6),
    datetime(2025, 3, 6, 10, 30),
    datetime(2025, 3, 6, 23, 30, tzinfo=timezone(timedelta(hours=-2))),
)
ZONES = ("UTC", "Europe/Berlin", "America/New_York")


@dataclasses.dataclass(frozen=True)
class Case:
    macro: str
    args: tuple[Any, ...]


CASES: tuple[Case, ...] = (
    # a window bound as a unit, a zone given (the core's call; a dbt model's asks Spark)
    *(
        Case("_parse_bound", (value, "output_window_end", unit, "python", zone))
        for value in BOUNDS
        for unit in UNITS
        for zone in ZONES
    ),
    # the JoinType table (the generated copy of shared_tables.JOIN_TYPES)
    Case("_join_types", ()),
    # what a run over [start, end] reads of A and B (spec §4)
    *(
        Case("_read_ranges", (start, date(2025, 3, 20), how, 2, 10, "day", late))
        for start in (None, date(2025, 3, 20), date(2025, 3, 1))
        for how in ("left", "full")
        for late in (0, 3)
    ),
    # a value floored to its unit
    *(
        Case("_floor_value", (value, unit))
        for value in (date(2025, 3, 6), datetime(2025, 3, 6, 10, 37))
        for unit in UNITS
    ),
)


def case_id(index: int) -> str:
    return f"{CASES[index].macro}#{index}"


# ---------------------------------------------------------------------------------------------------------------
# One dbt invocation for every case


def render_macros(state_dir: Path) -> dict[str, Any]:
    """Every case through dbt, in one `run-operation render_cases`; {case id: JSON result}."""
    cases = [{"id": case_id(i), "macro": case.macro, "args": canonical(case.args)} for i, case in enumerate(CASES)]
    return logged_json("render_cases", {"cases": cases}, state_dir)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, Any]:
    return render_macros(tmp_path_factory.mktemp("render-dbt"))


@pytest.mark.parametrize("macro", sorted({case.macro for case in CASES}))
def test_the_core_renders_each_macro_as_dbt_does(macro: str, rendered: dict[str, Any]) -> None:
    mismatches = []
    indices = [i for i, case in enumerate(CASES) if case.macro == macro]
    for index in indices:
        core = canonical(render(macro, *CASES[index].args))
        dbt = canonical(rendered[case_id(index)])
        if core != dbt:
            mismatches.append(f"case {CASES[index].args}:\n  core: {core}\n  dbt:  {dbt}")
    assert not mismatches, f"{len(mismatches)} of {len(indices)} cases differ:\n" + "\n".join(mismatches[:3])


def test_every_case_was_rendered(rendered: dict[str, Any]) -> None:
    """One result per case, nothing else (a case lost on the way would compare nothing)."""
    assert sorted(rendered) == sorted(case_id(i) for i in range(len(CASES)))
