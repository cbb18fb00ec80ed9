"""spec §15: many_rows_per_key='auto' chooses the plan of partner = all per run, from the run's own slices, and
the rows never depend on the choice (plan_choice.py; the SQL twin is macros/plan/_plan_choice.sql, compared in
test_twins.py)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from dbt_inc_join import inc_join
from dbt_inc_join.orchestration.join import prepare_join
from dbt_inc_join.orchestration.many import inc_join_many, input_plans, plans_text, prepare_many
from dbt_inc_join.plan.plan_choice import (
    KeySharing,
    auto_plan,
    choose_join_plan,
    fixed_plan,
    forced_plan,
    key_sharing,
    pairs_plan,
)
from dbt_inc_join.plan.time_units import TimeUnit
from dbt_inc_join.plan.validation import check_parameters
from dbt_inc_join.plan.window import OutputWindow

from .frames import ORIGINS, bound, oracle_rows, oracle_shape, shaped_rows, side_frame
from .oracle import expected_many_rows, expected_rows
from .test_properties import PROPERTY_SETTINGS, tiles


def test_key_sharing_counts_how_many_rows_of_the_sample_a_row_shares_its_key_with():
    assert key_sharing([]) == KeySharing(0, 0.0)
    assert key_sharing([(1,), (2,), (3,)]) == KeySharing(3, 1.0)
    # one hot key among singles: 4 rows share one key (4 * 4), 2 are alone (1 + 1): 18 / 6
    assert key_sharing([(7,), (7,), (1,), (7,), (2,), (7,)]) == KeySharing(6, 3.0)
    assert key_sharing([(1, "x"), (1, "y"), (1, "x")]) == KeySharing(3, 5 / 3)


def distincts(df) -> int:
    """The distinct (keys, arrival) steps of A in a DataFrame's plan, as Spark analysed it (DataFrame.distinct is
    a Deduplicate node, SELECT DISTINCT a Distinct node)."""
    plan = df._jdf.queryExecution().analyzed().toString()
    return sum(1 for line in plan.splitlines() if line.lstrip(" :+-").split(" ")[0] in ("Deduplicate", "Distinct"))


def test_auto_plan_groups_only_when_both_samples_are_dense_and_says_why():
    sparse, dense = KeySharing(1000, 1.04), KeySharing(1000, 50.0)
    assert auto_plan(sparse, None).text == "plain (auto: 1.0 rows a key in a sample of 1000 A rows, below 8)"
    assert auto_plan(dense, KeySharing(400, 7.96)).text == (
        "plain (auto: 50.0 rows a key in a sample of 1000 A rows, 8.0 in a sample of 400 B rows, below 8)"
    )
    assert auto_plan(dense, KeySharing(1000, 8.0)).text == (
        "grouped (auto: 50.0 rows a key in a sample of 1000 A rows, 8.0 in a sample of 1000 B rows, both at least 8)"
    )


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


def test_keys_that_come_back_every_day_take_the_grouped_plan(spark):
    """30 keys, each with one row a day on each side over 20 days: a sample of the first rows sees each key once
    a day, but over the run the plain join would compare each A row with 20 B rows of its key (spec §15)."""
    a = [dict(id=t * 100 + k, k=k, t=t) for t in range(20) for k in range(30)]
    b = [dict(id=5000 + t * 100 + k, k=k, t=t) for t in range(20) for k in range(30)]
    frames = side_frame(spark, a, "a", "day", "date"), side_frame(spark, b, "b", "day", "date")
    arguments = dict(join_cols="k", how="inner", look_back_time=1, max_waiting_time=1)
    window = OutputWindow(bound(0, "day"), bound(19, "day"))
    chosen = choose_join_plan(prepare_join(*frames, **arguments), window).text
    # B reads days -2-19 (22 days); in its last join window, days 17-19, each key has 3 rows: 3 over 3 days is 22
    # over 22. A's sample: the first join window of A's read range, days -1-1 (A's rows of days 0 and 1)
    assert chosen == (
        "grouped (auto: 60 A rows of a sample meet 3.0 B rows each in the last 3 days of B's read range, about 22 "
        "in its 22 days, at least 8)"
    )
    got = inc_join(*frames, output_window_start=window.start, output_window_end=window.end, **arguments)
    assert Counter(oracle_rows(got, "day")) == Counter(expected_rows(a, b, how="inner", lb=1, mw=1, start=0, end=19))


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
    # the first join window of A's read range, days -1-1 (whose partners all arrive before B's window): A's rows of
    # days 0 and 1, whose keys B never has
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


def test_each_input_of_inc_join_many_chooses_its_plan_from_the_run_s_slices(spark):
    """The shaped days again, with two inputs on the same key, `b` a pick and `c` an aggregate: the first run
    samples A once (unique keys: both inputs plain, no input sampled; the pick pairs B with A's rows as they are,
    the aggregate with A's distinct (keys, arrival)), the run over the dense days samples A once and each input
    (both dense: grouped), a daily run takes each input's plain plan without a sample (each read range is short,
    and both plain plans pair B with A's distinct (keys, arrival), since no sample ruled out a hot key); the rows
    are the oracle's each time, and a forced plan skips its input's sample."""
    a, b = shaped(1000, range(10), range(12, 17), 10), shaped(5000, range(10), range(12, 17), 10)
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
    runs = ((0, 5, ("auto", "auto")), (11, 16, ("auto", "auto")), (16, 16, ("auto", "auto")), (13, 16, (False, True)))
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
    # A reads days mw 2 back: 0-5 from -2; the same sample serves both inputs (the same key)
    sparse = "plain (auto: 1.0 rows a key in a sample of 6 A rows, below 8)"
    assert chosen[0, ("auto", "auto")] == f"b {sparse}; c {sparse}"
    # days 11-16: A reads 9-16 (day 9's single row, then the 50 rows of key 0: (50² + 1) / 51), b reads 8-16
    # (9 days, more than 2 of its join windows of 4; two single rows: (50² + 2) / 52), c reads 9-16 (8 days, more
    # than 2 of its join windows of 2)
    dense = "49.0 rows a key in a sample of 51 A rows"
    assert chosen[11, ("auto", "auto")] == (
        f"b grouped (auto: {dense}, 48.1 in a sample of 52 B rows, both at least 8); "
        f"c grouped (auto: {dense}, 49.0 in a sample of 51 B rows, both at least 8)"
    )
    # a daily run: A reads days 14-16; b days 13-16, within 2 of its join windows (1 + 2 + 1); c days 14-16, within
    # 2 of its join windows (0 + 1 + 1)
    assert chosen[16, ("auto", "auto")] == (
        "b plain (auto: B's read range of 4 days is at most 2 join windows of 4 days); "
        "c plain (auto: B's read range of 3 days is at most 2 join windows of 2 days)"
    )
    forced = "by many_rows_per_key)"
    assert chosen[13, (False, True)] == f"b plain (set {forced}; c grouped (set {forced}"
    # A's distinct (keys, arrival): the aggregate's alone where A's sample ruled out a hot key, the pick's too on
    # the daily run and with its plain plan forced; every grouped plan has its own
    assert distinct[0, ("auto", "auto")] == 1
    assert distinct[11, ("auto", "auto")] == distinct[16, ("auto", "auto")] == distinct[13, (False, True)] == 2
