"""The twins, as text: each SQL fragment the Python core builds and its Jinja twin in macros/ give the same
normalised text (or the same value) for a matrix of parameters, with no Spark job.

All macro cases render in one dbt invocation per test session: `run-operation render_twins` of the integration
project (integration_tests/macros/render_twins.sql) takes every case as --args JSON, calls each dbt_inc_join
macro and logs one JSON document, which the test reads through dbtRunner's callbacks. The macros run no query,
so dbt opens no Spark connection (a few seconds, most of it dbt parsing the project).

TWINS below is the one table: a Python callable, its macro's name, how to build each side's arguments from one
case of the matrix, and, where the two return different shapes, how to bring each to a common one. Renaming a
twin, or a field of the placement context, is a one-line edit there.

Normalisation (``normalised``), kept small on purpose: ``--`` comments are dropped (_classification_sql labels
its CASE branches), whitespace runs fold to one space (the macros break long conditions over lines), and the
keyword ``and`` is upper-cased (_partner_condition_sql joins its tests with ``and``). Only those two twins need it
today; any other change to a fragment's text on one side fails. The row-equality matrix
(tests/integration/test_sql_matches_core.py) stays the end-to-end check of the whole query.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from dbt_inc_join.plan import window
from dbt_inc_join.sql_text.time_units import TimeUnit
from dbt_inc_join.tables import join_types

from .operations import logged_json

# one `dbt run-operation` renders every case (no Spark): not part of the fast tier (`make test-fast`)
pytestmark = [pytest.mark.dbt, pytest.mark.one_engine]

PROJECT = Path(__file__).resolve().parents[2] / "integration_tests"
#: the one SQL keyword a macro spells in lower case (_partner_condition_sql joins its tests with `and`)
KEYWORDS = re.compile(r"\band\b", re.IGNORECASE)
Params = Mapping[str, Any]


def normalised(text: str) -> str:
    """SQL text with comments dropped, whitespace folded and the keyword of KEYWORDS upper-cased."""
    folded = " ".join(re.sub(r"--[^\n]*", " ", text).split())
    return KEYWORDS.sub(lambda match: match.group(0).upper(), folded)


def canonical(value: Any) -> Any:
    """A result of either side as JSON-like data: SQL text normalised, enums as values, dates tagged as the macro
    render_twins tags them ({'date': iso}, {'datetime': iso}), dataclasses as dicts, sets sorted."""
    if isinstance(value, enum.Enum):
        return canonical(value.value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        return normalised(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, date):
        return {"date": value.isoformat()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: canonical(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {key: canonical(item) for key, item in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(canonical(item) for item in value)
    return [canonical(item) for item in value]


def as_json(value: Any) -> Any:
    """A macro argument as JSON: dates and datetimes tagged (render_twins decodes them), tuples as lists."""
    if isinstance(value, datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, date):
        return {"date": value.isoformat()}
    if isinstance(value, Mapping):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(item) for item in value]
    return value


def grid(**axes: Sequence[Any]) -> list[dict[str, Any]]:
    """Every combination of the axes' values, one dict per case."""
    return [dict(zip(axes, values, strict=True)) for values in itertools.product(*axes.values())]


# ---------------------------------------------------------------------------------------------------------------
# Building each side's arguments from one case

UNITS = tuple(unit.value for unit in TimeUnit)
START = {"day": date(2025, 3, 6), "hour": datetime(2025, 3, 6, 10), "minute": datetime(2025, 3, 6, 10, 30)}


def type_table_shape(table: Any) -> list[dict[str, Any]]:
    """Either side's JoinType table as rows of plain values, the `how`s and modes sorted."""
    rows = []
    for row in table:
        if isinstance(row, Mapping):
            rows.append({**row, "hows": sorted(row["hows"]), "modes": sorted(row["modes"])})
        else:
            rows.append(
                {
                    "code": int(row.join_type),
                    "name": row.join_type.label,
                    "placed_at": row.placed_at,
                    "hows": sorted(row.hows),
                    "matched": row.matched,
                    "modes": sorted(row.modes),
                    "provisional": row.provisional,
                    "late": row.late,
                }
            )
    return rows


def codes(join_types_list: Sequence[Mapping[str, Any]]) -> list[int]:
    return [row["code"] for row in join_types_list]


# ---------------------------------------------------------------------------------------------------------------
# The table


@dataclasses.dataclass(frozen=True)
class Call:
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


def call(*args: Any, **kwargs: Any) -> Call:
    return Call(args, kwargs)


@dataclasses.dataclass(frozen=True)
class Twin:
    """A Python callable and its macro (dbt_inc_join.<macro>), each called with arguments built from every case of
    ``cases``; the results, brought to one shape where the sides differ in form, must be equal once canonical."""

    python: Callable[..., Any]
    macro: str
    cases: Sequence[Params]
    python_args: Callable[[Params], Call]
    macro_args: Callable[[Params], list[Any]]
    python_shape: Callable[[Any], Any] = lambda result: result
    macro_shape: Callable[[Any], Any] = lambda result: result

    @property
    def name(self) -> str:
        return f"{self.python.__module__.rsplit('.', 1)[-1]}.{self.python.__name__}={self.macro}"


def join_type_table() -> tuple[join_types.JoinTypeRule, ...]:
    return join_types.JOIN_TYPE_TABLE


UNIT_ARG = lambda p: TimeUnit(p["unit"])  # noqa: E731


HOWS = join_types.HOW_VALUES

TWINS: tuple[Twin, ...] = (
    # window.py = _window.sql: a bound as a unit (Python's spelling of a wrong bound differs, the rule not)
    Twin(
        window.parse_bound,
        "_parse_bound",
        grid(
            unit=UNITS,
            value=(None, "2025-03-06", "2025-03-06 10:37:12", "2025-03-06T10:37", date(2025, 3, 6), START["minute"]),
        ),
        lambda p: call(p["value"], "output_window_end", UNIT_ARG(p)),
        lambda p: [p["value"], "output_window_end", p["unit"]],
    ),
    # join_types.py = join_types.sql: the table and what each how / mode emits
    Twin(
        join_type_table,
        "_join_types",
        [{}],
        lambda p: call(),
        lambda p: [],
        python_shape=type_table_shape,
        macro_shape=type_table_shape,
    ),
)


def case_id(twin: Twin, index: int) -> str:
    return f"{twin.name}#{index}"


# ---------------------------------------------------------------------------------------------------------------
# One dbt invocation for every case


def render_macros(state_dir: Path) -> dict[str, Any]:
    """Every case of TWINS through its macro, in one `run-operation render_twins`; {case id: JSON result}."""
    cases = [
        {"id": case_id(twin, index), "macro": twin.macro, "args": as_json(twin.macro_args(case))}
        for twin in TWINS
        for index, case in enumerate(twin.cases)
    ]
    return logged_json("render_twins", {"cases": cases}, state_dir)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, Any]:
    return render_macros(tmp_path_factory.mktemp("twins-dbt"))


@pytest.mark.parametrize("twin", TWINS, ids=lambda twin: twin.name)
def test_twins_render_the_same_text(twin: Twin, rendered: dict[str, Any]) -> None:
    mismatches = []
    for index, case in enumerate(twin.cases):
        arguments = twin.python_args(case)
        python = canonical(twin.python_shape(twin.python(*arguments.args, **arguments.kwargs)))
        macro = canonical(twin.macro_shape(rendered[case_id(twin, index)]))
        if python != macro:
            mismatches.append(f"case {dict(case)}:\n  python: {python}\n  macro:  {macro}")
    assert not mismatches, f"{len(mismatches)} of {len(twin.cases)} cases differ:\n" + "\n".join(mismatches[:3])


def test_every_case_was_rendered(rendered: dict[str, Any]) -> None:
    """One result per case, nothing else (a case lost on the way would compare nothing)."""
    assert sorted(rendered) == sorted(case_id(t, i) for t in TWINS for i in range(len(t.cases)))
