"""spec §15: many_rows_per_key='auto' chooses the plan of partner = all per run, from the run's own slices, and
the rows never depend on the choice (plan_choice.py renders macros/plan/_plan_choice.sql through the port)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dbt_inc_join import inc_join
from dbt_inc_join.orchestration.join import prepare_join
from dbt_inc_join.orchestration.many import inc_join_many, input_plans, plans_text, prepare_many
from dbt_inc_join.plan.plan_choice import (
    PairsSide,
    choose_join_plan,
    fixed_plan,
    forced_plan,
    pairs_plan,
    pairs_sample,
    pairs_sample_range,
)
from dbt_inc_join.plan.validation import check_parameters
from dbt_inc_join.plan.window import OutputWindow
from dbt_inc_join.sql_text.macros import render
from dbt_inc_join.sql_text.statement import relation, rendered, run
from dbt_inc_join.sql_text.time_units import TimeUnit

from .frames import ORIGINS, bound, oracle_rows, oracle_shape, shaped_rows, side_frame
from .oracle import expected_many_rows, expected_rows
from .test_properties import PROPERTY_SETTINGS, tiles

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine


def distincts(df) -> int:
    """The distinct (keys, arrival) steps of A in a DataFrame's plan, as Spark analysed it (DataFrame.distinct is
    a Deduplicate node, SELECT DISTINCT a Distinct node)."""
    plan = df._jdf.queryExecution().analyzed().toString()
    return sum(1 for line in plan.splitlines() if line.lstrip(" :+-").split(" ")[0] in ("Deduplicate", "Distinct"))


def test_pairs_plan_scales_what_the_plain_join_compares_to_b_s_read_range_and_says_why():
    """spec §15: the B rows each sampled A row meets in B's last join window, scaled to B's read range; from
    shared_rows (8) on, the grouped plan."""
    reach = dict(a=None, b=None, b_units=40, far_units=4)
    assert pairs_plan(dict(sample_rows=1000, pairs=700), reach, TimeUnit.DAY).text == (
        "plain (auto: 1000 A rows of a sample meet 0.7 B rows each in the last 4 days of B's read range, about 7 in "
        "its 40 days, below 8)"
    )
    assert pairs_plan(dict(sample_rows=1000, pairs=800), reach, TimeUnit.DAY).text == (
        "grouped (auto: 1000 A rows of a sample meet 0.8 B rows each in the last 4 days of B's read range, about 8 "
        "in its 40 days, at least 8)"
    )
    # B's read range without a lower bound (a first run over all of history): the window's count as it is
    endless = dict(reach, b_units=None, far_units=1)
    assert pairs_plan(dict(sample_rows=10, pairs=75), endless, TimeUnit.HOUR).text == (
        "plain (auto: 10 A rows of a sample meet 7.5 B rows each in the last 1 hour of B's read range, below 8)"
    )
    for found in (None, dict(sample_rows=0, pairs=0)):
        assert pairs_plan(found, reach, TimeUnit.DAY).text == (
            "plain (auto: no A rows with keys to sample before the last 4 days of B's read range)"
        )


def test_pairs_plan_of_an_input_of_inc_join_many_says_how_often_a_s_keys_repeat_in_the_sample():
    """spec §15: with A's key sharing (inc_join_many), a plain plan pairs B with A's rows as they are only when the
    sample's keys are (nearly) unique; a grouped plan never does."""
    reach = dict(a=None, b=None, b_units=40, far_units=4)
    unique = pairs_plan(dict(sample_rows=1000, pairs=100, shared=1040), reach, TimeUnit.DAY)
    assert unique.text == (
        "plain (auto: 1000 A rows of a sample (1.0 rows a key) meet 0.1 B rows each in the last 4 days of B's read "
        "range, about 1 in its 40 days, below 8)"
    )
    assert unique.pairs_a_rows
    hot = pairs_plan(dict(sample_rows=1000, pairs=700, shared=8000), reach, TimeUnit.DAY)
    assert hot.text.startswith("plain (auto: 1000 A rows of a sample (8.0 rows a key) meet 0.7 B rows each")
    assert not hot.pairs_a_rows
    recurring = pairs_plan(dict(sample_rows=1000, pairs=3000, shared=1000), reach, TimeUnit.DAY)
    assert recurring.grouped and not recurring.pairs_a_rows
    # without the sharing (inc_join's partner = all) a plain plan never pairs A's rows as they are
    assert not pairs_plan(dict(sample_rows=1000, pairs=100), reach, TimeUnit.DAY).pairs_a_rows
    assert not pairs_plan(dict(sample_rows=0, pairs=0, shared=0), reach, TimeUnit.DAY).pairs_a_rows


def test_one_sample_serves_several_inputs_up_to_the_earliest_end_of_their_own_ranges():
    day = [bound(t, "day") for t in range(-2, 6)]
    assert pairs_sample_range([dict(a=None)]) is None
    assert pairs_sample_range([dict(a=[day[0], day[3]]), dict(a=None), dict(a=[day[0], day[1]])]) == day[:2]
    assert pairs_sample_range([dict(a=[None, day[7]]), dict(a=[None, day[5]])]) == [None, day[5]]


def test_one_query_counts_each_input_on_its_own_keys(spark):
    """inc_join_many's query (spec §15) with two inputs on different A keys (k, and the nullable v): the sample
    holds the A rows with either input's keys; each input counts only its keyed rows, its pairs and A's sharing
    on its own keys. Counted by hand below."""
    a = [dict(id=i, k=k, v=v, t=0) for i, k, v in ((1, 1, 10), (2, 1, None), (3, 2, 10), (4, 3, 20))]
    a += [dict(id=5, k=None, v=None, t=0), dict(id=6, k=None, v=20, t=0)]  # 5: no keys, never sampled
    on_k = [dict(id=10 + i, k=k, t=5) for i, k in enumerate((1, 1, 3))]
    on_v = [dict(id=20 + i, k=0, v=10, t=5) for i in range(3)]
    frames = [
        side_frame(spark, rows, side, "day", "date", payload=True)
        for rows, side in ((a, "a"), (on_k, "b"), (on_v, "c"))
    ]
    sides = [PairsSide(frames[1], ["k"], ["k"], "TRUE"), PairsSide(frames[2], ["v"], ["v"], "TRUE")]
    # k: rows 1-4; pairs 2 + 2 + 0 + 1; sharing 2 + 2 + 1 + 1. v: rows 1, 3, 4, 6; pairs 3 + 3 + 0 + 0; 2 + 2 + 2 + 2
    assert pairs_sample(frames[0], "TRUE", sides, shared=True) == [
        dict(sample_rows=4, pairs=5, shared=6),
        dict(sample_rows=4, pairs=6, shared=8),
    ]


def test_the_probe_filters_b_by_the_sampled_keys_and_never_groups_or_moves_b(spark):
    """spec §15: B's window is only filtered by the sample's keys, as literals Spark pushes to the scan, so the
    query's cost does not grow with B's keys: no join and no exchange that partitions by a key (its one exchange
    gathers the counted row). Key 7 has two sample rows, so each of its B rows counts twice."""
    a = [dict(id=i, k=i, t=0) for i in range(50)] + [dict(id=99, k=7, t=0)]
    b = [dict(id=1000 + i, k=i % 70, t=5) for i in range(300)]
    frames = [side_frame(spark, rows, side, "day", "date", payload=True) for rows, side in ((a, "a"), (b, "b"))]
    side = dict(relation=relation("b0"), a_keys=["k"], b_keys=["k"], range_sql="TRUE")
    sample = run(rendered("_pairs_sample_sql", relation("a"), "TRUE", [side]), {"a": frames[0]}).collect()
    keys = render("_pairs_keys", sample, 0, 1)
    assert (keys["rows"], keys["shared"], sorted(keys["by_count"])) == (51, 49 + 4, [1, 2])
    query = run(rendered("_pairs_probe_sql", [side], [keys]), {"b0": frames[1]})
    per_key = Counter(row["k"] for row in b)
    assert query.collect()[0].asDict() == dict(pairs_0=sum(per_key[k] for k in range(50)) + per_key[7])
    plan = query._jdf.queryExecution().executedPlan().toString()
    assert "Join" not in plan and "hashpartitioning" not in plan, plan
    assert re.search(r"Filter .*k#\d+ INSET ", plan), plan  # a set filter on B's key, which a file scan takes


def test_keys_of_every_sampled_type_come_back_as_literals(spark):
    """The sample's keys travel as text and typeof (spec §15): each type a key may have casts back to the value
    that equals B's, so the probe finds the pairs; binary keys cannot, and are not sampled."""
    row = (
        "SELECT 7Y AS t, 7S AS s, 7 AS i, 7L AS l, 1.5F AS f, 0.1D AS d, 12.30BD AS m, 'it''s \\\\ {x}' AS c, "
        "true AS z, DATE'2024-02-29' AS e, TIMESTAMP'2024-02-29 10:11:12.123456' AS ts, "
        "CAST('2024-02-29 10:11:12' AS TIMESTAMP_NTZ) AS tn, X'00FF' AS y"
    )
    frame = spark.sql(row)
    names = ["t", "s", "i", "l", "f", "d", "m", "c", "z", "e", "ts", "tn"]
    found = pairs_sample(frame, "TRUE", [PairsSide(frame, [n], [n], "TRUE") for n in names + ["y"]])
    assert [side["pairs"] for side in found[:-1]] == [1] * len(names), found
    assert (found[-1]["sample_rows"], found[-1]["pairs"]) == (0, 0)  # y: binary


def test_keys_that_come_back_every_day_take_the_grouped_plan(spark):
    """30 keys, each with one row a day on each side over 20 days: a sample of the first rows sees each key once
    a day, but over the run the plain join would compare each A row with 20 B rows of its key (spec §15); so
    would the plain plan of an input of inc_join_many."""
    a = [dict(id=t * 100 + k, k=k, t=t) for t in range(20) for k in range(30)]
    b = [dict(id=5000 + t * 100 + k, k=k, t=t) for t in range(20) for k in range(30)]
    frames = side_frame(spark, a, "a", "day", "date"), side_frame(spark, b, "b", "day", "date")
    arguments = dict(join_cols="k", how="inner", look_back_time=1, max_waiting_time=1)
    window = OutputWindow(bound(0, "day"), bound(19, "day"))
    chosen = choose_join_plan(prepare_join(*frames, **arguments), window).text
    # B reads days -2-19 (22 days); in its last join window, days 17-19, each key has 3 rows: 3 over 3 days is 22
    # over 22. A's sample: from A's read range's start to the end of the window's first join window, days -1-2
    # (A's rows of days 0-2)
    assert chosen == (
        "grouped (auto: 90 A rows of a sample meet 3.0 B rows each in the last 3 days of B's read range, about 22 "
        "in its 22 days, at least 8)"
    )
    got = inc_join(*frames, output_window_start=window.start, output_window_end=window.end, **arguments)
    assert Counter(oracle_rows(got, "day")) == Counter(expected_rows(a, b, how="inner", lb=1, mw=1, start=0, end=19))
    # an input of inc_join_many, a pick: the same query sees it. A reads days -1-19, B -2-19; A's rows of days 0-2
    # hold each key three times (its A rows are not unique either)
    snap = [dict(df=frames[1], name="snap", join_cols="k", look_back_time=1, max_waiting_time=1, partner="first")]
    many = prepare_many(frames[0], snap, "day")
    assert plans_text(many, input_plans(many, window.start, window.end)) == (
        "snap grouped (auto: 90 A rows of a sample (3.0 rows a key) meet 3.0 B rows each in the last 3 days of B's "
        "read range, about 22 in its 22 days, at least 8)"
    )
    got = inc_join_many(frames[0], snap, output_window_start=window.start, output_window_end=window.end)
    day, collected = ORIGINS["day"].date(), got.collect()
    rows = Counter((r["id"], (r["RecDate"] - day).days, ((r["id_snap"], r["JoinType_snap"]),)) for r in collected)
    oracle = [dict(rows=b, lb=1, mw=1, partner="first")]
    assert rows == Counter(expected_many_rows(a, oracle, start=0, end=19))


def test_fixed_plans_need_no_sample():
    def fixed(empty=False, **arguments):
        choice = fixed_plan(check_parameters(join_cols="k", **arguments), empty)
        return None if choice is None else choice.text

    assert fixed() is None  # the default: auto, partner = all
    assert fixed(many_rows_per_key=" AUTO ") is None
    assert fixed(empty=True) == "plain (the run reads nothing)"
    assert fixed(many_rows_per_key=True) == "grouped (set by many_rows_per_key)"
    assert fixed(many_rows_per_key=False) == "plain (set by many_rows_per_key)"
    # one row per A (spec §15): the read range decides 'auto' (test below); many_rows_per_key sets it
    assert fixed(partner="first") is None
    assert fixed(aggregate={"n": "count(*)"}, many_rows_per_key=True) == "grouped (set by many_rows_per_key)"
    assert fixed(partner="last", many_rows_per_key=False) == "plain (set by many_rows_per_key)"
    assert fixed(many_rows_per_key=True, late_match_time=2) == "plain (late matches use the plain plan)"
    assert fixed(enforce_sliding_join_window=False) == "plain (compatibility mode)"


def shaped(prefix: int, sparse_days: range, dense_days: range, per_day: int) -> list[dict]:
    """Rows with a key of their own on the sparse days, and ``per_day`` rows of key 0 on each dense day."""
    rows = [dict(id=prefix + t, k=prefix + t, t=t) for t in sparse_days]
    rows += [dict(id=prefix + 100 + t * per_day + i, k=0, t=t) for t in dense_days for i in range(per_day)]
    return rows


def test_a_run_chooses_from_its_own_slices_so_the_plan_switches_with_the_data(spark):
    """Days 0-9 hold unique keys, days 12-16 one key with 10 rows a day on each side: the run over the first days
    chooses the plain join, the run over the last ones the grouped plan, a daily run the plain join without a
    sample (its B read range is a join window), and the rows are the oracle's."""
    a, b = shaped(1000, range(10), range(12, 17), 10), shaped(5000, range(10), range(12, 17), 10)
    frames = side_frame(spark, a, "a", "day", "date"), side_frame(spark, b, "b", "day", "date")
    arguments = dict(join_cols="k", how="left", look_back_time=1, max_waiting_time=1)
    chosen = {}
    for lo, hi in ((0, 5), (12, 16), (16, 16)):
        window = OutputWindow(bound(lo, "day"), bound(hi, "day"))
        chosen[lo] = choose_join_plan(prepare_join(*frames, **arguments), window).text
        got = inc_join(*frames, output_window_start=window.start, output_window_end=window.end, **arguments)
        expected = expected_rows(a, b, how="left", lb=1, mw=1, start=lo, end=hi)
        assert Counter(oracle_rows(got, "day")) == Counter(expected)
    # B reads days -2-5 (8 days, more than 2 join windows of 3); B's last join window is days 3-5, and A's sample
    # days -1-1: from A's read range's start into the window's first join window (0-2), but not past day 1, whose
    # partners all arrive before B's window: A's rows of days 0 and 1, whose keys B never has
    assert chosen[0] == (
        "plain (auto: 2 A rows of a sample meet 0.0 B rows each in the last 3 days of B's read range, "
        "about 0 in its 8 days, below 8)"
    )
    # A reads days 11-16, B days 10-16: A's sample, days 11-12 (not 13, whose partners may arrive on day 14), is
    # day 12's 10 rows of key 0 (A has no row on day 11), each meeting the 30 rows of key 0 in B's days 14-16;
    # 30 over 3 days is 70 over B's 7
    assert chosen[12] == (
        "grouped (auto: 10 A rows of a sample meet 30.0 B rows each in the last 3 days of B's read range, "
        "about 70 in its 7 days, at least 8)"
    )
    assert chosen[16] == "plain (auto: B's read range of 3 days is at most 2 join windows of 3 days)"


@pytest.mark.one_engine
def test_one_row_per_a_takes_the_plain_plan_on_a_short_read_range_and_groups_on_a_long_one(spark):
    """partner first, last and aggregate on the shaped days (unique keys, then one dense key): a daily run over
    the dense days takes the plain key join (its B read range is one join window), a run over all days the
    grouped plan without a sample, and the rows are the oracle's either way."""
    a, b = shaped(1000, range(10), range(12, 17), 10), shaped(5000, range(10), range(12, 17), 10)
    frames = side_frame(spark, a, "a", "day", "date"), side_frame(spark, b, "b", "day", "date")
    modes = {
        "first": (dict(partner="first"), dict(partner="first")),
        "last": (dict(partner="last", partner_order_by="id"), dict(partner="last", partner_order_by=("id",))),
        "aggregate": (
            dict(aggregate={"ids": "sort_array(collect_list(id))"}),
            dict(aggregate={"ids": lambda found: tuple(sorted(r["id"] for r in found))}),
        ),
    }
    for mode, (options, oracle_options) in modes.items():
        arguments = dict(join_cols="k", how="left", look_back_time=1, max_waiting_time=1, **options)
        chosen = []
        for lo, hi in ((16, 16), (0, 16)):
            window = OutputWindow(bound(lo, "day"), bound(hi, "day"))
            chosen.append(choose_join_plan(prepare_join(*frames, **arguments), window).text)
            got = inc_join(*frames, output_window_start=window.start, output_window_end=window.end, **arguments)
            aggregates = list(options.get("aggregate", {}))
            found = shaped_rows(oracle_shape(got, aggregates).collect(), "day", len(aggregates))
            expected = expected_rows(a, b, how="left", lb=1, mw=1, start=lo, end=hi, **oracle_options)
            assert Counter(found) == Counter(expected), (mode, lo)
        assert chosen == [
            "plain (auto: B's read range of 3 days is at most 2 join windows of 3 days)",
            "grouped (one row per A row)",
        ], mode


def test_a_run_that_reads_the_open_state_chooses_from_its_own_shorter_read_range(spark):
    """spec §15 and §18: a run given the open state reads B from look_back_time before its start. 15 days at lb 1,
    mw 10 read 16 days of B then, within 2 join windows of 12 (the plain plan); without the state 26, and one row
    per A takes the grouped plan. A state the run does not read (no relation) leaves §4's range."""
    a, b = shaped(1000, range(10), range(12, 17), 10), shaped(5000, range(10), range(12, 17), 10)
    frames = side_frame(spark, a, "a", "day", "date"), side_frame(spark, b, "b", "day", "date")
    prepared = prepare_join(*frames, join_cols="k", look_back_time=1, max_waiting_time=10, partner="first")
    window = OutputWindow(bound(2, "day"), bound(16, "day"))
    assert choose_join_plan(prepared, window).text == "grouped (one row per A row)"
    read = choose_join_plan(prepared, window, {"kind": "rows", "relation": "(select 1)"}).text
    assert read == "plain (auto: B's read range of 16 days is at most 2 join windows of 12 days)"
    unread = choose_join_plan(prepared, window, {"kind": "rows", "relation": None}).text
    assert unread == "grouped (one row per A row)"


@st.composite
def shifting(draw):
    """Inputs whose shape changes between runs: unique keys on some days, one dense key on others (A and B alike,
    so that both samples are dense there), a few rows of other keys among them, and a tiling of the window."""
    dense_from = draw(st.integers(0, 10))
    dense_to = draw(st.integers(dense_from, dense_from + 4))
    per_day = draw(st.sampled_from([3, 9, 12]))
    a = shaped(1000, range(0, 14), range(dense_from, dense_to + 1), per_day)
    b = shaped(5000, range(0, 14, 2), range(dense_from, dense_to + 1), per_day)
    b += [dict(id=9000 + i, k=1000 + t, t=t + draw(st.integers(-1, 3))) for i, t in enumerate(range(1, 14, 3))]
    start, end = draw(st.integers(0, 4)), draw(st.integers(8, 18))
    cuts = sorted(draw(st.lists(st.integers(start + 1, end), max_size=3, unique=True)))
    return dict(a=a, b=b, how=draw(st.sampled_from(["inner", "left", "full"])), start=start, end=end, cuts=cuts)


# each example is up to four runs and their samples; the main tiling properties (test_properties.py) run 'auto' too
@pytest.mark.one_engine
@settings(PROPERTY_SETTINGS, max_examples=min(10, settings().max_examples))
@given(case=shifting())
def test_auto_tiles_like_one_run_and_like_the_spec_on_data_that_changes_shape(spark, case):
    """Whatever plan each run of a tiling chooses, the runs add up to the oracle's one run (spec §15)."""
    frames = side_frame(spark, case["a"], "a", "day", "date"), side_frame(spark, case["b"], "b", "day", "date")
    arguments = dict(join_cols="k", how=case["how"], look_back_time=1, max_waiting_time=3)
    pieces = Counter()
    for lo, hi in tiles(case["start"], case["end"], case["cuts"]):
        run = inc_join(*frames, output_window_start=bound(lo, "day"), output_window_end=bound(hi, "day"), **arguments)
        pieces += Counter(oracle_rows(run, "day"))
    expected = expected_rows(case["a"], case["b"], how=case["how"], lb=1, mw=3, start=case["start"], end=case["end"])
    assert pieces == Counter(expected)


def test_forced_plans_of_inc_join_many_need_no_sample():
    def fixed(empty=False, **arguments):
        choice = forced_plan(check_parameters(join_cols="k", partner="first", **arguments), empty)
        return None if choice is None else choice.text

    assert fixed() is None  # the default: auto, whatever the input's mode
    assert fixed(empty=True) == "plain (the run reads nothing)"
    assert fixed(many_rows_per_key=True) == "grouped (set by many_rows_per_key)"
    assert fixed(many_rows_per_key=False, empty=True) == "plain (set by many_rows_per_key)"


@pytest.mark.one_engine
def test_each_input_of_inc_join_many_chooses_its_plan_from_the_run_s_slices(spark):
    """Unique keys on days 0-9, one key with 10 rows a day on days 12-24, two inputs on the same key, `b` a pick
    and `c` an aggregate: the run over the first days and the run over the dense days each take one query for
    both inputs (unique keys: both plain, both pairing B with A's distinct (keys, arrival), the aggregate's, which
    the pick on the same keys shares; the dense key: both grouped), a daily run takes each input's plain plan without a
    query (each read range is short, and both plain plans pair B with A's distinct (keys, arrival), since no
    sample ruled out a hot key); the rows are the oracle's each time, and a forced plan skips its input."""
    a, b = shaped(1000, range(10), range(12, 25), 10), shaped(5000, range(10), range(12, 25), 10)
    c = [dict(row, id=row["id"] + 20000) for row in b]
    frames = side_frame(spark, a, "a", "day", "date"), [side_frame(spark, r, "b", "day", "date") for r in (b, c)]
    specs = [dict(name="b", partner="first", lb=1, mw=2), dict(name="c", aggregate=True, lb=0, mw=1)]

    def inputs(plans):
        made = []
        for df, spec, plan in zip(frames[1], specs, plans, strict=True):
            entry = dict(df=df, name=spec["name"], join_cols="k", look_back_time=spec["lb"])
            entry.update(max_waiting_time=spec["mw"], many_rows_per_key=plan)
            if "aggregate" in spec:
                entry["aggregate"] = {"ids": "sort_array(collect_list(id))"}
            else:
                entry["partner"] = spec["partner"]
            made.append(entry)
        return made

    oracle_specs = [
        dict(rows=b, lb=1, mw=2, partner="first"),
        dict(rows=c, lb=0, mw=1, aggregate={"ids": lambda found: tuple(sorted(r["id"] for r in found))}),
    ]
    chosen, distinct = {}, {}
    runs = ((0, 9, ("auto", "auto")), (14, 24, ("auto", "auto")), (24, 24, ("auto", "auto")), (21, 24, (False, True)))
    for lo, hi, plans in runs:
        many = prepare_many(frames[0], inputs(plans), "day")
        start, end = bound(lo, "day"), bound(hi, "day")
        chosen[lo, plans] = plans_text(many, input_plans(many, start, end))
        got = inc_join_many(frames[0], inputs(plans), output_window_start=start, output_window_end=end)
        distinct[lo, plans] = distincts(got)
        day, collected = ORIGINS["day"].date(), got.collect()
        per_input = [((r["id_b"], r["JoinType_b"]), ((tuple(r["ids"]),), r["JoinType_c"])) for r in collected]
        rows = Counter((r["id"], (r["RecDate"] - day).days, p) for r, p in zip(collected, per_input, strict=True))
        assert rows == Counter(expected_many_rows(a, oracle_specs, start=lo, end=hi))
    # days 0-9: A reads from -2 (mw 2 back); b reads -3-9 (13 days, more than 2 of its join windows of 4), c -2-9
    # (12 days, more than 2 of its join windows of 2). One sample for both: from A's start to the end of the
    # window's first join window, the widest (days 0-3), and no later than each input's own end (b: 9 - 4 - 2 = 3,
    # c: 9 - 2 - 1 = 6), so A's rows of days 0-3; their keys are unique and never in b's days 6-9 or c's days 8-9
    sample = "auto: 4 A rows of a sample (1.0 rows a key) meet 0.0 B rows each in the last"
    assert chosen[0, ("auto", "auto")] == (
        f"b plain ({sample} 4 days of B's read range, about 0 in its 13 days, below 8); "
        f"c plain ({sample} 2 days of B's read range, about 0 in its 12 days, below 8)"
    )
    # days 14-24: A reads 12-24, b 11-24 (14 days), c 12-24 (13 days); the sample: days 12-17, the 60 rows of key
    # 0, each meeting its 40 rows in b's days 21-24 (40 over 4 days: 140 over 14) and its 20 in c's days 23-24
    dense = "auto: 60 A rows of a sample (60.0 rows a key) meet"
    assert chosen[14, ("auto", "auto")] == (
        f"b grouped ({dense} 40.0 B rows each in the last 4 days of B's read range, about 140 in its 14 days, at "
        f"least 8); c grouped ({dense} 20.0 B rows each in the last 2 days of B's read range, about 130 in its 13 "
        "days, at least 8)"
    )
    # a daily run: A reads days 22-24; b days 21-24, within 2 of its join windows (1 + 2 + 1); c days 22-24, within
    # 2 of its join windows (0 + 1 + 1)
    assert chosen[24, ("auto", "auto")] == (
        "b plain (auto: B's read range of 4 days is at most 2 join windows of 4 days); "
        "c plain (auto: B's read range of 3 days is at most 2 join windows of 2 days)"
    )
    forced = "by many_rows_per_key)"
    assert chosen[21, (False, True)] == f"b plain (set {forced}; c grouped (set {forced}"
    # A's distinct (keys, arrival): the aggregate's always, and the pick's too, though A's sample ruled out a hot
    # key on day 0: on the same keys as the aggregate it shares its subquery (_many_pairs_a_rows); the pick's on the
    # daily run and with its plain plan forced; every grouped plan has its own
    assert distinct[0, ("auto", "auto")] == 2
    assert distinct[14, ("auto", "auto")] == distinct[24, ("auto", "auto")] == distinct[21, (False, True)] == 2
