"""The run ledger's rules (spec §13), as the SQL macros apply them (macros/plan/_ledger.sql, rendered here).

The ledger itself is written by the post-hook ``dbt_inc_join.record_run()`` for SQL and Python models alike;
what a Python model needs is where its run starts and how far it may go.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..sql_text import render
from ..sql_text.time_units import TimeUnit, UnitValue
from .validation import checked
from .window import parse_bound


@dataclass(frozen=True)
class LedgerStart:
    """Where an incremental run starts by the ledger (None: from the earliest arrival), and why."""

    start: UnitValue | None
    reason: str


def ledger_start(state: dict[str, Any], latest: UnitValue | None, inc_col: str, unit: TimeUnit) -> LedgerStart | None:
    """The start of an incremental run from the ledger's state of the table (``_ledger_state``: table_id,
    committed_end, last_start, last_rows, last_commit) and the table's latest output arrival; None when the table
    was never recorded (then the table decides, as without the ledger). The macro ``_ledger_start``."""
    fields = ("table_id", "ledger", "committed_end", "last_start", "last_rows", "last_commit")
    found = render("_ledger_start", {name: state.get(name) for name in fields}, latest, inc_col, unit.value)
    return None if found is None else LedgerStart(found["start"], found["reason"])


LatestFrom = Callable[[UnitValue | None], UnitValue | None]
"""max(inc_col) in the model's table from a unit on (None: the whole table)."""


@dataclass(frozen=True)
class CommittedState:
    state: dict[str, Any]
    latest: UnitValue | None


def committed_state(
    state: dict[str, Any],
    latest_from: LatestFrom,
    read_ledger: Callable[[], dict[str, Any]],
    unit: TimeUnit,
    read_last_commit: Callable[[], dict[str, Any] | None] = lambda: None,
) -> CommittedState:
    """The ledger's state of the table (``_ledger_state``: from the table property inc_join.committed, or from the
    ledger) and the table's latest output arrival, reading no more than needed. The same steps as the macro
    ``_committed_state``:

    - the table's rows from the last committed window's start on give its latest arrival when it has any;
    - the whole table only when it has none there although that window wrote rows (rows gone);
    - the ledger (``read_ledger``) only when the table holds rows after the window the property names: the
      property is written after the record, so a run killed between the two left it one record behind;
    - the table's commits (``read_last_commit``, Delta and Iceberg) only when it still does after the ledger's
      last window: a run committed them without a record, and the start's reason names that commit."""
    committed_end = parse_bound(state.get("committed_end"), "ledger window_end", unit)
    since = None if committed_end is None else parse_bound(state["last_start"], "ledger window_start", unit)
    latest = latest_from(since)
    if state.get("source") != "ledger" and committed_end is not None and latest is not None and latest > committed_end:
        state = read_ledger()
        committed_end = parse_bound(state.get("committed_end"), "ledger window_end", unit)
    if committed_end is not None and latest is not None and latest > committed_end:
        state = {**state, "last_commit": read_last_commit()}
    if since is not None and latest is None and state.get("last_rows"):
        latest = latest_from(None)
    return CommittedState(state, latest)


def check_max_window_units(value: object, parameter: str = "max_window_units") -> int | None:
    """A positive whole number of units, or None (no cap): the macro ``_check_window_cap``."""
    return checked("_check_window_cap", value, parameter)
