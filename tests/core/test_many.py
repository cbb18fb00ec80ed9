"""spec §12 in the core: inc_join_many (src/dbt_inc_join/orchestration/many.py) against the brute-force oracle,
tiled runs
adding up to one run with 2 and 3 inputs of different windows, partner / aggregate mixes, join_cond and each
input's plan (chosen or forced, spec §15), in days, hours and minutes, a first run with include_waiting, a stalled
input holding the watermark back, and each bad argument with its message."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dbt_inc_join.orchestration.many import ManyInput, inc_join_many

from .frames import bound, side_frame, units_since_origin
from .oracle import expected_many_rows
from .test_properties import CONDITIONS, PROPERTY_SETTINGS, tables, tiles

# engine-independent: `make test` runs this file on Spark 4; Spark 3.5 runs the SQL macro = core matrix
pytestmark = pytest.mark.one_engine

AGGREGATES = {"sorted_ids": ("sort_array(collect_list(id))", lambda found: sorted(b["id"] for b in found))}


@st.composite
def dense_tables(draw, prefix: int):
    """Rows like ``tables``, at least three, most on two keys: partners, ties and conditions to meet or fail."""
    rows = draw(tables(prefix))
    for i in range(draw(st.integers(3, 6))):
        t = draw(st.one_of(st.integers(0, 14), st.none()))
        rows.append(dict(id=prefix + 50 + i, k=draw(st.integers(0, 1)), t=t, jitter=draw(st.integers(0, 59))))
    return rows


@st.composite
def many_scenarios(draw):
    count = draw(st.integers(2, 3))
    inputs = []
    for i in range(count):
        inputs.append(
            dict(
                name=f"in{i}",
                rows=draw(dense_tables(200 + 100 * i)),
                lb=draw(st.integers(0, 2)),
                mw=draw(st.integers(0, 4)),
                mode=draw(st.sampled_from(["first", "last", "aggregate"])),
                cond=draw(st.sampled_from([None, None, "pair", "a_only", "b_only", "mixed", "one_sided"])),
                # the input's plan (spec §15): chosen per run, or forced either way; the rows never differ
                plan=draw(st.sampled_from(["auto", True, False])),
            )
        )
    start = draw(st.integers(0, 4))
    end = draw(st.integers(start, 20))
    cuts = draw(st.lists(st.integers(start + 1, end), max_size=3, unique=True)) if end > start else []
    unit = draw(st.sampled_from(["day", "day", "hour", "minute"]))
    return dict(
        a=draw(dense_tables(100)),
        inputs=inputs,
        start=start,
        end=end,
        cuts=sorted(cuts),
        unit=unit,
        arrival_type="timestamp" if unit != "day" else draw(st.sampled_from(["date", "timestamp"])),
        # a run with include_waiting over [start, waiting_end], made when the rows up to waiting_end are loaded
        waiting_end=draw(st.integers(start, max(start, 12))),
    )


def many_frames(spark, scenario, until: int | None = None):
    """A and the inputs as frames; ``until``: only the rows loaded by then."""
    unit, arrival_type = scenario.get("unit", "day"), scenario.get("arrival_type", "date")

    def frame(rows, side):
        loaded = [r for r in rows if until is None or r["t"] is None or r["t"] <= until]
        return side_frame(spark, loaded, side, unit, arrival_type)

    return frame(scenario["a"], "a"), [frame(spec["rows"], "b") for spec in scenario["inputs"]]


def many_inputs(frames, scenario):
    inputs = []
    for df, spec in zip(frames[1], scenario["inputs"], strict=True):
        entry = dict(df=df, name=spec["name"], join_cols="k", look_back_time=spec["lb"], max_waiting_time=spec["mw"])
        if spec.get("cond") is not None:
            entry["join_cond"] = CONDITIONS[spec["cond"]][0]
        if "plan" in spec:
            entry["many_rows_per_key"] = spec["plan"]
        if spec["mode"] == "aggregate":
            entry["aggregate"] = {f"{name}_{spec['name']}": sql for name, (sql, _) in AGGREGATES.items()}
        else:
            entry["partner"] = spec["mode"]
        inputs.append(entry)
    return inputs


def many_run(frames, scenario, start, end, include_waiting=False) -> Counter:
    return many_rows(many_result(frames, scenario, start, end, include_waiting).collect(), scenario)


def many_result(frames, scenario, start, end, include_waiting=False):
    """One run of inc_join_many, not collected (with its output arrival as text, ``_out``)."""
    unit = scenario.get("unit", "day")
    result = inc_join_many(
        frames[0],
        many_inputs(frames, scenario),
        output_window_start=bound(start, unit),
        output_window_end=bound(end, unit),
        time_uom=unit,
        include_waiting=include_waiting,
    )
    return result.selectExpr("*", "date_format(RecDate, 'yyyy-MM-dd HH:mm:ss') AS _out")


def many_rows(collected, scenario) -> Counter:
    """Collected rows of ``many_result`` as the oracle's rows ``(a_id, out_time, per input)``."""
    unit = scenario.get("unit", "day")
    rows = []
    for r in collected:
        values = []
        for spec in scenario["inputs"]:
            name = spec["name"]
            if spec["mode"] == "aggregate":
                value = (tuple(tuple(r[f"{agg}_{name}"]) for agg in AGGREGATES), r[f"JoinType_{name}"])
                values.append(value)
            else:
                values.append((r[f"id_{name}"], r[f"JoinType_{name}"]))
        rows.append((r["id"], units_since_origin(r["_out"], unit), tuple(values)))
    return Counter(rows)


def oracle_inputs(scenario):
    specs = []
    for spec in scenario["inputs"]:
        entry = dict(rows=spec["rows"], lb=spec["lb"], mw=spec["mw"])
        if spec.get("cond") is not None:
            entry["cond"] = CONDITIONS[spec["cond"]][1]
        if spec["mode"] == "aggregate":
            entry["aggregate"] = {name: lambda found, fn=fn: tuple(fn(found)) for name, (_, fn) in AGGREGATES.items()}
        else:
            entry["partner"] = spec["mode"]
        specs.append(entry)
    return specs


# each example is up to six runs of two or three inputs (the suite's most expensive example): 8 with the profile's
# 16, as many as the profile says below that (make test's time; test_restated_property.py tiles inc_join_many too)
@settings(PROPERTY_SETTINGS, max_examples=min(8, settings().max_examples))
@given(scenario=many_scenarios())
def test_many_inputs_tile_and_match_the_oracle(spark, scenario):
    """One run equals the oracle; the tiles, each made when the rows up to its end are loaded, add up to it; a
    run with include_waiting equals the oracle's, and without the rows of an open input (code 5) it is the
    final rows of its window."""
    start, end = scenario["start"], scenario["end"]
    whole = many_run(many_frames(spark, scenario), scenario, start, end)
    assert whole == Counter(expected_many_rows(scenario["a"], oracle_inputs(scenario), start=start, end=end))
    pieces = Counter()
    for lo, hi in tiles(start, end, scenario["cuts"]):
        pieces += many_run(many_frames(spark, scenario, until=hi), scenario, lo, hi)
    assert pieces == whole

    until = scenario["waiting_end"]
    waiting = many_run(many_frames(spark, scenario, until=until), scenario, start, until, include_waiting=True)
    loaded = dict(scenario, a=_loaded(scenario["a"], until))
    loaded["inputs"] = [dict(spec, rows=_loaded(spec["rows"], until)) for spec in scenario["inputs"]]
    expected = expected_many_rows(loaded["a"], oracle_inputs(loaded), start=start, end=until, include_waiting=True)
    assert waiting == Counter(expected)
    final = Counter({row: n for row, n in waiting.items() if all(code != 5 for _, code in row[2])})
    assert final == Counter(expected_many_rows(scenario["a"], oracle_inputs(scenario), start=start, end=until))


def _loaded(rows, until):
    return [r for r in rows if r["t"] is None or r["t"] <= until]


# fixed rows: key 1, A on day 2; the first input's partner on day 3, the second's on day 6 (mw 5)
FIXED_A = [dict(id=100, k=1, t=2, jitter=0), dict(id=101, k=1, t=2, jitter=0), dict(id=102, k=2, t=4, jitter=0)]
FIXED_B = [[dict(id=200, k=1, t=3, jitter=0)], [dict(id=300, k=1, t=6, jitter=0), dict(id=301, k=2, t=5, jitter=0)]]


def fixed_inputs(spark, second_until: int | None = None):
    a = side_frame(spark, FIXED_A, "a", "day", "date")
    second = [r for r in FIXED_B[1] if second_until is None or r["t"] <= second_until]
    b1, b2 = (side_frame(spark, rows, "b", "day", "date") for rows in (FIXED_B[0], second))
    return a, [
        dict(df=b1, name="fin", join_cols="k", look_back_time=1, max_waiting_time=2),
        dict(df=b2, name="sepa", join_cols={"k": "k"}, inc_col=("RecDate", "RecDate"), look_back_time=0,
             max_waiting_time=5, aggregate={"n": "count(*)"}),
    ]  # fmt: skip


def test_one_row_per_a_row_with_duplicates_kept_and_columns_named_per_input(spark):
    a, inputs = fixed_inputs(spark)
    result = inc_join_many(a, inputs, output_window_start=bound(0, "day"), output_window_end=bound(20, "day"))
    assert result.columns == [
        "RecDate", "id", "k", "RecDate_A", "a_val", "id_fin", "RecDate_fin", "b_val_fin", "JoinType_fin", "n",
        "JoinType_sepa",
    ]  # fmt: skip
    got = sorted((r.id, str(r.RecDate), r.id_fin, r.JoinType_fin, r.n, r.JoinType_sepa) for r in result.collect())
    # A 100 and 101 (the same key and day): fin's partner on day 3 (b_late), sepa settles at 2 + 5 = day 7
    # with its one partner; A 102: fin times out on day 6, sepa aggregates its day-5 partner at 4 + 5 = day 9
    assert got == [
        (100, "2025-03-08", 200, 3, 1, 8),
        (101, "2025-03-08", 200, 3, 1, 8),
        (102, "2025-03-10", None, 4, 1, 8),
    ]


def test_the_row_waits_for_the_input_that_settles_last(spark):
    """Two inputs with partner='first': each settles at max(a, b) when its partner came, else when its window
    closes; the row is placed at the later of the two."""
    a = side_frame(spark, [dict(id=1, k=1, t=2), dict(id=2, k=2, t=2)], "a", "day", "date")
    b1 = side_frame(spark, [dict(id=10, k=1, t=3), dict(id=11, k=2, t=6)], "b", "day", "date")
    b2 = side_frame(spark, [dict(id=20, k=1, t=1), dict(id=21, k=2, t=4)], "b", "day", "date")
    inputs = [
        dict(df=b1, name="one", join_cols="k", look_back_time=0, max_waiting_time=5),
        dict(df=b2, name="two", join_cols="k", look_back_time=1, max_waiting_time=3),
    ]
    result = inc_join_many(a, inputs, output_window_start=bound(0, "day"), output_window_end=bound(9, "day"))
    got = sorted((r.id, str(r.RecDate), r.id_one, r.JoinType_one, r.id_two, r.JoinType_two) for r in result.collect())
    # A 1: one's partner on day 3, two's on day 1 (a_late): placed on day 3; A 2: days 6 and 4: placed on day 6
    assert got == [(1, "2025-03-04", 10, 3, 20, 2), (2, "2025-03-07", 11, 3, 21, 3)]


def test_a_stalled_input_holds_every_row_back(spark):
    """sepa has loaded up to day 5 only: the watermark is day 5, so no row is placed before its inputs settle,
    and nothing times out early; once sepa loads day 6 the rows come with its partner."""
    a, inputs = fixed_inputs(spark, second_until=5)
    early = inc_join_many(a, inputs, output_window_start=bound(0, "day"))
    assert early.count() == 0
    a, inputs = fixed_inputs(spark)
    later = inc_join_many(a, inputs, output_window_start=bound(0, "day"), output_window_end=bound(7, "day"))
    assert sorted((r.id, r.n) for r in later.collect()) == [(100, 1), (101, 1)]


def test_an_empty_input_holds_every_row_back_until_an_end_is_declared(spark):
    """An input without any row has no latest arrival, so no watermark: nothing is placed. With an explicit end
    (an orchestrator that knows the input is loaded, empty) the rows come, that input timed out (code 4)."""
    a, inputs = fixed_inputs(spark)
    inputs[1]["df"] = inputs[1]["df"].where("false")
    assert inc_join_many(a, inputs, output_window_start=bound(0, "day")).count() == 0
    declared = inc_join_many(a, inputs, output_window_start=bound(0, "day"), output_window_end=bound(20, "day"))
    assert sorted((r.id, r.n, r.JoinType_sepa) for r in declared.collect()) == [(100, 0, 4), (101, 0, 4), (102, 0, 4)]


@pytest.mark.parametrize(
    "change, error, message",
    [
        (
            lambda i: i[1].update(name="FIN"),
            ValueError,
            "inc_join_many: two inputs are named 'FIN'; each input needs a name of its own.",
        ),
        (
            lambda i: i[0].pop("max_waiting_time"),
            ValueError,
            "inc_join_many: input 'fin' has no window (no max_waiting_time): give its look_back_time and "
            "max_waiting_time (0 is allowed), the units a partner may arrive before and after its A row.",
        ),
        (
            lambda i: i[0].update(partner="all"),
            ValueError,
            "inc_join_many: input 'fin': partner='all' is not one row per A row; inc_join_many gives one row per A "
            "row: use partner='first' or 'last', or aggregate.",
        ),
        (
            lambda i: i[0].update(partner="firts"),
            ValueError,
            "inc_join_many: input 'fin': partner='firts' is not one of the values an input takes; inc_join_many gives "
            "one row per A row: use partner='first' or 'last', or aggregate.",
        ),
        (
            lambda i: i[1].update(join_cols={"k": "key"}),
            ValueError,
            "inc_join_many: input 'sepa': join_cols column 'key' is missing from input 'sepa'; its columns are 'id', "
            "'k', 'RecDate', 'b_val'.",
        ),
        (
            lambda i: i[1].update(inc_col=("a_val", "RecDate")),
            TypeError,
            "inc_join_many: input 'sepa': inc_col 'a_val' of df_a is STRING; it must be DATE or TIMESTAMP (cast it, "
            "e.g. to_date(a_val) or to_timestamp(a_val)).",
        ),
        (
            lambda i: i[0].update(join_cond="c.k > 0 AND b.id > 0"),
            ValueError,
            "inc_join_many: input 'fin': join_cond 'c.k > 0 AND b.id > 0' names 'c.k': the side alias 'c' is "
            "unknown; write a.<column> for A's columns and b.<column> for B's.",
        ),
        (
            lambda i: i[0].update(partner_order_by="nope"),
            ValueError,
            "inc_join_many: input 'fin': partner_order_by column 'nope' is missing from input 'fin'; its columns are "
            "'id', 'k', 'RecDate', 'b_val'.",
        ),
        (
            lambda i: i[1].update(many_rows_per_key="sometimes"),
            TypeError,
            "inc_join_many: input 'sepa': many_rows_per_key must be True, False or 'auto' (got str 'sometimes').",
        ),
        (
            lambda i: i[0].update(colour="red", Size=1),
            ValueError,
            "inc_join_many: inputs[0] has unknown keys 'colour', 'Size'; accepted keys: df, name, join_cols, inc_col, "
            "look_back_time, max_waiting_time, partner, partner_order_by, aggregate, null_fill, join_cond, suffix, "
            "many_rows_per_key.",
        ),
        (
            lambda i: i[1].update(name="sepa 2"),
            ValueError,
            "inc_join_many: inputs[1] needs a name: letters, digits and underscores, e.g. 'sepa' (got 'sepa 2'); it "
            "names the input's columns (JoinType_<name>, <column>_<name>).",
        ),
        (
            lambda i: i.__setitem__(1, ["sepa"]),
            TypeError,
            "inc_join_many: inputs[1] must be a dict (or ManyInput) with df, name, join_cols, look_back_time and "
            "max_waiting_time (got list).",
        ),
        (
            lambda i: i.clear(),
            TypeError,
            "inc_join_many: inputs must be a non-empty list of inputs (dicts with df, name, join_cols, ...).",
        ),
    ],
    ids=[
        "same-name",
        "no-window",
        "partner-all",
        "partner-misspelled",
        "mapping-missing-column",
        "arrival-not-a-time",
        "cond-alias",
        "order-by-missing-column",
        "plan-not-a-flag",
        "unknown-keys",
        "bad-name",
        "not-a-dict",
        "no-inputs",
    ],
)
def test_bad_argument_gets_one_exact_message(spark, change, error, message):
    a, inputs = fixed_inputs(spark)
    change(inputs)
    with pytest.raises(error) as caught:
        inc_join_many(a, inputs, output_window_start="2025-03-01", output_window_end="2025-03-10")
    assert str(caught.value) == message


def test_many_input_objects_are_taken_as_the_dicts_of_their_fields(spark):
    a, inputs = fixed_inputs(spark)
    window = dict(output_window_start=bound(0, "day"), output_window_end=bound(20, "day"))
    as_dicts = inc_join_many(a, inputs, **window)
    as_objects = inc_join_many(a, [ManyInput(**spec) for spec in inputs], **window)
    assert sorted(as_objects.collect()) == sorted(as_dicts.collect()) and as_dicts.count() == 3


def test_output_select_and_twice_named_columns_fail_before_any_data_is_read(spark):
    """The output columns are named from the schemas alone: an output_select naming no output column, or two
    output columns under one name, fail before a job (no end is given, so a job would be the watermark's)."""
    a, inputs = fixed_inputs(spark)
    jobs = spark.sparkContext.statusTracker().getJobIdsForGroup()
    with pytest.raises(ValueError) as caught:
        inc_join_many(a, inputs, output_select=["id", "nope"])
    assert str(caught.value).startswith("inc_join_many: output_select names 'nope', not an output column (RecDate, ")
    inputs[1]["aggregate"] = {"id_fin": "count(*)"}  # sepa's aggregate would meet fin's id (as id_fin)
    with pytest.raises(ValueError) as caught:
        inc_join_many(a, inputs)
    assert str(caught.value) == (
        "inc_join_many: output column 'id_fin' would exist twice; rename a column or give the input a suffix."
    )
    assert spark.sparkContext.statusTracker().getJobIdsForGroup() == jobs


def test_inputs_on_the_same_keys_share_their_arrivals_when_one_takes_the_distinct():
    """A pick whose sample lets it pair B with A's rows as they are takes A's distinct (keys, arrival) when another
    input on the same A side does (an aggregate always does): the two inputs' arrivals are then one subquery,
    which Spark computes and broadcasts once (issue 75: the second broadcast of A cost about 1.5 s of 10)."""
    from dbt_inc_join.sql_text import render

    def item(mode: str, key: str = "k") -> dict:
        return {"params": {"mode": mode}, "inputs": {"keys": [[key, key]]}}

    sampled, grouped = {"grouped": False, "pairs_a_rows": True}, {"grouped": True, "pairs_a_rows": False}
    names = ["k", "j", "v"]

    def pairs(items, plans):
        return render("_many_pairs_a_rows", items, plans, names)

    assert pairs([item("first"), item("aggregate")], [sampled, sampled]) == [False, False]
    assert pairs([item("first"), item("last")], [sampled, sampled]) == [True, True]
    assert pairs([item("first"), item("aggregate", "j")], [sampled, sampled]) == [True, False]
    # a grouped input's arrivals are time buckets, another subquery: it leaves the pick as it is
    assert pairs([item("first"), item("aggregate")], [sampled, grouped]) == [True, False]
