"""The open state's benchmark report without Spark (bench/open_state.py): rows read over the day's new rows, and
the state's time over today's, as the report prints them."""

from __future__ import annotations

from bench.open_state import report


def test_the_report_divides_the_rows_read_by_the_new_rows_and_the_times():
    result = {
        "format": "parquet",
        "rows": 1000,
        "partner": "first",
        "new_rows": 2000,
        "scans": {"today": {"a": 22000, "b": 13000, "state": 0}, "state": {"a": 2000, "b": 3000, "state": 1000}},
        "times": {"today": 4.0, "state": 1.0},
        "load": (1.25, 2.0),
    }
    line = report([result], ["--rows", "1000"]).splitlines()[-1]
    assert line == "| parquet | 1,000 | first | 17.50 | 3.00 (1.00 + 1.50 + 0.50) | 0.25 | 4.00 s | 1.00 s | 1.2–2.0 |"
