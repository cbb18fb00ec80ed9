"""spec §12 in the core: join_cols as a mapping, inc_col as a pair, and join_cond (macros/sql_text/_join_cond.sql),
checked against the brute-force oracle on fixed rows where the condition decides pairs, time-outs and late
matches; the hypothesis tiling properties (test_properties.py) draw the same conditions over random rows."""

from __future__ import annotations

from collections import Counter

import pytest

from dbt_inc_join import inc_join
from dbt_inc_join.sql_text import render

from .frames import bound, oracle_rows, side_frame, units_since_origin
from .oracle import expected_rows
from .test_properties import CONDITIONS

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine

# keys 0-2; several B rows per A row, some inside A's window, some after it (late), some before it
A_ROWS = [dict(id=100 + i, k=i % 3, t=2 + i % 5, jitter=0) for i in range(9)]
B_ROWS = [dict(id=200 + j, k=j % 3, t=j % 11, jitter=0) for j in range(14)]


@pytest.fixture(scope="module")
def renamed_frames(spark):
    a = side_frame(spark, A_ROWS, "a", "day", "date")
    b = side_frame(spark, B_ROWS, "b", "day", "date").withColumnsRenamed({"k": "bk", "RecDate": "PaidAt"})
    return a, b


PARTNER_RUNS = [("inner", 0), ("left", 0), ("full", 0), ("left", 2), ("full", 3)]
# each condition with two of the runs, each run with two conditions (`make test`); every pair in `make test-matrix`
PARTNER_CASES = [
    pytest.param(cond, how, late, marks=() if (i - j) % len(PARTNER_RUNS) in (0, 1) else pytest.mark.matrix)
    for i, cond in enumerate(sorted(CONDITIONS))
    for j, (how, late) in enumerate(PARTNER_RUNS)
]


@pytest.mark.parametrize("cond, how, late", PARTNER_CASES)
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
    # tiled runs with these conditions, every how and late matches: test_properties' tiling property


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
    text = "a.x = 'a.y' AND b.s.inner > a.x AND b.`odd name` <> \"b.z\""
    found = render("_rewrite_join_cond", text, ["x"], ["s", "odd name"])
    assert found["sql"] == "_ac0 = 'a.y' AND _bc0.inner > _ac0 AND _bc1 <> \"b.z\""
    assert (found["a_columns"], found["b_columns"]) == (["x"], ["s", "odd name"])


# one row per A (spec §11) with a join_cond: the plans pair B with A's distinct (keys, arrival, join_cond's A
# columns) and join back null-safe, so an A column that is NULL still finds what its condition says
ONE_ROW_MODES = {
    "first-left": dict(how="left", partner="first"),
    "first-full": dict(how="full", partner="first"),
    "last-left": dict(how="left", partner="last"),
    "aggregate-left": dict(how="left", aggregate={"ids": "sort_array(collect_list(id))"}),
    "many-full": dict(how="full", many_rows_per_key=True),
    "many-inner": dict(how="inner", many_rows_per_key=True),
}
#: over an A column that is NULL for every third A row (a_val), and B's id
NULLABLE_CONDITION = (
    "a.a_val IS NULL OR b.id % 2 = 0",
    lambda a, b: a["id"] % 3 == 0 or b["id"] % 2 == 0,
)


#: an A-only conjunct that is NULL for every third A row: those A rows stay, without partner
NULLABLE_A_ONLY = (
    "a.a_val IS NOT NULL AND a.a_val <> 'none' AND b.id % 2 = 0",
    lambda a, b: a["id"] % 3 != 0 and b["id"] % 2 == 0,
)


def one_row_cases():
    """(cond, mode) pairs: the mixed condition with every mode, each mode with one of the two NULL-bearing
    conditions, in turn (their null-safe join back is what each plan does its own way), each other condition with
    one mode, in turn; the rest of the product is marked `matrix` (make test-matrix). On Spark 3.5 last, the
    aggregate and many-inner are left out too (one_engine: they take first's and many-full's plans with another
    order, fold or filter)."""
    modes = sorted(ONE_ROW_MODES)
    nullable = ("nullable", "nullable_a_only")
    others = [cond for cond in sorted(CONDITIONS) if cond not in ("mixed", *nullable)]
    turn = {cond: modes[i % len(modes)] for i, cond in enumerate(others)}
    cases = []
    for cond in [*sorted(CONDITIONS), *nullable]:
        for i, mode in enumerate(modes):
            marks = [pytest.mark.one_engine] if mode in ("last-left", "aggregate-left", "many-inner") else []
            if (cond in others and turn[cond] != mode) or (cond in nullable and nullable[i % 2] != cond):
                marks.append(pytest.mark.matrix)
            cases.append(pytest.param(cond, mode, marks=marks, id=f"{mode}-{cond}"))
    return cases


@pytest.mark.parametrize(("cond", "mode"), one_row_cases())
def test_join_cond_decides_the_one_row_of_each_a_row(renamed_frames, cond, mode):
    extra = {"nullable": NULLABLE_CONDITION, "nullable_a_only": NULLABLE_A_ONLY}
    sql, test = extra[cond] if cond in extra else CONDITIONS[cond]
    a, b = renamed_frames
    a = a.selectExpr("id", "k", "RecDate", "CASE WHEN id % 3 = 0 THEN NULL ELSE a_val END AS a_val")
    arguments = dict(ONE_ROW_MODES[mode], join_cols={"k": "bk"}, inc_col=("RecDate", "PaidAt"), join_cond=sql)
    arguments.update(look_back_time=1, max_waiting_time=2, time_uom="day")
    oracle = dict(how=arguments["how"], lb=1, mw=2)
    if "aggregate" in arguments:
        oracle["aggregate"] = {"ids": lambda found: tuple(sorted(row["id"] for row in found))}
    elif "partner" in arguments:
        oracle["partner"] = arguments["partner"]

    def rows(lo, hi):
        run = inc_join(a, b, output_window_start=bound(lo, "day"), output_window_end=bound(hi, "day"), **arguments)
        if "aggregate" not in arguments:
            return Counter(oracle_rows(run, "day"))
        shaped = run.selectExpr("k", "date_format(RecDate, 'yyyy-MM-dd HH:mm:ss') AS out", "id", "JoinType", "ids")
        return Counter(
            (r.k, units_since_origin(r.out, "day"), r.id, None, r.JoinType, None, 2 if r.JoinType == 4 else None,
             (tuple(r.ids),))
            for r in shaped.collect()
        )  # fmt: skip

    expected = Counter(expected_rows(A_ROWS, B_ROWS, start=0, end=16, join_cond=test, **oracle))
    assert expected != Counter(expected_rows(A_ROWS, B_ROWS, start=0, end=16, **oracle)), "the condition decides"
    assert rows(0, 16) == expected
    # tiled runs: here for the conditions over a NULL A column, which no property draws; the others in
    # test_properties' one-row tiling property, for every mode
    if cond in extra:
        assert rows(0, 4) + rows(5, 5) + rows(6, 16) == expected


# spec §12, what join_cond costs: the split into conjuncts, which refuses what it cannot prove
@pytest.mark.parametrize(
    ("sql", "conjuncts"),
    [
        ("_ac0 >= 0 AND _bc0 >= 0", ["_ac0 >= 0", "_bc0 >= 0"]),
        ("_ac0 > 1 and (_bc0 > 1 AND _ac1 > 1)", ["_ac0 > 1", "(_bc0 > 1 AND _ac1 > 1)"]),
        ("_ac0 BETWEEN 1 AND 2 AND _bc0 NOT BETWEEN 1 AND 3", ["_ac0 BETWEEN 1 AND 2", "_bc0 NOT BETWEEN 1 AND 3"]),
        ("CASE WHEN _ac0 AND _ac1 THEN _bc0 END AND _ac1", ["CASE WHEN _ac0 AND _ac1 THEN _bc0 END", "_ac1"]),
        ("_ac0 = 'x AND y' AND _bc0 IS NOT NULL", ["_ac0 = 'x AND y'", "_bc0 IS NOT NULL"]),
        ("_bc0 > 1 AND NOT _ac0 > 1", ["_bc0 > 1", "NOT _ac0 > 1"]),
        # not split: OR binds looser than AND; a leading NOT before the last conjunct; comments, quoted names
        ("_ac0 > 1 AND _bc0 > 1 OR _ac1 > 1", ["_ac0 > 1 AND _bc0 > 1 OR _ac1 > 1"]),
        ("NOT _ac0 > 1 AND _bc0 > 1", ["NOT _ac0 > 1 AND _bc0 > 1"]),
        ("_ac0 > 1 -- AND\n AND _bc0 > 1", ["_ac0 > 1 -- AND\n AND _bc0 > 1"]),
        ("_ac0 > 1 AND `_bc0` > 1", ["_ac0 > 1 AND `_bc0` > 1"]),
        ("_ac0 > 1 AND (_bc0 > 1", ["_ac0 > 1 AND (_bc0 > 1"]),
    ],
)
def test_a_condition_splits_only_on_a_top_level_and(sql, conjuncts):
    assert render("_split_conjuncts", sql) == conjuncts


def test_only_a_conjunct_that_provably_reads_one_side_is_one_sided():
    sql = "_ac0 % 2 = 0 AND rand() < _ac1 AND abs(_bc0) > 1 AND _ac0 < _bc1 AND 1 = 1 AND upper(_ac2) = 'B.X'"
    assert render("_condition_parts", sql) == {
        "a_only": "(_ac0 % 2 = 0) AND (upper(_ac2) = 'B.X')",
        "b_only": "(abs(_bc0) > 1)",
        "pair": "(rand() < _ac1) AND (_ac0 < _bc1) AND (1 = 1)",
    }


def test_a_case_sensitive_session_resolves_join_conds_columns_by_exact_name():
    """The core follows spark.sql.caseSensitive; dbt folds case."""
    from dbt_inc_join.plan.validation import checked

    assert checked("_rewrite_join_cond", "a.amount > 0", ["Amount"], ["x"])["a_columns"] == ["Amount"]
    with pytest.raises(ValueError, match="^inc_join: join_cond 'a.amount > 0' names a.amount, a column df_a does not"):
        checked("_rewrite_join_cond", "a.amount > 0", ["Amount"], ["x"], case_sensitive=True)
