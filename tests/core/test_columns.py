"""spec §5: output columns, suffixes and output_select tokens; spec §2: bounds in the session time zone."""

from __future__ import annotations

import random
import sys
from collections import Counter
from datetime import date, datetime, timezone

import pytest

from dbt_inc_join import inc_join
from dbt_inc_join.plan.window import parse_bound
from dbt_inc_join.sql_text import macros
from dbt_inc_join.sql_text.time_units import TimeUnit

from .frames import ORIGINS, bound, side_frame
from .oracle import expected_rows

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine

WINDOW = dict(output_window_start="2025-03-01", output_window_end="2025-03-31")


@pytest.fixture(scope="module")
def frames(spark):
    df_a = spark.sql("SELECT 1 AS TrxId, DATE'2025-03-06' AS RecDate, 700.3 AS Amount, 'x' AS Note")
    df_b = spark.sql("SELECT 1 AS TrxId, 'NL' AS Country, 'y' AS Note, DATE'2025-03-08' AS RecDate")
    return df_a, df_b


@pytest.mark.parametrize(
    "output_select, columns",
    [
        (
            None,
            [
                "TrxId",
                "RecDate",
                "RecDate_A",
                "Amount",
                "Note_A",
                "Country",
                "Note_B",
                "RecDate_B",
                "DiffArrivalTime",
                "WaitingTime",
                "JoinType",
            ],
        ),
        ("join_cols, inc_col, JoinType, JoinTypeName", ["TrxId", "RecDate", "JoinType", "JoinTypeName"]),
        ("inc_col_a, inc_col_b, DiffArrivalTime", ["RecDate_A", "RecDate_B", "DiffArrivalTime"]),
        (["trxid", "Amount", "note_b", "country"], ["TrxId", "Amount", "Note_B", "Country"]),
        ("df_b_cols,join_cols", ["Country", "Note_B", "RecDate_B", "TrxId"]),
    ],
)
def test_output_select(frames, output_select, columns):
    result = inc_join(*frames, join_cols="TrxId", max_waiting_time=3, output_select=output_select, **WINDOW)
    assert result.columns == columns
    assert result.count() == 1


def test_values_behind_tokens(frames):
    row = inc_join(
        *frames,
        join_cols="TrxId",
        max_waiting_time=3,
        output_select="join_cols, inc_col, inc_col_a, "
        "inc_col_b, Note_A, Note_B, DiffArrivalTime, WaitingTime, JoinType, JoinTypeName",
        **WINDOW,
    ).first()
    assert row.asDict() == dict(
        TrxId=1,
        RecDate=date(2025, 3, 8),
        RecDate_A=date(2025, 3, 6),
        RecDate_B=date(2025, 3, 8),
        Note_A="x",
        Note_B="y",
        DiffArrivalTime=2,
        WaitingTime=None,
        JoinType=3,
        JoinTypeName="b_late",
    )


def test_custom_suffixes(frames):
    result = inc_join(*frames, join_cols="TrxId", suffixes=("_fin", "_sepa"), **WINDOW)
    assert "RecDate_fin" in result.columns and "Note_sepa" in result.columns


def test_odd_column_names_survive(spark):
    df_a = spark.sql("SELECT 1 AS `trx id`, DATE'2025-03-06' AS `rec.date`, 2 AS `select`")
    df_b = spark.sql("SELECT 1 AS `trx id`, DATE'2025-03-06' AS `rec.date`, 3 AS `from`")
    result = inc_join(df_a, df_b, join_cols="trx id", inc_col="rec.date", **WINDOW)
    assert result.columns[:5] == ["trx id", "rec.date", "rec.date_A", "select", "rec.date_B"]
    assert result.first()["from"] == 3


def test_chained_join_stays_lean(spark):
    """The output of one inc_join is the A of the next, its output arrival the new arrival."""
    orders = spark.sql("SELECT 1 AS id, DATE'2025-03-06' AS RecDate, 'o' AS what")
    payments = spark.sql("SELECT 1 AS id, DATE'2025-03-07' AS RecDate, 'p' AS paid")
    shipments = spark.sql("SELECT 1 AS id, DATE'2025-03-09' AS RecDate, 's' AS shipped")
    first = inc_join(
        orders, payments, join_cols="id", max_waiting_time=2, output_select="join_cols, inc_col, what, paid", **WINDOW
    )
    second = inc_join(first, shipments, join_cols="id", max_waiting_time=2, **WINDOW)
    assert second.columns == [
        "id",
        "RecDate",
        "RecDate_A",
        "what",
        "paid",
        "RecDate_B",
        "shipped",
        "DiffArrivalTime",
        "WaitingTime",
        "JoinType",
    ]
    row = second.first()
    assert (row.RecDate, row.RecDate_A, row.JoinType) == (date(2025, 3, 9), date(2025, 3, 7), 3)


@pytest.mark.parametrize("column", ["JoinType", "DiffArrivalTime", "waitingtime", "JoinTypeName"])
def test_an_input_column_named_like_a_derived_column_gets_its_sides_suffix(spark, column):
    """spec §5: the derived columns are the join's own; an input column of that name is kept, suffixed."""
    df_a = spark.sql(f"SELECT 1 AS k, DATE'2025-03-06' AS RecDate, 3 AS `{column}`")
    df_b = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    result = inc_join(df_a, df_b, join_cols="k", output_window_end="2025-03-06", output_select="df_a_cols, JoinType")
    assert result.columns == ["RecDate_A", f"{column}_A", "JoinType"]
    assert tuple(result.first()) == (date(2025, 3, 6), 3, 1)


def test_a_suffixed_name_an_input_column_already_has_is_suffixed_again(spark):
    """spec §5: A's raw arrival is always <inc_col>_A; A's own RecDate_A yields and becomes RecDate_A_A."""
    df_a = spark.sql("SELECT 'x' AS RecDate_A, 1 AS k, DATE'2025-03-06' AS RecDate")
    df_b = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    result = inc_join(df_a, df_b, join_cols="k", output_window_end="2025-03-06", output_select="df_a_cols")
    assert result.columns == ["RecDate_A_A", "RecDate_A"]
    assert tuple(result.first()) == ("x", date(2025, 3, 6))


def test_an_empty_suffix_cannot_make_a_taken_name_free(spark):
    df_a = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate, 3 AS JoinType")
    df_b = spark.sql("SELECT 1 AS k, DATE'2025-03-06' AS RecDate")
    with pytest.raises(ValueError) as caught:
        inc_join(df_a, df_b, join_cols="k", suffixes=("", "_B"), output_window_end="2025-03-06")
    assert str(caught.value) == (
        "inc_join: output column 'RecDate' would exist twice (the output arrival inc_col 'RecDate' and df_a column "
        "'RecDate'); rename one input column or pass other suffixes (now ('', '_B'))."
    )


def test_chained_join_reads_an_inc_join_output_unchanged(spark):
    """An inc_join output is the A of the next inc_join as it is (spec §5): the next join has its own arrival
    and derived columns, the earlier join's come out with A's suffix, and output_select names them so."""
    orders = spark.sql("SELECT 1 AS id, DATE'2025-03-06' AS RecDate, 'o' AS what")
    payments = spark.sql("SELECT 1 AS id, DATE'2025-03-07' AS RecDate, 'p' AS paid")
    shipments = spark.sql("SELECT 1 AS id, DATE'2025-03-09' AS RecDate, 's' AS shipped")
    first = inc_join(orders, payments, join_cols="id", max_waiting_time=2, **WINDOW)
    second = inc_join(first, shipments, join_cols="id", max_waiting_time=2, **WINDOW)
    assert second.columns == [
        "id",
        "RecDate",
        "RecDate_A",
        "RecDate_A_A",
        "what",
        "RecDate_B_A",
        "paid",
        "DiffArrivalTime_A",
        "WaitingTime_A",
        "JoinType_A",
        "RecDate_B",
        "shipped",
        "DiffArrivalTime",
        "WaitingTime",
        "JoinType",
    ]
    row = second.first()
    assert (row.RecDate, row.RecDate_A, row.RecDate_A_A, row.RecDate_B_A, row.RecDate_B) == (
        date(2025, 3, 9),
        date(2025, 3, 7),
        date(2025, 3, 6),
        date(2025, 3, 7),
        date(2025, 3, 9),
    )
    assert (row.JoinType_A, row.DiffArrivalTime_A, row.JoinType, row.DiffArrivalTime) == (3, 1, 3, 2)
    lean = inc_join(
        first,
        shipments,
        join_cols="id",
        max_waiting_time=2,
        output_select="join_cols, inc_col, JoinType_A, joinTypeName, recdate_a_a, inc_col_a",
        **WINDOW,
    )
    assert lean.columns == ["id", "RecDate", "JoinType_A", "JoinTypeName", "RecDate_A_A", "RecDate_A"]
    assert tuple(lean.first()) == (1, date(2025, 3, 9), 3, "b_late", date(2025, 3, 6), date(2025, 3, 7))
    # as B, the earlier join's columns take B's suffix
    as_b = inc_join(shipments, first, join_cols="id", max_waiting_time=2, output_select="df_b_cols", **WINDOW)
    assert as_b.columns == [
        "RecDate_B",
        "RecDate_A_B",
        "what",
        "RecDate_B_B",
        "paid",
        "DiffArrivalTime_B",
        "WaitingTime_B",
        "JoinType_B",
    ]


def chain_rows(prefix: int, count: int, seed: int) -> list[dict]:
    """``count`` rows ``id, k, t`` from a fixed seed: few keys (duplicates and misses), a NULL key and arrival."""
    rng = random.Random(seed)
    rows = [dict(id=prefix + i, k=rng.randrange(6), t=rng.randrange(14)) for i in range(count)]
    rows[0]["k"], rows[1]["t"] = None, None
    return rows


CHAIN = dict(a=chain_rows(100, 24, 1), b=chain_rows(200, 24, 2), c=chain_rows(300, 24, 3), start=3, end=16)


def units(text: str | None) -> int | None:
    return None if text is None else (date.fromisoformat(text[:10]) - ORIGINS["day"].date()).days


@pytest.mark.parametrize("how, arrival_type", [("left", "date"), ("full", "timestamp")])
def test_an_inc_join_output_read_as_a_gives_the_oracles_rows(spark, how, arrival_type):
    """A chain read without renaming (spec §5), both steps with ``how``: the second join's rows are the oracle's
    over the first join's oracle rows, and the first join's columns come out under A's suffix with the first
    join's values (its output arrival as RecDate_A, its raw arrivals as RecDate_A_A and RecDate_B_A)."""
    chain = CHAIN
    first_step, second_step = dict(how=how, lb=2, mw=3), dict(how=how, lb=1, mw=2)
    frame = lambda rows, side: side_frame(spark, rows, side, "day", arrival_type)  # noqa: E731
    end = chain["end"]
    first = inc_join(
        frame(chain["a"], "a"),
        frame(chain["b"], "b"),
        join_cols="k",
        how=first_step["how"],
        look_back_time=first_step["lb"],
        max_waiting_time=first_step["mw"],
        output_window_start=bound(0, "day"),
        output_window_end=bound(end, "day"),
    )
    second = inc_join(
        first,
        frame(chain["c"], "c"),
        join_cols="k",
        how=second_step["how"],
        look_back_time=second_step["lb"],
        max_waiting_time=second_step["mw"],
        output_window_start=bound(chain["start"], "day"),
        output_window_end=bound(end, "day"),
    )
    text = "date_format(`{0}`, 'yyyy-MM-dd') AS `{0}`".format
    collected = second.selectExpr(
        "k",
        *map(text, ["RecDate", "RecDate_A", "RecDate_A_A", "RecDate_B_A"]),
        "id_A",
        "id_B",
        "a_val",
        "b_val",
        "JoinType_A",
        "DiffArrivalTime_A",
        "WaitingTime_A",
        "id",
        "c_val",
        "JoinType",
        "DiffArrivalTime",
        "WaitingTime",
    ).collect()

    raw = {r["id"]: r["t"] for r in chain["a"] + chain["b"]}
    got = Counter()
    for r in collected:
        first_row = None
        if r.RecDate_A is not None:
            first_row = (units(r.RecDate_A), r.id_A, r.id_B, r.JoinType_A, r.DiffArrivalTime_A, r.WaitingTime_A)
            # the first join's own A and B columns, each under its name
            assert (units(r.RecDate_A_A), units(r.RecDate_B_A)) == (raw.get(r.id_A), raw.get(r.id_B))
            assert (r.a_val, r.b_val) == (r.id_A and f"a{r.id_A}", r.id_B and f"b{r.id_B}")
        assert r.c_val == (r.id and f"c{r.id}")
        got[(r.k, units(r.RecDate), first_row, r.id, r.JoinType, r.DiffArrivalTime, r.WaitingTime)] += 1

    first_rows = expected_rows(
        chain["a"], chain["b"], how=first_step["how"], lb=first_step["lb"], mw=first_step["mw"], start=0, end=end
    )
    # the first join's rows as the second's A rows: their output arrival is the new arrival
    a_rows = [dict(id=(out, *rest), k=k, t=out) for k, out, *rest in first_rows]
    expected = expected_rows(
        a_rows,
        chain["c"],
        how=second_step["how"],
        lb=second_step["lb"],
        mw=second_step["mw"],
        start=chain["start"],
        end=end,
    )
    assert got == Counter(expected)
    # every JoinType of how occurs in both steps
    codes = {"left": {1, 2, 3, 4}, "full": {1, 2, 3, 4, 6}}[how]
    assert {r[4] for r in first_rows} == codes and {r[4] for r in expected} == codes


@pytest.fixture(params=["pytz", "no pytz"])
def time_zones(request, monkeypatch):
    """The macros' time zones with pytz (dbt brings it) and without (the core installs without it: the renderer's
    stand-in gives the zone from zoneinfo)."""
    if request.param == "no pytz":
        monkeypatch.setitem(sys.modules, "pytz", None)  # import pytz raises ImportError
    macros._macros.cache_clear()
    yield request.param
    macros._macros.cache_clear()


def test_bounds_parse_in_the_session_time_zone(time_zones):
    assert parse_bound("2025-03-06", "b", TimeUnit.DAY) == date(2025, 3, 6)
    assert parse_bound("2025-03-06 10:45:12", "b", TimeUnit.DAY) == date(2025, 3, 6)
    assert parse_bound("2025-03-06T10:45:12", "b", TimeUnit.HOUR) == datetime(2025, 3, 6, 10)
    assert parse_bound(date(2025, 3, 6), "b", TimeUnit.MINUTE) == datetime(2025, 3, 6, 0, 0)
    assert parse_bound("2025-03-06T22:30:00Z", "b", TimeUnit.HOUR, "Europe/Amsterdam") == datetime(2025, 3, 6, 23)
    aware = datetime(2025, 3, 6, 22, 30, tzinfo=timezone.utc)
    assert parse_bound(aware, "b", TimeUnit.DAY, "Europe/Amsterdam") == date(2025, 3, 6)
    assert parse_bound(aware, "b", TimeUnit.DAY, "Asia/Tokyo") == date(2025, 3, 7)


def test_aware_bounds_select_the_session_wall_clock_hour(spark):
    spark.conf.set("spark.sql.session.timeZone", "Europe/Amsterdam")
    try:
        df_a = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-06 23:10:00' AS RecDate")
        df_b = spark.sql("SELECT 1 AS k, TIMESTAMP'2025-03-06 23:50:00' AS RecDate")
        at = datetime(2025, 3, 6, 22, 0, tzinfo=timezone.utc)  # 23:00 in Amsterdam
        rows = (
            inc_join(df_a, df_b, join_cols="k", time_uom="hour", output_window_start=at, output_window_end=at)
            .selectExpr("date_format(RecDate, 'HH:mm') AS hour", "JoinType")
            .collect()
        )
        assert [(r.hour, r.JoinType) for r in rows] == [("23:00", 1)]
    finally:
        spark.conf.set("spark.sql.session.timeZone", "UTC")


@pytest.mark.parametrize("case_sensitive, expected", [(False, ["Amount_A", "amount_B"]), (True, ["Amount", "amount"])])
def test_names_that_differ_in_case_are_one_name_unless_spark_is_case_sensitive(case_sensitive, expected):
    """The core follows spark.sql.caseSensitive (dbt folds case): A's Amount and B's amount are the same name,
    each suffixed, or two names. The macros decide, rendered as the core renders them."""
    from dbt_inc_join.plan.validation import check_parameters, checked, params_of

    params = params_of(check_parameters(join_cols="k", output_select="df_a_cols, df_b_cols"))
    a = [
        {"name": "k", "data_type": "int"},
        {"name": "RecDate", "data_type": "date"},
        {"name": "Amount", "data_type": "int"},
    ]
    b = [
        {"name": "K", "data_type": "int"},
        {"name": "RecDate", "data_type": "date"},
        {"name": "amount", "data_type": "int"},
    ]
    if case_sensitive:
        with pytest.raises(
            ValueError, match="^inc_join: join_cols column 'k' is missing from df_b; its columns are 'K',"
        ):
            checked("_resolve_inputs", params, a, b, case_sensitive=True)
        b[0]["name"] = "k"
    inputs = checked("_resolve_inputs", params, a, b, case_sensitive=case_sensitive)
    plan = checked("_plan_columns", params, inputs, case_sensitive=case_sensitive)
    names = [column["name"] for column in plan["selected"] if column["input_name"].lower() == "amount"]
    assert names == expected
