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

from dbt_inc_join import (
    columns,
    join_cond,
    join_types,
    ledger,
    plan_choice,
    restated,
    time_units,
    watermark,
    window,
)
from dbt_inc_join.sizing import histogram as sizing_histogram
from dbt_inc_join.sizing import results as sizing_results
from dbt_inc_join.sizing import spark as sizing_spark
from dbt_inc_join.time_units import TimeUnit
from dbt_inc_join.validation import JoinParameters

from .operations import logged_json

# one `dbt run-operation` renders every case (no Spark): not part of the fast tier (`make test-fast`)
pytestmark = pytest.mark.dbt

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


#: aggregates that are one call of a function, and some that only look like one (aggregates.single_call;
#: `count(*` fails validation's balance check, which runs first)
CALL_EXPRESSIONS = (
    "count(*)",
    " COUNT ( DISTINCT Status ) ",
    "count_if(Status = ')')",
    "max(`Paid)At`)",
    "max_by(Id, IF(Note = '(', 1, 0))",
    "sort_array(collect_set(Status))",
    "count(x) + count(y)",
    "sum(Paid) / count(*)",
    "max(Paid) FILTER (WHERE Paid > 0)",
    "count(*",
    "max(Paid) + 1",
    "percentile(Paid, 0.5)",
)


def grid(**axes: Sequence[Any]) -> list[dict[str, Any]]:
    """Every combination of the axes' values, one dict per case."""
    return [dict(zip(axes, values, strict=True)) for values in itertools.product(*axes.values())]


# ---------------------------------------------------------------------------------------------------------------
# Building each side's arguments from one case

UNITS = tuple(unit.value for unit in TimeUnit)
WINDOWS = ((0, 0), (2, 4), (3, 1))  #: (lb, mw)
START = {"day": date(2025, 3, 6), "hour": datetime(2025, 3, 6, 10), "minute": datetime(2025, 3, 6, 10, 30)}
END = {"day": date(2025, 3, 9), "hour": datetime(2025, 3, 9, 22), "minute": datetime(2025, 3, 9, 22, 15)}


def join_parameters(p: Params) -> JoinParameters:
    return JoinParameters(
        join_cols=("k",),
        inc_col="RecDate",
        how="left",
        look_back_time=p["lb"],
        max_waiting_time=p["mw"],
        time_uom=TimeUnit(p["unit"]),
        enforce_sliding_join_window=p["enforce"],
        include_waiting=False,
        output_select=("join_cols",),
        suffixes=("_A", "_B"),
        late_match_time=p["late"],
    )


def macro_parameters(p: Params) -> dict[str, Any]:
    """The fields of the macros' params that the twins read."""
    return {
        "look_back_time": p["lb"],
        "max_waiting_time": p["mw"],
        "time_uom": p["unit"],
        "enforce_sliding_join_window": p["enforce"],
        "late_match_time": p["late"],
    }


def start_of(p: Params) -> date | None:
    return START[p["unit"]] if p["start"] else None


def unit_value(p: Params, key: str = "value") -> date | None:
    """A unit value of the case's unit (START), or None where the case says so."""
    return START[p["unit"]] if p.get(key, True) else None


LOG_BOUNDS = {"open": (False, True), "closed": (True, True), "no_end": (True, False), "reversed": (True, True)}


def log_window(p: Params) -> window.OutputWindow:
    """The output window of a run_log_line case: from the beginning, [start, end], no end, or start after end."""
    has_start, has_end = LOG_BOUNDS[p["bounds"]]
    start = START[p["unit"]] if has_start else None
    if p["bounds"] == "reversed":
        start = time_units.shift_value(END[p["unit"]], 1, TimeUnit(p["unit"]))
    return window.OutputWindow(start, END[p["unit"]] if has_end else None)


def log_ranges(p: Params) -> Any:
    bounds = log_window(p)
    if bounds.is_empty:
        return None
    return window.read_ranges(bounds, how="left", look_back_time=2, max_waiting_time=4, unit=TimeUnit(p["unit"]))


def macro_log_window(p: Params) -> dict[str, Any]:
    """The window dict _run_log_line reads (output_window.sql builds it)."""
    bounds = log_window(p)
    return {
        "start": bounds.start,
        "end": bounds.end,
        "empty": bounds.is_empty,
        "start_reason": "batch",
        "end_reason": "watermark",
    }


def named_maxima(p: Params) -> list[Any]:
    """inc_join_many's latest arrivals of a named_watermark_text case: START, none, or a unit after it."""
    unit = TimeUnit(p["unit"])
    shown = {True: START[p["unit"]], False: None, "later": time_units.shift_value(START[p["unit"]], 1, unit)}
    return [shown[value] for value in p["maxima"]]


#: A few schemas for the column plan (every one valid: a refused plan fails the whole run-operation).
SCHEMAS = (
    {
        "keys": [("TrxId", "TrxId")],
        "inc_col": ("RecDate", "RecDate"),
        "a_names": ["TrxId", "Amount", "RecDate"],
        "b_names": ["PaymentId", "TrxId", "RecDate"],
        "select": ["join_cols", "inc_col", "df_a_cols", "df_b_cols", "DiffArrivalTime", "JoinTypeName"],
        "suffixes": ("_A", "_B"),
        "aggregate": [],
    },
    {
        "keys": [("id", "ID_B")],
        "inc_col": ("LoadA", "LoadB"),
        "a_names": ["id", "Amount", "LoadA"],
        "b_names": ["ID_B", "amount", "LoadB", "Extra"],
        "select": ["join_cols", "inc_col", "inc_col_a", "inc_col_b", "Amount_A", "amount_b", "extra", "JoinType"],
        "suffixes": ("_A", "_B"),
        "aggregate": [],
    },
    {
        "keys": [("k1", "k1"), ("k2", "k2")],
        "inc_col": ("RecDate", "RecDate"),
        "a_names": ["k2", "RecDate", "k1", "Note"],
        "b_names": ["k1", "k2", "Note", "RecDate"],
        "select": ["inc_col_b", "k2", "WaitingTime", "note_R", "df_a_cols"],
        "suffixes": ("_l", "_r"),
        "aggregate": [],
    },
    {
        "keys": [("TrxId", "TrxId")],
        "inc_col": ("RecDate", "RecDate"),
        "a_names": ["TrxId", "RecDate", "Amount"],
        "b_names": ["TrxId", "RecDate", "Paid"],
        "select": ["join_cols", "inc_col", "df_a_cols", "aggregates", "JoinType"],
        "suffixes": ("_A", "_B"),
        "aggregate": [("n", "count(1)"), ("total", "sum(Paid)")],
    },
    # spec §5, names taken: an inc_join output as A (its own suffixed and derived columns), read unchanged
    {
        "keys": [("TrxId", "TrxId")],
        "inc_col": ("RecDate", "RecDate"),
        "a_names": ["TrxId", "RecDate", "RecDate_A", "Amount", "PaymentId", "RecDate_B", "WaitingTime", "JoinType"],
        "b_names": ["PaymentId", "TrxId", "RecDate"],
        "select": ["join_cols", "inc_col", "df_b_cols", "JoinType_A", "recdate_b_a", "JoinType", "inc_col_a"],
        "suffixes": ("_A", "_B"),
        "aggregate": [],
    },
    # a suffix appended twice (JoinType_A taken by JoinType), an aggregate and a key name taken from B's columns
    {
        "keys": [("id", "ID_B")],
        "inc_col": ("LoadA", "LoadB"),
        "a_names": ["JoinType_l", "id", "n", "LoadA", "JoinType", "LoadA_l"],
        "b_names": ["ID_B", "id", "LoadB", "WaitingTime"],
        "select": ["df_a_cols", "aggregates", "join_cols"],
        "suffixes": ("_l", "_r"),
        "aggregate": [("n", "count(1)")],
    },
    {
        "keys": [("id", "ID_B")],
        "inc_col": ("LoadA", "LoadB"),
        "a_names": ["JoinType_l", "id", "LoadA", "JoinType", "id_r"],
        "b_names": ["ID_B", "id", "LoadB", "waitingtime", "JoinType"],
        "select": ["df_a_cols", "df_b_cols", "JoinTypeName"],
        "suffixes": ("_l", "_r"),
        "aggregate": [],
    },
)


def python_plan(p: Params) -> Call:
    s = SCHEMAS[p["schema"]]
    return call(
        keys=s["keys"],
        inc_col=s["inc_col"],
        a_names=s["a_names"],
        b_names=s["b_names"],
        output_select=s["select"],
        suffixes=s["suffixes"],
        aggregates=[name for name, _ in s["aggregate"]],
    )


def macro_plan(p: Params) -> list[Any]:
    s = SCHEMAS[p["schema"]]
    params = {"aggregate": s["aggregate"], "suffixes": s["suffixes"], "output_select": s["select"]}
    inputs = {"keys": s["keys"], "inc_col": s["inc_col"], "a_names": s["a_names"], "b_names": s["b_names"]}
    return [params, inputs]


def plan_shape(plan: Any) -> dict[str, Any]:
    """Either side's column plan as lists of [name, source, input_name] (the macro's own `index` left out)."""

    def field(column: Any, name: str) -> Any:
        return column[name] if isinstance(column, Mapping) else getattr(column, name)

    def group(name: str) -> list[list[Any]]:
        group_columns = field(plan, name)
        return [[field(c, "name"), field(c, "source"), field(c, "input_name")] for c in group_columns]

    return {name: group(name) for name in ("keys", "a_columns", "b_columns", "aggregates", "selected")}


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


def output_columns(names: Sequence[str]) -> list[columns.OutputColumn]:
    return [columns.OutputColumn(name, "a", name) for name in names]


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


def with_lbmw(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cases with an (lb, mw) axis as two parameters."""
    for case in cases:
        case["lb"], case["mw"] = case.pop("lbmw")
    return cases


def join_type_table() -> tuple[join_types.JoinTypeRule, ...]:
    return join_types.JOIN_TYPE_TABLE


UNIT_ARG = lambda p: TimeUnit(p["unit"])  # noqa: E731
RESTATED_RANGES = {
    "a": ["2025-03-04 00:00:00", "2025-03-09 00:00:00"],
    "b": ["2025-03-02 00:00:00", "2025-03-09 00:00:00"],
}
#: this run's fingerprints: the same, a unit added, removed and changed
NOW_UNITS = {
    "same": {"a": {"2025-03-05 00:00:00": "6:12", "2025-03-08 00:00:00": "6:13"}, "b": {"2025-03-06 00:00:00": "5:22"}},
    "changed": {
        "a": {"2025-03-05 00:00:00": "7:99", "2025-03-07 00:00:00": "1:5", "2025-03-09 00:00:00": "6:1"},
        "b": {"2025-03-02 00:00:00": "5:21", "2025-03-06 00:00:00": "4:30"},
    },
}
#: what the watermark's query of a run that checks its inputs read: up to a unit, and with no end
READ_UNITS = {
    "closed": {"ranges": RESTATED_RANGES, "units": NOW_UNITS["changed"]},
    "open": {"ranges": {"a": ["2025-03-04 00:00:00", None], "b": ["2025-03-03 00:00:00", None]},
             "units": NOW_UNITS["changed"]},
    "none": None,
}  # fmt: skip
#: the ranges a check queries: inside what was read, past its end, before its start
QUERIED = {
    "inside": RESTATED_RANGES,
    "later": {"a": ["2025-03-05 00:00:00", "2025-03-10 00:00:00"]},
    "earlier": {"b": ["2025-03-01 00:00:00", "2025-03-06 00:00:00"]},
}


def read_units_of(name: str) -> restated.ReadUnits | None:
    found = READ_UNITS[name]
    return None if found is None else restated.ReadUnits(**found)


#: spec §15: many_rows_per_key values, key samples and (rows, shared) of a sample
MANY = (True, False, "auto")
SAMPLED_KEYS = ([], [[1], [2], [3]], [[7], [7], [1], [7], [2], [7]], [[1, "x"], [1, "y"], [1, "x"], [None, "x"]])
SHARINGS = {"sparse": (1000, 1.04), "edge": (400, 7.96), "dense": (1000, 8.0), "empty": (0, 0.0)}


def sharing_or_none(name: str | None) -> plan_choice.KeySharing | None:
    return None if name is None else plan_choice.KeySharing(*SHARINGS[name])


def sharing_dict_or_none(name: str | None) -> dict[str, Any] | None:
    return None if name is None else dict(zip(("rows", "shared"), SHARINGS[name], strict=True))


def choice_dict(choice: plan_choice.PlanChoice | None) -> dict[str, Any] | None:
    """A PlanChoice as the macros return it (with its text)."""
    if choice is None:
        return None
    return {
        "grouped": choice.grouped,
        "reason": choice.reason,
        "pairs_a_rows": choice.pairs_a_rows,
        "text": choice.text,
    }


def plan_parameters(p: Params) -> JoinParameters:
    aggregate = (("n", "count(*)"),) if p["mode"] == "aggregate" else ()
    partner = "first" if p["mode"] == "first" else "all"
    fields = dict(many_rows_per_key=p["many"], partner=partner, aggregate=aggregate)
    return dataclasses.replace(join_parameters(dict(p, lb=1, mw=2, unit="day")), **fields)


def plan_macro_parameters(p: Params) -> dict[str, Any]:
    fields = dict(mode=p["mode"], many_rows_per_key=p["many"])
    return dict(macro_parameters(dict(p, lb=1, mw=2, unit="day")), **fields)


SHIFTS = (-3, 0, 1, 5)
LATE = (0, 2)
HOWS = join_types.HOW_VALUES

TWINS: tuple[Twin, ...] = (
    # time_units.py = _time_units.sql
    Twin(
        time_units.units_text,
        "_units_text",
        grid(unit=UNITS, units=(1, 8)),
        lambda p: call(p["units"], UNIT_ARG(p)),
        lambda p: [p["units"], p["unit"]],
    ),
    Twin(
        time_units.shift_value,
        "_shift_value",
        grid(unit=UNITS, n=SHIFTS),
        lambda p: call(START[p["unit"]], p["n"], UNIT_ARG(p)),
        lambda p: [START[p["unit"]], p["n"], p["unit"]],
    ),
    Twin(
        time_units.floor_value,
        "_floor_value",
        grid(unit=UNITS, value=(date(2025, 3, 6), datetime(2025, 3, 6, 10, 37, 12))),
        lambda p: call(p["value"], UNIT_ARG(p)),
        lambda p: [p["value"], p["unit"]],
    ),
    # window.py = _window.sql: what a run reads of each input
    Twin(
        window.read_ranges,
        "_read_ranges",
        with_lbmw(grid(unit=UNITS, how=HOWS, lbmw=WINDOWS, late=LATE, start=(False, True))),
        lambda p: call(
            window.OutputWindow(start_of(p), END[p["unit"]]),
            how=p["how"],
            look_back_time=p["lb"],
            max_waiting_time=p["mw"],
            unit=UNIT_ARG(p),
            late_match_time=p["late"],
        ),
        lambda p: [start_of(p), END[p["unit"]], p["how"], p["lb"], p["mw"], p["unit"], p["late"]],
    ),
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
    Twin(
        window.run_log_line,
        "_run_log_line",
        grid(unit=UNITS, bounds=("open", "closed", "no_end", "reversed")),
        lambda p: call("m", log_window(p), "batch", "watermark", log_ranges(p)),
        lambda p: ["m", macro_log_window(p), log_ranges(p)],
    ),
    # ledger.py, watermark.py = _window.sql: the cap of spec §13 and the watermark's text
    Twin(
        ledger.cap_window,
        "_cap_window",
        grid(unit=UNITS, cap=(None, 1, 3, 10), start=(False, True)),
        lambda p: call(start_of(p), END[p["unit"]], p["cap"], UNIT_ARG(p)),
        lambda p: [start_of(p), END[p["unit"]], False, p["cap"], p["unit"]],
    ),
    Twin(
        ledger.units_between,
        "_units_between",
        grid(unit=UNITS),
        lambda p: call(END[p["unit"]], START[p["unit"]], UNIT_ARG(p)),
        lambda p: [END[p["unit"]], START[p["unit"]], p["unit"]],
    ),
    Twin(
        watermark.watermark_text,
        "_watermark_text",
        grid(a=(None, date(2025, 3, 6)), b=(None, START["hour"])),
        lambda p: call(p["a"], p["b"]),
        lambda p: [p["a"], p["b"]],
    ),
    Twin(
        watermark.named_watermark_text,
        "_named_watermark_text",
        grid(
            unit=UNITS,
            maxima=((True, True, True), (True, False, True), (False, False, True), (True, True, "later")),
        ),
        lambda p: call(["a", "pay", "ship"], named_maxima(p)),
        lambda p: [["a", "pay", "ship"], named_maxima(p)],
    ),
    # sizing/ = sizing/_sizing_*.sql: which A rows a sizing over a live history counts, and its report line;
    # which of two windows is the minimal one (the tie rule of both minimal windows)
    Twin(
        sizing_histogram.better_window,
        "_better_window",
        grid(candidate=((0, 0), (1, 2), (2, 1), (3, 0), (0, 4)), best=(None, (0, 0), (1, 2), (2, 1), (3, 1))),
        lambda p: call(p["candidate"], p["best"]),
        lambda p: [p["candidate"], p["best"]],
    ),
    Twin(
        sizing_spark._kept_sql,
        "_kept_sql",
        grid(unit=UNITS, complete=(False, True)),
        lambda p: call(TimeUnit(p["unit"]), p["complete"]),
        lambda p: [p["unit"], p["complete"]],
    ),
    Twin(
        sizing_results.censoring_text,
        "_censoring_text",
        grid(unit=UNITS, watermark=(None, "2025-03-06"), left_out=(0, 1234), applied=(False, True)),
        lambda p: call(sizing_results.Censoring(p["watermark"], 6, p["left_out"], p["applied"]), p["unit"]),
        lambda p: [
            {"watermark": p["watermark"], "reach": 6, "left_out": p["left_out"], "applied": p["applied"]},
            p["unit"],
        ],
    ),
    # render.py = _render.sql: the join condition, the output window test, the classification, the projections
    # columns.py = _columns.sql
    Twin(
        columns.plan_columns,
        "_plan_columns",
        grid(schema=range(len(SCHEMAS))),
        python_plan,
        macro_plan,
        python_shape=plan_shape,
        macro_shape=plan_shape,
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
    Twin(
        join_types.emitted_join_types,
        "_emitted_join_types",
        grid(how=HOWS, waiting=(False, True), mode=join_types.ROW_MODES, late_match=(False, True)),
        lambda p: call(p["how"], p["waiting"], p["mode"], p["late_match"]),
        lambda p: [p["how"], p["waiting"], p["mode"], p["late_match"]],
        macro_shape=codes,
    ),
    # arrival_groups.py = _arrival_groups.sql: one row per A
    # aggregates.py = _aggregates.sql, join_cond.py = _join_cond.sql
    Twin(
        join_cond.rewrite_join_cond,
        "_rewrite_join_cond",
        [
            {"text": text}
            for text in (
                "abs(a.Amount - b.amount) < 0.01",
                "a.`Paid At` <= b.Seq AND a.Amount > 0 AND b.Seq > a.amount",
                "a.Note = 'a.Amount' OR b.Seq IS NULL",
                "A.Amount = B.Amount",
            )
        ],
        lambda p: call(p["text"], ["Amount", "Paid At", "Note"], ["amount", "Seq"]),
        lambda p: [p["text"], ["Amount", "Paid At", "Note"], ["amount", "Seq"]],
    ),
    # plan_choice.py = _plan_choice.sql: the plan of a run and why (spec §15)
    Twin(
        plan_choice.fixed_plan,
        "_fixed_plan",
        grid(mode=("all", "first", "aggregate"), late=LATE, enforce=(True, False), many=MANY, empty=(False, True)),
        lambda p: call(plan_parameters(p), p["empty"]),
        lambda p: [plan_macro_parameters(p), p["empty"]],
        python_shape=choice_dict,
    ),
    Twin(
        plan_choice.forced_plan,
        "_forced_plan",
        grid(mode=("first", "aggregate"), late=(0,), enforce=(True,), many=MANY, empty=(False, True)),
        lambda p: call(plan_parameters(p), p["empty"]),
        lambda p: [plan_macro_parameters(p), p["empty"]],
        python_shape=choice_dict,
    ),
    Twin(
        plan_choice.key_sharing,
        "_key_sharing",
        [{"keys": keys} for keys in SAMPLED_KEYS],
        lambda p: call(p["keys"]),
        lambda p: [p["keys"]],
        python_shape=dataclasses.asdict,
    ),
    Twin(
        plan_choice.auto_plan,
        "_auto_plan",
        grid(a=tuple(SHARINGS), b=(None, *SHARINGS)),
        lambda p: call(plan_choice.KeySharing(*SHARINGS[p["a"]]), sharing_or_none(p["b"])),
        lambda p: [dict(zip(("rows", "shared"), SHARINGS[p["a"]], strict=True)), sharing_dict_or_none(p["b"])],
        python_shape=choice_dict,
    ),
    Twin(
        plan_choice.range_plan,
        "_range_plan",
        grid(unit=UNITS, start=(False, True), reach=((0, 0), (1, 0), (1, 2), (30, 20))),
        lambda p: call(start_of(p), END[p["unit"]], *p["reach"], UNIT_ARG(p)),
        lambda p: [start_of(p), END[p["unit"]], *p["reach"], p["unit"]],
        python_shape=choice_dict,
    ),
    Twin(
        plan_choice.sample_predicate,
        "_sample_predicate",
        [{"keys": ["k"]}, {"keys": ["Trade Id", "k2"]}],
        lambda p: call(p["keys"], "RecDate >= DATE'2025-03-01'"),
        lambda p: [p["keys"], "RecDate >= DATE'2025-03-01'"],
    ),
    # restated.py = ledger/_restated.sql: the fingerprints of a run's reads and what differs (spec §14)
    Twin(
        restated.latest_units,
        "_latest_units",
        grid(unit=("day",), start=("2025-03-01", "2025-03-06", "2025-03-10"), names=(["a", "b"], ["b", "c"])),
        lambda p: call(read_units_of("open"), p["names"], date.fromisoformat(p["start"]), UNIT_ARG(p)),
        lambda p: [READ_UNITS["open"], p["names"], date.fromisoformat(p["start"])],
        python_shape=lambda found: [restated.unit_text(value) for value in found],
    ),
    Twin(
        restated.units_read,
        "_units_read",
        grid(read=tuple(READ_UNITS), queried=tuple(QUERIED)),
        lambda p: call(read_units_of(p["read"]), QUERIED[p["queried"]]),
        lambda p: [READ_UNITS[p["read"]], QUERIED[p["queried"]]],
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
