"""spec §12 in the core: join_cols as a mapping, inc_col as a pair, and join_cond (src/dbt_inc_join/join_cond.py),
checked against the brute-force oracle on fixed rows where the condition decides pairs, time-outs and late
matches; the hypothesis tiling properties (test_properties.py) draw the same conditions over random rows."""

from __future__ import annotations

from collections import Counter

import pytest

from dbt_inc_join import inc_join
from dbt_inc_join.join_cond import rewrite_join_cond

from .frames import bound, oracle_rows, side_frame
from .oracle import expected_rows
from .test_properties import CONDITIONS

# keys 0-2; several B rows per A row, some inside A's window, some after it (late), some before it
A_ROWS = [dict(id=100 + i, k=i % 3, t=2 + i % 5, jitter=0) for i in range(9)]
B_ROWS = [dict(id=200 + j, k=j % 3, t=j % 11, jitter=0) for j in range(14)]


@pytest.fixture(scope="module")
def renamed_frames(spark):
    a = side_frame(spark, A_ROWS, "a", "day", "date")
    b = side_frame(spark, B_ROWS, "b", "day", "date").withColumnsRenamed({"k": "bk", "RecDate": "PaidAt"})
    return a, b


@pytest.mark.parametrize("cond", sorted(CONDITIONS))
@pytest.mark.parametrize("how, late", [("inner", 0), ("left", 0), ("full", 0), ("left", 2), ("full", 3)])
def test_join_cond_decides_partners_as_the_oracle_says(renamed_frames, cond, how, late):
    sql, test = CONDITIONS[cond]
    arguments = dict(
        join_cols={"k": "bk"},
        inc_col=("RecDate", "PaidAt"),
        join_cond=sql,
        how=how,
        look_back_time=1,
        max_waiting_time=2,
        late_match_time=late,
        time_uom="day",
    )
    whole = Counter(
        oracle_rows(
            inc_join(
                *renamed_frames, output_window_start=bound(0, "day"), output_window_end=bound(16, "day"), **arguments
            ),
            "day",
        )
    )
    oracle = dict(how=how, lb=1, mw=2, late_match_time=late)
    expected = Counter(expected_rows(A_ROWS, B_ROWS, start=0, end=16, join_cond=test, **oracle))
    without_cond = Counter(expected_rows(A_ROWS, B_ROWS, start=0, end=16, **oracle))
    assert expected != without_cond, "the rows make the condition decide something"
    assert whole == expected
    pieces = Counter()
    for lo, hi in [(0, 4), (5, 5), (6, 16)]:
        run = inc_join(
            *renamed_frames, output_window_start=bound(lo, "day"), output_window_end=bound(hi, "day"), **arguments
        )
        pieces += Counter(oracle_rows(run, "day"))
    assert pieces == whole


def test_the_output_keeps_a_names_and_suffixes_each_raw_arrival(renamed_frames):
    result = inc_join(
        *renamed_frames,
        join_cols={"k": "bk"},
        inc_col=("RecDate", "PaidAt"),
        output_window_start="2025-01-01",
        output_window_end="2025-01-20",
    )
    assert result.columns == [
        "k", "RecDate", "id_A", "RecDate_A", "a_val", "id_B", "PaidAt_B", "b_val",
        "DiffArrivalTime", "WaitingTime", "JoinType",
    ]  # fmt: skip


def test_string_literals_and_struct_fields_are_left_alone():
    found = rewrite_join_cond("a.x = 'a.y' AND b.s.inner > a.x AND b.`odd name` <> \"b.z\"", ["x"], ["s", "odd name"])
    assert found.sql == "_ac0 = 'a.y' AND _bc0.inner > _ac0 AND _bc1 <> \"b.z\""
    assert (found.a_columns, found.b_columns) == (("x",), ("s", "odd name"))
