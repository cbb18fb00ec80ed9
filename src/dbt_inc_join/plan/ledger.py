"""The run ledger's cap of a run (spec §13) in Python's spelling; the ledger's rules are the macros'
(macros/plan/_ledger.sql), which a Python model renders through its port (orchestration/python_models/port.py)."""

from __future__ import annotations


def check_max_window_units(value: object, parameter: str = "max_window_units") -> int | None:
    """A positive whole number of units, or None (no cap)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        shown = f"'{value}'" if isinstance(value, str) else str(value)
        raise ValueError(
            f"inc_join: {parameter} must be a positive whole number of time_uom units, e.g. 31 (got {shown})."
        )
    return value
