"""spec §11 (one row per A), by hand: the worked example of spec §9 and a tiny hot key, each expected row
written out from the text of §11, not computed."""

from __future__ import annotations

import math

import pytest

from dbt_inc_join import inc_join

from .test_spec_example import EXPECTED_LEFT, SETTINGS, as_set

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine

WINDOW = dict(output_window_start="2025-03-05", output_window_end="2025-03-20")


# --- the worked example (lb = 2, mw = 10, how = left): one partner per A row at most ----------------------


def test_first_places_the_one_partner_like_the_pair(inputs):
    # each A row has at most one partner, so 'first' gives spec §9's table: max(a, b), code by Δ
    result = inc_join(*inputs, partner="first", **WINDOW, **SETTINGS)
    assert as_set(result) == EXPECTED_LEFT
    assert len(result.collect()) == 7


def test_last_places_every_row_when_the_window_closes(inputs):
    result = inc_join(*inputs, partner="last", **WINDOW, **SETTINGS)
    assert as_set(result) == {
        (1, "2025-03-16", 2, -1, None),
        (2, "2025-03-16", 2, -2, None),
        (3, "2025-03-16", 1, 0, None),
        (4, "2025-03-17", 1, 0, None),
        (5, "2025-03-17", 3, 5, None),
        (6, "2025-03-17", 4, None, 10),
        (7, "2025-03-18", 2, -2, None),
    }
    assert {r.TrxId: r.CountryCode for r in result.collect()} == {
        1: "NL",
        2: "NL",
        3: "NL",
        4: "UK",
        5: "NL",
        6: None,
        7: "DE",
    }


def test_last_with_no_waiting_is_an_as_of_join(inputs):
    # mw = 0: the latest B row in [a - 2, a], placed at a; 5 (B 03-12) and 6 (B 03-18) have none
    settings = dict(SETTINGS, max_waiting_time=0)
    result = inc_join(*inputs, partner="last", **WINDOW, **settings)
    assert as_set(result) == {
        (1, "2025-03-06", 2, -1, None),
        (2, "2025-03-06", 2, -2, None),
        (3, "2025-03-06", 1, 0, None),
        (4, "2025-03-07", 1, 0, None),
        (5, "2025-03-07", 4, None, 0),
        (6, "2025-03-07", 4, None, 0),
        (7, "2025-03-08", 2, -2, None),
    }


def test_aggregate_with_null_fill(inputs):
    result = inc_join(
        *inputs,
        aggregate={"n_b": "count(*)", "country": "max(CountryCode)", "n_country": "count(CountryCode)"},
        null_fill={"country": "none"},
        **WINDOW,
        **SETTINGS,
    )
    assert result.columns == [
        "TrxId",
        "RecDate",
        "RecDate_A",
        "n_b",
        "country",
        "n_country",
        "DiffArrivalTime",
        "WaitingTime",
        "JoinType",
    ]
    rows = {
        (r.TrxId, r.RecDate.isoformat(), r.JoinType, r.DiffArrivalTime, r.WaitingTime, r.n_b, r.country, r.n_country)
        for r in result.collect()
    }
    assert rows == {
        (1, "2025-03-16", 8, None, None, 1, "NL", 1),
        (2, "2025-03-16", 8, None, None, 1, "NL", 1),
        (3, "2025-03-16", 8, None, None, 1, "NL", 1),
        (4, "2025-03-17", 8, None, None, 1, "UK", 1),
        (5, "2025-03-17", 8, None, None, 1, "NL", 1),
        (6, "2025-03-17", 4, None, 10, 0, "none", 0),
        (7, "2025-03-18", 8, None, None, 1, "DE", 1),
    }
    inner = inc_join(*inputs, how="inner", aggregate={"n_b": "count(*)"}, **WINDOW, **SETTINGS)
    assert sorted(r.TrxId for r in inner.collect()) == [1, 2, 3, 4, 5, 7]


def cross_joins(df) -> int:
    """The cross joins in a DataFrame's plan as Spark analysed it."""
    return df._jdf.queryExecution().analyzed().toString().count("Join Cross")


def test_aggregates_over_no_rows_are_literals_where_known(inputs):
    """An A row without partner gets each aggregate's value over no rows: one call of count or max is known (0,
    NULL) and written as a literal; any other aggregate is computed over no rows of B, in one cross join."""
    aggregate = {
        "n_b": "count(*)",
        "country": " MAX(CountryCode) ",
        "countries": "sort_array(collect_set(CountryCode))",
        "n_plus": "count(*) + 1",
    }
    result = inc_join(*inputs, aggregate=aggregate, **WINDOW, **SETTINGS)
    types = dict(result.dtypes)
    assert (types["n_b"], types["country"], types["countries"], types["n_plus"]) == (
        "bigint",
        "string",
        "array<string>",
        "bigint",
    )
    rows = {r.TrxId: (r.JoinType, r.n_b, r.country, tuple(r.countries), r.n_plus) for r in result.collect()}
    assert rows[6] == (4, 0, None, (), 1)
    assert rows[4] == (8, 1, "UK", ("UK",), 2)
    assert cross_joins(result) == 1
    known = inc_join(*inputs, aggregate={"n_b": "count(*)", "country": "max(CountryCode)"}, **WINDOW, **SETTINGS)
    assert {r.TrxId: (r.n_b, r.country) for r in known.collect()}[6] == (0, None)
    assert cross_joins(known) == 0


# --- a hot key: lb = 1, mw = 2; X has six B rows (one delivered twice), Y's only B row is too late ----------

HOT_A = [(1, "X", "2025-03-02"), (2, "X", "2025-03-04"), (3, "Y", "2025-03-02"), (4, "Z", "2025-03-03")]
HOT_B = [
    ("X", 10, 1, "2025-03-01"),  # b1
    ("X", 11, 1, "2025-03-02"),  # b2
    ("X", 13, 1, "2025-03-03"),  # b3: same day as b4, higher Px, lower Seq
    ("X", 12, 2, "2025-03-03"),  # b4
    ("X", 12, 2, "2025-03-03"),  # b5 = b4, delivered twice
    ("X", 14, 1, "2025-03-06"),  # b6
    ("Y", 20, 1, "2025-03-05"),  # after Y's A row's window [03-01, 03-04]
    ("W", 30, 1, "2025-03-02"),  # no A row of its key
]
HOT = dict(join_cols="Sym", look_back_time=1, max_waiting_time=2)
HOT_WINDOW = dict(output_window_start="2025-03-01", output_window_end="2025-03-10")
# partners: A1 (X, 03-02, window [03-01, 03-04]): b1..b5; A2 (X, 03-04, window [03-03, 03-06]): b3, b4, b5, b6
# HOT_WINDOW's B range spans 13 days: 'auto' groups (spec §15); the plain plan, forced, picks over A's groups
PLANS = [pytest.param({}, id="auto"), pytest.param({"many_rows_per_key": False}, id="plain")]


@pytest.fixture(scope="module")
def hot(spark):
    df_a = spark.createDataFrame(HOT_A, "Id int, Sym string, RecDate string").selectExpr(
        "Sym", "Id", "to_date(RecDate) AS RecDate"
    )
    df_b = spark.createDataFrame(HOT_B, "Sym string, Px int, Seq int, RecDate string").selectExpr(
        "Sym", "Px", "Seq", "to_date(RecDate) AS RecDate"
    )
    return df_a, df_b


def hot_rows(df):
    """(Id, output RecDate, JoinType, DiffArrivalTime, WaitingTime, Px, Seq) of each row, as a sorted list."""
    return sorted(
        (r.Id, r.RecDate.isoformat(), r.JoinType, r.DiffArrivalTime, r.WaitingTime, r.Px, r.Seq) for r in df.collect()
    )


@pytest.mark.parametrize("plan", PLANS)
def test_hot_key_first_ties_broken_by_the_b_columns_in_their_order(hot, plan):
    # A2's earliest partners tie on b = 03-03: b3 (Px 13) and b4 = b5 (Px 12); Px decides: b4, one row
    result = inc_join(*hot, partner="first", **plan, **HOT, **HOT_WINDOW)
    assert hot_rows(result) == [
        (1, "2025-03-02", 2, -1, None, 10, 1),
        (2, "2025-03-04", 2, -1, None, 12, 2),
        (3, "2025-03-04", 4, None, 2, None, None),
        (4, "2025-03-05", 4, None, 2, None, None),
    ]


@pytest.mark.parametrize("plan", PLANS)
def test_hot_key_first_ties_broken_by_partner_order_by(hot, plan):
    # ordered by Seq before the other B columns: b3 (Seq 1) comes before b4 (Seq 2)
    result = inc_join(*hot, partner="first", partner_order_by="Seq", **plan, **HOT, **HOT_WINDOW)
    assert hot_rows(result) == [
        (1, "2025-03-02", 2, -1, None, 10, 1),
        (2, "2025-03-04", 2, -1, None, 13, 1),
        (3, "2025-03-04", 4, None, 2, None, None),
        (4, "2025-03-05", 4, None, 2, None, None),
    ]


@pytest.mark.parametrize("plan", PLANS)
def test_hot_key_last_and_its_tie(hot, plan):
    # A1's latest partners tie on b = 03-03: Px 13 (b3) is the largest; with Seq first, b4 (Seq 2) is
    plain = inc_join(*hot, partner="last", **plan, **HOT, **HOT_WINDOW)
    assert hot_rows(plain) == [
        (1, "2025-03-04", 3, 1, None, 13, 1),
        (2, "2025-03-06", 3, 2, None, 14, 1),
        (3, "2025-03-04", 4, None, 2, None, None),
        (4, "2025-03-05", 4, None, 2, None, None),
    ]
    by_seq = inc_join(*hot, partner="last", partner_order_by=["Seq"], **plan, **HOT, **HOT_WINDOW)
    assert hot_rows(by_seq) == [
        (1, "2025-03-04", 3, 1, None, 12, 2),
        (2, "2025-03-06", 3, 2, None, 14, 1),
        (3, "2025-03-04", 4, None, 2, None, None),
        (4, "2025-03-05", 4, None, 2, None, None),
    ]


def test_hot_key_as_of(hot):
    # mw = 0: the latest B row in [a - 1, a]: A1 -> b2 (03-02); A2 -> b3 (03-03, Px 13 beats b4's 12)
    result = inc_join(*hot, partner="last", **dict(HOT, max_waiting_time=0), **HOT_WINDOW)
    assert hot_rows(result) == [
        (1, "2025-03-02", 1, 0, None, 11, 1),
        (2, "2025-03-04", 2, -1, None, 13, 1),
        (3, "2025-03-02", 4, None, 0, None, None),
        (4, "2025-03-03", 4, None, 0, None, None),
    ]


@pytest.mark.parametrize("plan", PLANS)
def test_hot_key_full_gives_no_row_for_partners_not_chosen(hot, plan):
    # b6 of key W is nobody's partner: code 6 at b + lb = 03-03; Y's B row (03-05) could be claimed by an A row
    # of 03-04 ... 03-06 and Y has none: code 6 at 03-06; the X rows not chosen give nothing
    result = inc_join(*hot, partner="first", how="full", **plan, **HOT, **HOT_WINDOW)
    rows = [
        (r.Sym, r.Id, r.RecDate.isoformat(), r.JoinType, r.DiffArrivalTime, r.WaitingTime, r.Px)
        for r in result.collect()
    ]
    assert len(rows) == 6
    assert set(rows) == {
        ("W", None, "2025-03-03", 6, None, 1, 30),
        ("X", 1, "2025-03-02", 2, -1, None, 10),
        ("X", 2, "2025-03-04", 2, -1, None, 12),
        ("Y", 3, "2025-03-04", 4, None, 2, None),
        ("Y", None, "2025-03-06", 6, None, 1, 20),
        ("Z", 4, "2025-03-05", 4, None, 2, None),
    }


def test_hot_key_aggregate_with_null_fill(hot):
    result = inc_join(
        *hot,
        aggregate={"n": "count(*)", "total": "sum(Px)", "hi": "max(Px)", "seqs": "count(DISTINCT Seq)"},
        null_fill={"total": 0},
        **HOT,
        **HOT_WINDOW,
    )
    assert result.columns == [
        "Sym",
        "RecDate",
        "Id",
        "RecDate_A",
        "n",
        "total",
        "hi",
        "seqs",
        "DiffArrivalTime",
        "WaitingTime",
        "JoinType",
    ]
    rows = sorted(
        (r.Id, r.RecDate.isoformat(), r.JoinType, r.DiffArrivalTime, r.WaitingTime, r.n, r.total, r.hi, r.seqs)
        for r in result.collect()
    )
    assert rows == [
        (1, "2025-03-04", 8, None, None, 5, 58, 13, 2),  # b1..b5: 10 + 11 + 13 + 12 + 12
        (2, "2025-03-06", 8, None, None, 4, 51, 14, 2),  # b3..b6: 13 + 12 + 12 + 14
        (3, "2025-03-04", 4, None, 2, 0, 0, None, 0),
        (4, "2025-03-05", 4, None, 2, 0, 0, None, 0),
    ]


def test_null_fill_is_for_a_rows_without_partner_only(spark, hot):
    # spec §11: "code 8 over its partners ..., or code 4 when it has none; then each aggregate is its null_fill
    # value when given, else the aggregate's own value over no rows": a sum over partners whose values are all
    # NULL stays NULL (the A row has partners)
    df_a, df_b = hot
    df_b = df_b.selectExpr("Sym", "CAST(NULL AS int) AS Px", "Seq", "RecDate")
    result = inc_join(df_a, df_b, aggregate={"total": "sum(Px)"}, null_fill={"total": -1}, **HOT, **HOT_WINDOW)
    rows = sorted((r.Id, r.JoinType, r.total) for r in result.collect())
    assert rows == [(1, 8, None), (2, 8, None), (3, 4, -1), (4, 4, -1)]


def test_hot_key_waiting(hot):
    # a run over [03-03, 03-03] with include_waiting: A1 (03-02), A3 (03-02) and A4 (03-03) have open windows
    # (a + 2 > 03-03). 'first': A1 already has its row (03-02), A3 and A4 wait without partner. 'last': all
    # three wait, A1 with its latest partner by 03-03 (b3). Code 5 rows: DiffArrivalTime NULL, WaitingTime
    # e - a (spec §3's row of code 5).
    window = dict(output_window_start="2025-03-03", output_window_end="2025-03-03", include_waiting=True)
    first = inc_join(*hot, partner="first", **HOT, **window)
    assert hot_rows(first) == [
        (3, "2025-03-03", 5, None, 1, None, None),
        (4, "2025-03-03", 5, None, 0, None, None),
    ]
    last = inc_join(*hot, partner="last", **HOT, **window)
    assert hot_rows(last) == [
        (1, "2025-03-03", 5, None, 1, 13, 1),
        (3, "2025-03-03", 5, None, 1, None, None),
        (4, "2025-03-03", 5, None, 0, None, None),
    ]
    aggregated = inc_join(*hot, aggregate={"n": "count(*)"}, null_fill={"n": 0}, **HOT, **window)
    assert sorted((r.Id, r.RecDate.isoformat(), r.JoinType, r.WaitingTime, r.n) for r in aggregated.collect()) == [
        (1, "2025-03-03", 5, 1, 5),  # b1..b5 have come by 03-03
        (3, "2025-03-03", 5, 1, 0),
        (4, "2025-03-03", 5, 0, 0),
    ]


def test_ties_on_the_day_go_by_the_raw_arrival_first(spark):
    # day unit, timestamp arrivals: both B rows arrive on 03-02 (b ties); B's columns in their order are RecDate,
    # then Tag: the raw arrival decides (08:00 before 09:00) although Tag would say the opposite
    df_a = spark.createDataFrame([("X", "2025-03-02 10:00:00")], "Sym string, RecDate string").selectExpr(
        "Sym", "to_timestamp(RecDate) AS RecDate"
    )
    df_b = spark.createDataFrame(
        [("X", "2025-03-02 09:00:00", "p"), ("X", "2025-03-02 08:00:00", "q")], "Sym string, RecDate string, Tag string"
    ).selectExpr("Sym", "to_timestamp(RecDate) AS RecDate", "Tag")
    window = dict(join_cols="Sym", output_window_start="2025-03-01", output_window_end="2025-03-05")
    first = inc_join(df_a, df_b, partner="first", **window).collect()
    assert [(r.RecDate.isoformat(), r.JoinType, r.DiffArrivalTime, r.Tag) for r in first] == [("2025-03-02", 1, 0, "q")]
    last = inc_join(df_a, df_b, partner="last", **window).collect()
    assert [(r.RecDate.isoformat(), r.JoinType, r.DiffArrivalTime, r.Tag) for r in last] == [("2025-03-02", 1, 0, "p")]


@pytest.mark.parametrize("plan", PLANS)
@pytest.mark.parametrize("how", ["left", "full"])
def test_a_rows_come_out_as_they_are(spark, how, plan):
    # A's rows go through the pick unchanged: two identical rows give two rows, a map and a -0.0 keep their
    # values, a row without key or without partner keeps its row (spec §11: one row per A row); with how = full
    # B's 03-03 row, a partner not chosen, gives nothing, and each of W's (no A row of its key) code 6 at b + lb
    df_a = spark.sql(
        "SELECT * FROM VALUES"
        " ('X', map('t', 1), -0.0D, DATE'2025-03-02'), ('X', map('t', 1), -0.0D, DATE'2025-03-02'),"
        " ('X', map('u', 2), 1.5D, DATE'2025-03-02'), (NULL, map('v', 3), 2.5D, DATE'2025-03-02'),"
        " ('Z', NULL, NULL, DATE'2025-03-03')"
        " AS t(Sym, Tags, Amount, RecDate)"
    )
    df_b = spark.sql(
        "SELECT * FROM VALUES ('X', 10, DATE'2025-03-01'), ('X', 11, DATE'2025-03-03'), ('W', 30, DATE'2025-03-02'),"
        " ('W', 31, DATE'2025-03-05') AS t(Sym, Px, RecDate)"
    )
    result = inc_join(df_a, df_b, partner="first", how=how, **plan, **HOT, **HOT_WINDOW).collect()
    rows = sorted(
        (r.Sym or "", sorted((r.Tags or {}).items()), r.Amount, r.Px, r.JoinType, r.RecDate.isoformat()) for r in result
    )
    assert rows == sorted(
        [
            ("", [("v", 3)], 2.5, None, 4, "2025-03-04"),
            ("X", [("t", 1)], -0.0, 10, 2, "2025-03-02"),
            ("X", [("t", 1)], -0.0, 10, 2, "2025-03-02"),
            ("X", [("u", 2)], 1.5, 10, 2, "2025-03-02"),
            ("Z", [], None, None, 4, "2025-03-05"),
        ]
        + ([("W", [], None, 30, 6, "2025-03-03"), ("W", [], None, 31, 6, "2025-03-06")] if how == "full" else [])
    )
    assert [math.copysign(1.0, r.Amount) for r in result if r.Tags == {"t": 1}] == [-1.0, -1.0]
