"""Inputs rewritten after a run read them (docs/spec.md §14): the fingerprints of what a run read, the units that
differ from what an earlier committed run read, and what a run does about them.

The rules are the macros' (sql_text/_restated.sql, rendered here); the fingerprints themselves are read by
plan/fingerprints.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from ..sql_text import render
from ..sql_text.time_units import TimeUnit, UnitValue, shift_value
from ..tables.shared_tables import ON_RESTATED_INPUT_VALUES
from .fingerprints import ReadUnits, Side, Units, fingerprints
from .validation import check_choice, check_window_length
from .window import OutputWindow, parse_bound, read_ranges


def unit_label(text: str, unit: TimeUnit) -> str:
    """Fingerprint text as a user writes the unit: a date for ``day``, else the timestamp."""
    return text[:10] if unit is TimeUnit.DAY else text


def _inside(unit: str, lower: str | None, upper: str | None) -> bool:
    return (lower is None or unit >= lower) and (upper is None or unit <= upper)


def fingerprint_record(units: Units, ranges: Mapping[str, Sequence[str | None]],
                       redone: Mapping[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """What a run records of its reads (the macro _fingerprint_record): the units of ``ranges``, with their
    fingerprints, and the redo markers of the upstream inc_join tables (``redone``, see upstream_restated)."""
    ranges_of = {name: list(bounds) for name, bounds in ranges.items()}
    return dict(render("_fingerprint_record", units, ranges_of, dict(redone or {})))


def restated_units(previous: Mapping[str, Any] | None, units: Units,
                   ranges: Mapping[str, Sequence[str | None]]) -> list[dict[str, Any]]:  # fmt: skip
    """The units, inside both this run's read range and the one an earlier committed run recorded, whose
    fingerprint differs (the macro _restated_units): {input, unit, rows_then, rows_now}, earliest first."""
    return list(render("_restated_units", previous, units, {name: list(b) for name, b in ranges.items()}))


def upstream_restated(previous: Mapping[str, Any] | None, redone: Mapping[str, Any],
                      unit: TimeUnit) -> list[dict[str, Any]]:  # fmt: skip
    """The upstream inc_join tables redone since the last committed run, each restating its unit ``from`` on (the
    macro _upstream_restated)."""
    return list(render("_upstream_restated", previous, redone, unit.value))


#: what a run does with restated units (on_restated_input)
Mode = Literal["warn", "fail", "redo"]


def on_restated_input_mode(argument: object, var_value: object) -> Mode:
    """What a run does with restated units: var inc_join_on_restated_input > argument > ``warn``."""
    if var_value not in (None, ""):
        found = check_choice("inc_join_on_restated_input", var_value, ON_RESTATED_INPUT_VALUES)
    else:
        found = "warn" if argument is None else check_choice("on_restated_input", argument, ON_RESTATED_INPUT_VALUES)
    return cast(Mode, found)


def restated_text(restated: Sequence[Mapping[str, Any]], unit: TimeUnit) -> str:
    """The restated units as the log line, the message and the ledger's reason name them (_restated_text)."""
    return str(render("_restated_text", list(restated), unit.value))


def restated_message(target: str, model_name: str, restated: Sequence[Mapping[str, Any]], unit: TimeUnit,
                     mode: str, checked: Mapping[str, Sequence[str | None]], horizon: int,
                     logged: Sequence[str] = ()) -> str:  # fmt: skip
    """The warning (mode warn) or the error (mode fail) of a run with restated units not yet redone, one field a
    line: what it found (at most 10 units, then their count and the view that lists them all), what it compared
    (``logged``: the inputs whose older units it checked from their logs), and the one command that repairs the
    table and the models that read it (the macro _restated_message)."""
    compared = {name: list(bounds) for name, bounds in checked.items()}
    return str(
        render(
            "_restated_message", target, model_name, list(restated), unit.value, mode, compared, horizon, list(logged)
        )
    )


def pending_units(
    found: Sequence[Mapping[str, Any]], outstanding: Sequence[Mapping[str, Any]] | None
) -> list[dict[str, Any]]:
    """The restated units a run acts on: those it found now, and those found earlier that no run has redone; one
    per input and unit, earliest first (the macro _pending_units)."""
    return [dict(row) for row in render("_pending_units", [dict(row) for row in found], list(outstanding or []))]


def recorded_fingerprints(records: Sequence[Mapping[str, Any]],
                          ranges: Mapping[str, Sequence[str | None]]) -> dict[str, Any]:  # fmt: skip
    """What the ledger's records last saw of each unit of ``ranges`` (the macro _recorded_fingerprints)."""
    return dict(render("_recorded_fingerprints", list(records), {name: list(b) for name, b in ranges.items()}))


def covers(record: Mapping[str, Any] | None, ranges: Mapping[str, Sequence[str | None]]) -> bool:
    """Whether a fingerprint record reaches back to the start of every range of ``ranges`` (the macro _covers)."""
    return bool(render("_covers", record, {name: list(b) for name, b in ranges.items()}))


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


def check_redo_strategy(strategy: object, parameter: str) -> None:
    """A redo replaces the table's rows from a unit on: insert_overwrite, or merge on Delta and Iceberg
    (``_check_redo_strategy``)."""
    render("_check_redo_strategy", strategy, parameter)


# --- a dbt run's steps (the macros of the same names in macros/sql_text/_restated.sql) ---


@dataclass(frozen=True)
class Redo:
    """The earlier start of a run that redoes the table from a unit on, and why."""

    start: UnitValue
    reason: str


@dataclass
class Check:
    """What a run found of its inputs before it writes."""

    mode: Mode
    units: Units = field(default_factory=dict)
    queried: dict[str, list[str | None]] = field(default_factory=dict)
    restated: list[dict[str, Any]] = field(default_factory=list)  #: found now (the ledger's restated)
    pending: list[dict[str, Any]] = field(default_factory=list)  #: found now or earlier, not redone
    redone: dict[str, Any] = field(default_factory=dict)
    horizon: int = 0


def check_redo_config(context: Mapping[str, Any], mode: str) -> None:
    """Before any data is read: a redo (on_restated_input=redo, var inc_join_redo_from) replaces the table's rows
    from a unit on (``_check_redo_config``; the partitions are checked by ``_check_strategy``)."""
    if context.get("materialized") != "incremental":
        return
    parameters = ["on_restated_input=redo"] if mode == "redo" else []
    if context.get("redo_from") not in (None, ""):
        parameters.append("var inc_join_redo_from")
    for parameter in parameters:
        check_redo_strategy(context.get("incremental_strategy"), parameter)


def reaches(ranges: Mapping[str, tuple[UnitValue | None, UnitValue]], end: UnitValue, unit: TimeUnit) -> dict[str, int]:
    """How many units before a window's start each input's read range begins, from the ranges of [end, end]
    (``_reaches``)."""
    bounded = {name: bounds for name, bounds in ranges.items() if bounds[0] is not None}
    return dict(render("_reaches", bounded, end, unit.value))


def reach_ranges(reach: Mapping[str, int], start: UnitValue | None, end: UnitValue | None,
                 unit: TimeUnit) -> dict[str, list[str | None]]:  # fmt: skip
    """Each input's read range of a window [start, end] (start None: from the beginning; end None: no end), as
    text (``_reach_ranges``)."""
    return dict(render("_reach_ranges", reach, start, end, unit.value))


def latest_units(read: ReadUnits, names: Sequence[str], start: UnitValue, unit: TimeUnit) -> list[UnitValue | None]:
    """Each input's latest unit from ``start`` on, None without one, in the order of ``names`` (the watermark's
    query asks max(arrival) from ``start`` on, latest_arrivals; a unit starts at its arrivals'); ``_latest_units``."""
    found = render("_latest_units", vars(read), names, start)
    return [parse_bound(text, "latest unit", unit) for text in found]


def units_read(read: ReadUnits | None, queried: Mapping[str, Sequence[str | None]]) -> Units | None:
    """The read units when they cover every queried range, else None (then the check reads them);
    ``_units_read``."""
    return render("_units_read", None if read is None else vars(read), queried)


def check_restated(window: OutputWindow, sides: Sequence[Side], reach: Mapping[str, int], mode: Mode, *,
                   records_runs: bool, incremental: bool, previous: Mapping[str, Any] | None,
                   redone: Mapping[str, Any], target: str, model_name: str, unit: TimeUnit,
                   log: Callable[[str], None], read: ReadUnits | None = None, horizon: int = 0,
                   outstanding: Sequence[Mapping[str, Any]] = (),
                   records: Callable[[], Sequence[Mapping[str, Any]]] = list,
                   logged: Callable[[Mapping[str, Any] | None, Mapping[str, Any]], Mapping[str, Any]] | None = None,
                   ) -> Check:  # fmt: skip
    """What a run that records its runs finds of its inputs before it writes (spec §14): the fingerprints of its
    read ranges and ``horizon`` units before them (``read``: from the watermark's query, when it took them), the
    units among them that differ from what the table's committed runs read (``previous``, the table property, or
    the ledger's ``records`` where it does not reach), and the units found earlier that no run has redone
    (``outstanding``). ``logged(previous, queried)``: the units the inputs' logs name before the read ranges and the
    lines of logs that are gone (spec §17, io/input_log.py's log_restated)."""
    check = Check(mode, horizon=horizon)
    if not records_runs or not incremental:
        return check  # a first run (or full refresh) only fingerprints what the next run reads again
    check.redone = dict(redone)
    # an upstream inc_join table redone since restates this table's input from the redo's start, window or not
    found = upstream_restated(previous, redone, unit)
    if not window.is_empty:
        assert window.end is not None
        first = window.start if window.start is not None else shift_value(window.end, 1, unit)
        check.queried = reach_ranges(reach, first, window.end, unit)
        units = units_read(read, check.queried)
        check.units = fingerprints(sides, check.queried, unit) if units is None else units
        compared = previous
        if previous and not covers(previous, check.queried):
            # a horizon or a redo reaches before what the last run recorded: what the ledger's records saw
            compared = recorded_fingerprints(records(), check.queried)
        found = restated_units(compared, check.units, check.queried) + found
    # the Delta and Iceberg inputs' logs since the versions the last committed run read: units older than the read
    # range, anywhere in history; a run with no window checks them too (spec §17)
    covered: list[str] = []
    if logged is not None:
        from_log = logged(previous, check.queried)
        for line in from_log["notes"]:
            log(line)
        found = found + list(from_log["found"])
        covered = list(from_log.get("covered", []))
    # a run with no window (nothing new yet) still acts on the units found earlier and not redone
    check.restated = sorted(found, key=lambda row: (row["unit"], row["input"]))
    check.pending = pending_units(found, outstanding)
    if check.pending and mode != "redo":
        message = restated_message(target, model_name, check.pending, unit, mode, check.queried, horizon, covered)
        if mode == "fail":
            raise ValueError(message)
        log(message)
    return check


def redo_of(check: Check, window: OutputWindow, unit: TimeUnit) -> Redo | None:
    """The redo a run with on_restated_input=redo makes of its restated units, found now or earlier: start at the
    earliest (no output row a unit can change is placed before it, spec §14), or None when the window already
    starts there."""
    if check.mode != "redo" or not check.pending:
        return None
    earliest = parse_bound(check.pending[0]["unit"], "restated unit", unit)
    assert earliest is not None
    if window.start is not None and earliest >= window.start:
        return None
    return Redo(earliest, f"on_restated_input=redo: restated {restated_text(check.pending, unit)}")


def restated_record(check: Check, window: OutputWindow, sides: Sequence[Side], reach: Mapping[str, int], *,
                    records_runs: bool, unit: TimeUnit, incremental: bool,
                    read_units_of: ReadUnits | None = None) -> dict[str, Any]:  # fmt: skip
    """The fingerprints the run records: those of every unit it read (and ``horizon`` before), so that the ledger
    knows what each unit held when a run last read it, and (``next``) the ranges the next run compares, which the
    post-hook mirrors in the table property inc_join.fingerprints. A redo reads before the units the check read
    (or, cut by max_window_units, ends before them): those are fingerprinted then."""
    if window.is_empty or not records_runs:
        return {"fingerprints": None, "restated": check.restated}
    assert window.end is not None
    following = reach_ranges(reach, shift_value(window.end, 1, unit), window.end, unit)
    read = (
        reach_ranges(reach, window.start, window.end, unit) if window.start is not None and incremental else following
    )
    recorded: dict[str, list[str | None]] = {}
    missing: dict[str, list[str | None]] = {}
    for name, (lower, upper) in read.items():
        first = min(str(lower), str(following[name][0]))
        recorded[name] = [first, upper]
        queried = check.queried.get(name)
        if not queried or not _inside(first, *queried) or not _inside(str(upper), *queried):
            missing[name] = [first, upper]
    units = dict(check.units)
    if missing:
        # a first run, or a redo: from the watermark's query when it took them, else fingerprinted now
        read_before = units_read(read_units_of, missing)
        units.update(read_before if read_before is not None else fingerprints(sides, missing, unit))
    record = fingerprint_record(units, recorded, check.redone)
    record["next"] = following
    return {"fingerprints": record, "restated": check.restated}


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
    return reaches({"a": ranges[0], "b": ranges[1]}, any_unit, params.time_uom)
