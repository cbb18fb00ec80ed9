"""The one line a dbt run logs (the SQL macro writes the same text; tests/integration compares the two)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from dbt_inc_join.plan.window import OutputWindow, read_ranges
from dbt_inc_join.sql_text import render
from dbt_inc_join.sql_text.time_units import TimeUnit


def watermark_text(a_max, b_max) -> str:
    return render("_watermark_text", a_max, b_max)


def named_watermark_text(names, maxima) -> str:
    return render("_named_watermark_text", names, maxima)


def run_log_line(target: str, window: OutputWindow, start_reason: str, end_reason: str, ranges) -> str:
    """The macro _run_log_line, which SQL and Python models log through (_log_run, _log_many_run)."""
    shown = {"start": window.start, "end": window.end, "empty": window.is_empty,
             "start_reason": start_reason, "end_reason": end_reason}  # fmt: skip
    return render("_run_log_line", target, shown, ranges)


pytestmark = pytest.mark.one_engine  # engine-independent: `make test` runs it on Spark 4 only


def test_a_run_names_its_window_reasons_and_read_ranges():
    window = OutputWindow(date(2025, 3, 7), date(2025, 3, 7))
    ranges = read_ranges(window, how="left", look_back_time=2, max_waiting_time=10, unit=TimeUnit.DAY)
    line = run_log_line(
        "analytics.trx",
        window,
        "max(RecDate) in analytics.trx + 1 day",
        f"availability watermark {watermark_text(date(2025, 3, 7), date(2025, 3, 9))}",
        ranges,
    )
    assert line == (
        "inc_join analytics.trx: window 2025-03-07..2025-03-07; start: max(RecDate) in analytics.trx "
        "+ 1 day; end: availability watermark min(max a 2025-03-07, max b 2025-03-09); "
        "reads a 2025-02-25..2025-03-07, b 2025-02-23..2025-03-07"
    )


def test_full_reads_a_as_far_back_as_b():
    window = OutputWindow(datetime(2025, 3, 7, 10), datetime(2025, 3, 7, 12))
    (a_lower, a_upper), (b_lower, b_upper) = read_ranges(
        window, how="full", look_back_time=1, max_waiting_time=3, unit=TimeUnit.HOUR
    )
    assert a_lower == b_lower == datetime(2025, 3, 7, 6) and a_upper == b_upper == datetime(2025, 3, 7, 12)


def test_empty_windows_say_why():
    no_end = run_log_line(
        "m",
        OutputWindow(date(2025, 3, 16), None),
        "s",
        f"a or b has no arrival from 2025-03-16 on yet: watermark {watermark_text(None, date(2025, 3, 20))}",
        None,
    )
    assert no_end == (
        "inc_join m: window empty (no end: no availability watermark); start: s; end: a or b has no "
        "arrival from 2025-03-16 on yet: watermark min(max a none, max b 2025-03-20); reads nothing"
    )
    backwards = run_log_line("m", OutputWindow(date(2025, 3, 16), date(2025, 3, 15)), "s", "e", None)
    assert backwards == "inc_join m: window empty (2025-03-16 is after 2025-03-15); start: s; end: e; reads nothing"


def test_a_many_run_names_each_input_and_the_one_that_holds_the_watermark():
    """inc_join_many with a stalled input (no arrival from the start on): each latest arrival under its input's
    name, and the stalled input named as the one that holds the run back."""
    stalled = named_watermark_text(["a", "pay", "ship"], [date(2025, 6, 7), None, date(2025, 6, 6)])
    assert stalled == "min(max a 2025-06-07, max pay none, max ship 2025-06-06), held back by pay"
    line = run_log_line(
        "shop.order_payments",
        OutputWindow(date(2025, 6, 8), None),
        "max(ordered_at) in shop.order_payments + 1 day",
        f"a or b has no arrival from 2025-06-08 on yet: watermark {stalled}",
        None,
    )
    assert line == (
        "inc_join shop.order_payments: window empty (no end: no availability watermark); start: "
        "max(ordered_at) in shop.order_payments + 1 day; end: a or b has no arrival from 2025-06-08 on yet: "
        "watermark min(max a 2025-06-07, max pay none, max ship 2025-06-06), held back by pay; reads nothing"
    )
    behind = named_watermark_text(["a", "pay", "ship"], [date(2025, 6, 7), date(2025, 6, 5), date(2025, 6, 6)])
    assert behind == "min(max a 2025-06-07, max pay 2025-06-05, max ship 2025-06-06), held back by pay"
    tied = named_watermark_text(["a", "pay", "ship"], [date(2025, 6, 6), date(2025, 6, 7), date(2025, 6, 6)])
    assert tied.endswith("held back by a and ship")
    three = named_watermark_text(["a", "pay", "ship"], [date(2025, 6, 6), date(2025, 6, 6), date(2025, 6, 6)])
    assert three.endswith("held back by a, pay and ship")


def test_an_end_without_a_watermark_names_the_inputs_that_have_no_arrival():
    """The end's reason of a run with no watermark: `a or b`, or inc_join_many's A and each input by name."""
    explicit, seen = {"end": None, "end_reason": None}, {"watermark": None, "text": "w"}
    many = render("_window_end", explicit, date(2025, 6, 8), seen, None, "day", ["a", "pay", "ship"])
    assert many["empty"] and many["reason"] == "a, pay or ship has no arrival from 2025-06-08 on yet: watermark w"
    one = render("_window_end", explicit, None, seen, None, "day")
    assert one["reason"] == "no arrivals yet in a or b: watermark w"


def test_an_empty_run_names_the_inputs_without_an_arrival_since_its_start():
    """The watermark's rule lists the inputs whose latest arrival from the start on is none; the end's reason
    names them (one input: `has`; several: `have`)."""
    explicit = {"end": None, "end_reason": None}
    sides = [("a", None, None, None), ("b", None, None, None)]
    seen = render("_watermark_from", {"a_max": None, "b_max": "2025-06-09 00:00:00"}, sides, None, "day")
    assert seen["watermark"] is None and seen["stalled"] == ["a"]
    end = render("_window_end", explicit, date(2025, 6, 8), seen, None, "day")
    assert end["reason"] == "a has no arrival from 2025-06-08 on yet: watermark min(max a none, max b 2025-06-09)"
    names = ["a", "pay", "ship"]
    three = [(name, None, None, None) for name in names]
    both = render("_watermark_from", {"a_max": "2025-06-09 00:00:00", "pay_max": None, "ship_max": None}, three,
                  None, "day", names)  # fmt: skip
    assert both["stalled"] == ["pay", "ship"]
    many = render("_window_end", explicit, date(2025, 6, 8), both, None, "day", names)
    assert many["reason"].startswith("pay and ship have no arrival from 2025-06-08 on yet: watermark min(")
