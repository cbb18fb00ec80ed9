"""The run ledger's cap of a run (spec §13) in Python's spelling; the ledger's rules are the macros'
(macros/plan/_ledger.sql), which a Python model renders through its port (orchestration/python_models/port.py)."""

from __future__ import annotations

from .validation import checked


def check_max_window_units(value: object, parameter: str = "max_window_units") -> int | None:
    """A positive whole number of units, or None (no cap): the macro ``_check_window_cap``."""
    return checked("_check_window_cap", value, parameter)
