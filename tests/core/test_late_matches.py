"""spec §10 (late matches), by hand: the worked example of spec §9 and small crafted cases, each expected row
written out from the text of §10, not computed."""

from __future__ import annotations

from datetime import date

import pytest

from dbt_inc_join import inc_join
from dbt_inc_join.plan.window import OutputWindow, read_ranges
from dbt_inc_join.sql_text.time_units import TimeUnit

from .test_spec_example import EXPECTED_LEFT, SETTINGS, as_set, daily_runs

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine

WINDOW = dict(output_window_start="2025-03-05", output_window_end="2025-03-20")
TRX_6_LATE = (6, "2025-03-18", 7, 11, None)  # its payment came on 03-18, one day after the time-out


def test_the_worked_example_keeps_the_time_out_and_adds_the_late_match(inputs):
    result = inc_join(*inputs, late_match_time=3, **WINDOW, **SETTINGS)
    assert as_set(result) == EXPECTED_LEFT | {TRX_6_LATE}
    assert len(result.collect()) == 8


def test_a_late_partner_beyond_late_match_time_is_still_not_joined(inputs):
    # 03-18 is 1 day after the window closed on 03-17: late_match_time 0 keeps spec §9's table
    assert as_set(inc_join(*inputs, **WINDOW, **SETTINGS)) == EXPECTED_LEFT
    assert as_set(inc_join(*inputs, late_match_time=1, **WINDOW, **SETTINGS)) == EXPECTED_LEFT | {TRX_6_LATE}


def test_daily_runs_write_each_row_on_its_own_day(inputs):
    union = daily_runs(*inputs, date(2025, 3, 5), date(2025, 3, 20), late_match_time=3, **SETTINGS)
    rows = union.collect()
    assert len(rows) == 8
    assert {(r.TrxId, r.RecDate, r.JoinType, r.run_day) for r in rows if r.TrxId == 6} == {
        (6, date(2025, 3, 17), 4, date(2025, 3, 17)),
        (6, date(2025, 3, 18), 7, date(2025, 3, 18)),
    }


def test_full_a_late_partner_is_not_b_timed_out(inputs):
    without = inc_join(*inputs, how="full", **WINDOW, **SETTINGS)
    assert (6, "2025-03-20", 6, None, 2) in as_set(without)  # B row 6 on its own, at b + look_back_time
    late = inc_join(*inputs, how="full", late_match_time=3, **WINDOW, **SETTINGS)
    assert as_set(late) == EXPECTED_LEFT | {TRX_6_LATE}


def test_inner_emits_the_late_match_without_the_time_out(inputs):
    result = inc_join(*inputs, how="inner", late_match_time=3, **WINDOW, **SETTINGS)
    assert as_set(result) == {row for row in EXPECTED_LEFT if row[2] != 4} | {TRX_6_LATE}


def _days(spark, rows, columns="k int, id int, day int"):
    return spark.createDataFrame(rows, columns).selectExpr("k", "id", "date_add(DATE'2025-01-01', day - 1) AS RecDate")


def _rows(df):
    return {
        (r.k, r.RecDate.day, r.id_A, r.id_B, r.JoinType)
        for r in df.selectExpr("k", "RecDate", "id_A", "id_B", "JoinType").collect()
    }


SMALL = dict(join_cols="k", output_select="join_cols, inc_col, id_A, id_B, JoinType")


def test_several_late_partners_and_a_b_row_late_for_one_a_and_in_time_for_another(spark):
    # lb 0, mw 1, L 3. A 1 (day 1) times out on day 2; B 11 (day 3) and B 12 (day 5) are its late partners.
    # A 2 (day 3) has B 11 in its window: B 11 is an ordinary partner of A 2 and a late partner of A 1.
    # B 13 (day 6) is 5 days after A 1 closed: too late. Key 2: A 3 never gets anything.
    df_a = _days(spark, [(1, 1, 1), (1, 2, 3), (2, 3, 1)])
    df_b = _days(spark, [(1, 11, 3), (1, 12, 5), (1, 13, 6)])
    result = inc_join(
        df_a,
        df_b,
        how="left",
        look_back_time=0,
        max_waiting_time=1,
        late_match_time=3,
        output_window_start="2025-01-01",
        output_window_end="2025-01-08",
        **SMALL,
    )
    assert _rows(result) == {
        (1, 2, 1, None, 4),  # A 1 timed out at a + mw
        (1, 3, 1, 11, 7),  # ... and its late partners, each at b
        (1, 5, 1, 12, 7),
        (1, 3, 2, 11, 1),  # A 2 with B 11 the ordinary way
        (2, 2, 3, None, 4),
    }


def test_full_reads_b_far_enough_to_know_whether_a_late_partners_a_row_timed_out(spark):
    # lb 1, mw 0, L 1, a run over day 10 only. B 9 would be A 8's late partner (b in (a + mw, a + mw + L]) if
    # A 8 had timed out; but B 7 lies in A 8's window [7, 8], so A 8 matched and B 9 is b_timed_out at 10.
    # Knowing that needs B from day 7 = s - mw - L - 2 lb: one look_back_time more than spec §10 lists.
    df_a = _days(spark, [(1, 8, 8)])
    df_b = _days(spark, [(1, 7, 7), (1, 9, 9)])
    result = inc_join(
        df_a,
        df_b,
        how="full",
        look_back_time=1,
        max_waiting_time=0,
        late_match_time=1,
        output_window_start="2025-01-10",
        output_window_end="2025-01-10",
        **SMALL,
    )
    assert _rows(result) == {(1, 10, None, 9, 6)}


def test_read_ranges_reach_late_match_time_further():
    window = OutputWindow(date(2025, 3, 20), date(2025, 3, 21))
    common = dict(look_back_time=2, max_waiting_time=10, unit=TimeUnit.DAY, late_match_time=3)
    # A from s - mw - L, B from s - mw - L - lb
    assert read_ranges(window, how="left", **common) == (
        (date(2025, 3, 7), date(2025, 3, 21)),
        (date(2025, 3, 5), date(2025, 3, 21)),
    )
    # full: A from s - mw - L - lb, B one look_back_time more (the test above)
    assert read_ranges(window, how="full", **common) == (
        (date(2025, 3, 5), date(2025, 3, 21)),
        (date(2025, 3, 3), date(2025, 3, 21)),
    )
