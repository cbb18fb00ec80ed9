"""Inputs rewritten after a run read them (docs/spec.md §14), in a Python model's arguments: what a run does with
restated units and how far before its read ranges it compares. The check itself, the redo and what a run records
are the macros' (macros/io/_restated_run.sql, over the rules of sql_text/_restated.sql), which a Python model runs
through its port (orchestration/python_models/port.py); the fingerprints of a DataFrame are plan/fingerprints.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

from ..sql_text import render
from ..tables.shared_tables import ON_RESTATED_INPUT_VALUES
from .validation import check_choice, check_window_length
from .window import OutputWindow, parse_bound, read_ranges

#: what a run does with restated units (on_restated_input)
Mode = Literal["warn", "fail", "redo"]


def on_restated_input_mode(argument: object, var_value: object) -> Mode:
    """What a run does with restated units: var inc_join_on_restated_input > argument > ``warn``."""
    if var_value not in (None, ""):
        found = check_choice("inc_join_on_restated_input", var_value, ON_RESTATED_INPUT_VALUES)
    else:
        found = "warn" if argument is None else check_choice("on_restated_input", argument, ON_RESTATED_INPUT_VALUES)
    return cast(Mode, found)


def restated_horizon(argument: object, var_value: object) -> int:
    """How many units before its read ranges a run also compares (spec §14): var inc_join_restated_horizon >
    argument > 0."""
    if var_value not in (None, ""):
        return check_window_length("inc_join_restated_horizon", var_value)
    if argument is None:
        return 0
    return check_window_length("restated_horizon", argument)


def with_horizon(reach: Mapping[str, int], horizon: int) -> dict[str, int]:
    """The reaches of the fingerprints: each input's read range, and ``horizon`` more units before it
    (``_with_horizon``)."""
    return dict(render("_with_horizon", reach, horizon))


def join_reaches(params: Any) -> dict[str, int]:
    """How far before a window's start inc_join reads A and B ({'a': units, 'b': units}; spec §4): the read
    ranges of any one-unit window, here 2000-01-01's."""
    any_unit = parse_bound("2000-01-01", "any unit", params.time_uom)
    assert any_unit is not None
    ranges = read_ranges(
        OutputWindow(any_unit, any_unit),
        how=params.how,
        look_back_time=params.look_back_time,
        max_waiting_time=params.max_waiting_time,
        unit=params.time_uom,
        late_match_time=params.late_match_time,
    )
    return dict(render("_reaches", {"a": ranges[0], "b": ranges[1]}, any_unit, params.time_uom.value))
