"""Unusual but valid inputs (issue 6): odd column names, empty inputs, all-NULL keys, NULL arrivals and a
window whose start is after its end. Each gives the brute-force reference's answer, never an error."""

from __future__ import annotations

import pytest

from dbt_inc_join import inc_join

from .frames import bound, oracle_rows, side_frame
from .oracle import expected_rows

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine

LB, MW, START, END = 1, 3, 0, 12
A_ROWS = [
    dict(id=1, k=1, t=2),
    dict(id=2, k=2, t=4),
    dict(id=3, k=3, t=None),
    dict(id=4, k=2, t=6),
    dict(id=5, k=None, t=5),
]
B_ROWS = [
    dict(id=11, k=1, t=1),
    dict(id=12, k=2, t=7),
    dict(id=13, k=3, t=3),
    dict(id=14, k=None, t=5),
    dict(id=15, k=2, t=None),
]
# Names that need quoting, clash with SQL keywords, or look like the join's own internal columns.
ODD = {"id": "Trx Id.v2", "k": "select", "RecDate": "Rec`Date", "a_val": "_a_arrival", "b_val": "_ak0"}


def run(df_a, df_b, how, start=START, end=END, **names):
    return inc_join(
        df_a,
        df_b,
        join_cols=names.get("k", "k"),
        inc_col=names.get("RecDate", "RecDate"),
        how=how,
        look_back_time=LB,
        max_waiting_time=MW,
        output_window_start=bound(start, "day"),
        output_window_end=bound(end, "day"),
    )


def expected(a_rows, b_rows, how, start=START, end=END):
    return sorted(expected_rows(a_rows, b_rows, how=how, lb=LB, mw=MW, start=start, end=end), key=repr)


def frames(spark, a_rows=A_ROWS, b_rows=B_ROWS):
    return side_frame(spark, a_rows, "a", "day", "date"), side_frame(spark, b_rows, "b", "day", "date")


@pytest.mark.parametrize("how", ["left", "full"])
def test_odd_column_names_give_the_same_rows(spark, how):
    """Spaces, dots, a backtick, a reserved word and names like the join's internal columns: renaming the
    inputs renames the output and changes nothing else."""
    df_a, df_b = frames(spark)
    odd_a = df_a.toDF(*[ODD.get(c, c) for c in df_a.columns])
    odd_b = df_b.toDF(*[ODD.get(c, c) for c in df_b.columns])
    result = run(odd_a, odd_b, how, **ODD)
    to_odd = {f"{plain}{suffix}": f"{odd}{suffix}" for plain, odd in ODD.items() for suffix in ("", "_A", "_B")}
    assert result.columns == [to_odd.get(c, c) for c in run(df_a, df_b, how).columns]
    back = {odd: plain for plain, odd in to_odd.items()}
    plain = result.toDF(*[back.get(c, c) for c in result.columns])
    assert sorted(oracle_rows(plain, "day"), key=repr) == expected(A_ROWS, B_ROWS, how)


@pytest.mark.parametrize("how", ["inner", "left", "full", "left_anti"])
@pytest.mark.parametrize("empty", ["a", "b", "both"])
def test_an_empty_input(spark, how, empty):
    a_rows = [] if empty in ("a", "both") else A_ROWS
    b_rows = [] if empty in ("b", "both") else B_ROWS
    result = run(*frames(spark, a_rows, b_rows), how)
    assert sorted(oracle_rows(result, "day"), key=repr) == expected(a_rows, b_rows, how)


def test_an_empty_input_without_an_end_waits(spark):
    """With no explicit end, the end is the watermark min(max a, max b): an empty input has none, so the
    run emits nothing rather than timing out every row of the other side."""
    df_a, df_b = frames(spark, A_ROWS, [])
    assert inc_join(df_a, df_b, join_cols="k", how="full", max_waiting_time=MW).count() == 0


@pytest.mark.parametrize("how", ["left", "full"])
def test_all_keys_null_nothing_matches(spark, how):
    a_rows = [dict(r, k=None) for r in A_ROWS]
    b_rows = [dict(r, k=None) for r in B_ROWS]
    rows = sorted(oracle_rows(run(*frames(spark, a_rows, b_rows), how), "day"), key=repr)
    assert rows == expected(a_rows, b_rows, how)
    assert {r[4] for r in rows} == ({4} if how == "left" else {4, 6})


def test_null_arrivals_are_excluded(spark):
    rows = oracle_rows(run(*frames(spark), "full"), "day")
    assert 3 not in {r[2] for r in rows} and 15 not in {r[3] for r in rows}
    assert sorted(rows, key=repr) == expected(A_ROWS, B_ROWS, "full")


@pytest.mark.parametrize("how", ["left", "full"])
def test_start_after_end_is_an_empty_run(spark, how):
    result = run(*frames(spark), how, start=9, end=8)
    assert result.count() == 0
    assert result.columns == run(*frames(spark), how).columns
