"""The consistency promises (spec §3 and §11), as hypothesis properties on random tables with duplicates, hot
keys, missing partners, NULL keys, NULL arrivals and look-back > 0, checked against the brute-force oracle."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyspark.sql import functions as F

from dbt_inc_join import inc_join

from .frames import bound, oracle_rows, oracle_shape, output_fields, shaped_rows, side_frame
from .oracle import expected_rows

pytestmark = pytest.mark.one_engine  # engine-independent: `make test` runs it on Spark 4 only

HORIZON = 14  # arrivals lie in [0, HORIZON]; windows reach a little beyond


@st.composite
def tables(draw, prefix: int):
    count = draw(st.integers(0, 9))
    rows = []
    for i in range(count):
        rows.append(
            dict(
                id=prefix + i,
                k=draw(st.one_of(st.none(), st.integers(0, 3))),  # few keys: duplicates and collisions
                t=draw(st.one_of(st.integers(0, HORIZON), st.integers(0, HORIZON), st.none())),
                jitter=draw(st.integers(0, 59)),
            )
        )
    return rows


@st.composite
def scenarios(draw):
    unit = draw(st.sampled_from(["day", "day", "hour", "minute"]))
    arrival_type = "timestamp" if unit != "day" else draw(st.sampled_from(["date", "timestamp"]))
    start = draw(st.integers(0, 4))
    end = draw(st.integers(start, HORIZON + 6))
    cuts = draw(st.lists(st.integers(start + 1, end), max_size=3, unique=True)) if end > start else []
    how = draw(st.sampled_from(["inner", "left", "full", "left_anti"]))
    return dict(
        unit=unit,
        arrival_type=arrival_type,
        a=draw(tables(100)),
        b=draw(tables(200)),
        how=how,
        # spec §10: late matches in most examples (not with left_anti, which has no pairs)
        late=0 if how == "left_anti" else draw(st.sampled_from([0, 1, 2, 4])),
        lb=draw(st.integers(0, 3)),
        mw=draw(st.integers(0, 4)),
        start=start,
        end=end,
        cuts=sorted(cuts),
        # spec §12: join_cond over both sides, A only or B only (None: none); B's key and arrival renamed
        cond=draw(st.sampled_from(["pair", None, "a_only", "b_only", None, "mixed", "one_sided"])),
        renamed=draw(st.booleans()),
    )


#: join_cond as the SQL the user writes and as the oracle's test of a pair
CONDITIONS = {
    "pair": ("(a.id + b.id) % 3 <> 0", lambda a, b: (a["id"] + b["id"]) % 3 != 0),
    "a_only": ("a.id % 2 = 0", lambda a, b: a["id"] % 2 == 0),
    "b_only": ("b.id % 3 <> 1 AND b.b_val IS NOT NULL", lambda a, b: b["id"] % 3 != 1),
    # split into conjuncts (_condition_parts): A-only, pair and B-only ones, and A-only with B-only
    "mixed": (
        "a.id % 2 = 0 AND (a.id + b.id) % 3 <> 0 AND b.id % 5 <> 2",
        lambda a, b: a["id"] % 2 == 0 and (a["id"] + b["id"]) % 3 != 0 and b["id"] % 5 != 2,
    ),
    "one_sided": ("a.id % 3 <> 0 AND b.id % 2 = 0", lambda a, b: a["id"] % 3 != 0 and b["id"] % 2 == 0),
}


def oracle_cond(scenario):
    return None if scenario["cond"] is None else CONDITIONS[scenario["cond"]][1]


def tiles(start, end, cuts):
    edges = [start] + cuts + [end + 1]
    return [(lo, hi - 1) for lo, hi in zip(edges, edges[1:], strict=False)]


def frames_for(spark, scenario):
    b = side_frame(spark, scenario["b"], "b", scenario["unit"], scenario["arrival_type"])
    if scenario.get("renamed"):  # spec §12: keys and arrival named differently on the two sides
        b = b.withColumnsRenamed({"k": "bk", "RecDate": "PaidAt"})
    return side_frame(spark, scenario["a"], "a", scenario["unit"], scenario["arrival_type"]), b


def scenario_arguments(scenario) -> dict:
    """The inc_join arguments of a scenario but its window."""
    renamed = scenario.get("renamed")
    return dict(
        join_cols={"k": "bk"} if renamed else "k",
        inc_col=("RecDate", "PaidAt") if renamed else "RecDate",
        join_cond=None if scenario.get("cond") is None else CONDITIONS[scenario["cond"]][0],
        how=scenario["how"],
        look_back_time=scenario["lb"],
        max_waiting_time=scenario["mw"],
        late_match_time=scenario["late"],
        time_uom=scenario["unit"],
    )


def run(frames, scenario, start, end, **extra):
    unit = scenario["unit"]
    result = inc_join(
        *frames,
        **scenario_arguments(scenario),
        output_window_start=bound(start, unit),
        output_window_end=bound(end, unit),
        **extra,
    )
    return Counter(oracle_rows(result, unit))


# the example count comes from the hypothesis profile (tests/conftest.py): 25, 8 in `make test-core`, 4 in the Spark
# 3.5 core leg
PROPERTY_SETTINGS = settings(
    deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)


@PROPERTY_SETTINGS
@given(scenario=scenarios())
def test_any_tiling_of_runs_adds_up_to_one_run_and_to_the_spec(spark, scenario):
    frames = frames_for(spark, scenario)
    whole = run(frames, scenario, scenario["start"], scenario["end"])
    expected = Counter(
        expected_rows(
            scenario["a"],
            scenario["b"],
            how=scenario["how"],
            lb=scenario["lb"],
            mw=scenario["mw"],
            start=scenario["start"],
            end=scenario["end"],
            late_match_time=scenario["late"],
            join_cond=oracle_cond(scenario),
        )
    )
    assert whole == expected
    pieces = Counter()
    for lo, hi in tiles(scenario["start"], scenario["end"], scenario["cuts"]):
        pieces += run(frames, scenario, lo, hi)
    assert pieces == whole


@PROPERTY_SETTINGS
@given(scenario=scenarios())
def test_each_a_row_is_matched_or_timed_out_once_never_both(spark, scenario):
    """Each A row: its partners, or one a_timed_out row followed by its late matches (spec §10)."""
    how = "full" if scenario["how"] == "full" else "left"
    scenario = dict(scenario, how=how)
    rows = run(frames_for(spark, scenario), scenario, None, HORIZON + 10)
    codes_by_a = {}
    for (_k, _out, a_id, _b_id, code, _diff, _waiting), count in rows.items():
        assert count == 1, "an output row is duplicated"
        if a_id is not None:
            codes_by_a.setdefault(a_id, []).append(code)
    for a_id, codes in codes_by_a.items():
        assert codes.count(4) <= 1
        assert not (4 in codes and set(codes) & {1, 2, 3}), f"A row {a_id} both matched and timed out: {codes}"
        assert 7 not in codes or 4 in codes, f"A row {a_id} has a late match but did not time out: {codes}"
    placed = {r["id"] for r in scenario["a"] if r["t"] is not None}
    assert set(codes_by_a) == placed, "every A row with an arrival is placed once the horizon has passed"


@PROPERTY_SETTINGS
@given(scenario=scenarios(), later_loads=st.integers(1, 6))
def test_rerunning_a_window_after_later_loads_changes_nothing(spark, scenario, later_loads):
    """A run over [s, e] made when data had arrived up to e equals the same run made later."""
    cutoff = scenario["end"]
    then = dict(
        scenario,
        a=[r for r in scenario["a"] if r["t"] is None or r["t"] <= cutoff],
        b=[r for r in scenario["b"] if r["t"] is None or r["t"] <= cutoff],
    )
    now = dict(
        scenario,
        a=scenario["a"]
        + [dict(id=900 + i, k=i % 4, t=cutoff + 1 + i % later_loads, jitter=0) for i in range(later_loads)],
        b=scenario["b"] + [dict(id=950 + i, k=i % 4, t=cutoff + 1 + i, jitter=0) for i in range(later_loads)],
    )
    before = run(frames_for(spark, then), then, scenario["start"], scenario["end"])
    after = run(frames_for(spark, now), now, scenario["start"], scenario["end"])
    assert before == after
    waiting_then = run(frames_for(spark, then), then, scenario["start"], scenario["end"], include_waiting=True)
    assert +(waiting_then - Counter({r: c for r, c in waiting_then.items() if r[4] == 5})) == before


# ---------------------------------------------------------------------------------------------------------------
# spec §11, one row per A: partner = first | last, aggregate, and partner = all planned for many rows per key.
# One Spark job per example: every run of an example is projected to the oracle's shape and unioned.

B_COLS = ("v", "RecDate", "id", "b_val", "w")  # B's output columns in their order: the last ties of partner (§11)
B_FIELDS = ("id", "v", "w")  # what names a B row in the output rows: rows with the same id differ in v or w
ORDER_BY = [None, "w", ["w", "id"]]


def null_sum(rows):
    values = [r["v"] for r in rows if r["v"] is not None]
    return sum(values) if values else None


# output name -> (Spark SQL aggregate, its Python twin over the partner B rows); each is deterministic on ties
AGGREGATES = {
    "n": ("count(*)", len),
    "n_v": ("count(v)", lambda rows: len([r for r in rows if r["v"] is not None])),
    "total": ("sum(v)", null_sum),
    "distinct_v": ("count(DISTINCT v)", lambda rows: len({r["v"] for r in rows if r["v"] is not None})),
    "ids": ("sort_array(collect_list(id))", lambda rows: tuple(sorted(r["id"] for r in rows))),
    "top": ("max_by(b_val, id)", lambda rows: max(rows, key=lambda r: r["id"])["b_val"] if rows else None),
}
NULL_FILLS = [None, {"total": 0, "top": "none"}]


HOT_KEY = 4  # the other rows have keys 0 ... 3 or NULL


@st.composite
def hot_tables(draw, prefix: int, payload: bool, hot_start: int):
    """Rows like ``tables`` with payloads ``v`` and ``w`` (few values: they tie too), and a hot key (``HOT_KEY``:
    2 to 16 rows in A, 8 to 16 in B, in ``[hot_start, hot_start + 1]``), exact duplicates and, with ``payload``,
    rows tied on arrival and key with other payloads: some with the same id and raw arrival (then told apart by
    ``v`` or ``w`` only), some with their own id and jitter."""

    def small():
        return draw(st.one_of(st.none(), st.integers(0, 1)))

    rows = [dict(r, v=small(), w=small()) for r in draw(tables(prefix))]
    for i in range(draw(st.integers(8 if payload else 2, 16))):
        t = draw(st.one_of(st.integers(hot_start, hot_start + 1), st.integers(hot_start, hot_start + 1), st.none()))
        rows.append(dict(id=prefix + 20 + i, k=HOT_KEY, t=t, jitter=draw(st.integers(0, 59)), v=small(), w=small()))
    if rows:
        for r in draw(st.lists(st.sampled_from(rows), max_size=3)):
            rows.append(dict(r))  # delivered twice
        if payload:
            for i, r in enumerate(draw(st.lists(st.sampled_from(rows), max_size=3))):
                same_id = draw(st.booleans())
                rows.append(
                    dict(
                        r,
                        id=r["id"] if same_id else prefix + 40 + i,
                        jitter=r["jitter"] if same_id else draw(st.integers(0, 59)),
                        v=small(),
                        w=small(),
                    )
                )
    return rows


# (c) the order and partitioning of B never decide which partner or which aggregate comes out
B_ARRANGEMENTS = {  # each a list of B's rows -> the frame of them, for one run; a shuffle costs a Spark stage
    "as drawn": lambda rows, frame: frame(rows),
    "reversed": lambda rows, frame: frame(rows[::-1]),
    "hashed on v": lambda rows, frame: frame(rows).repartition(3, "v"),
    "round robin, reversed": lambda rows, frame: frame(rows[::-1]).repartition(4),
}


# every (mode, how) of spec §11, each its own test so that none is left to chance
ONE_ROW_COMBOS = [(mode, how) for mode in ("first", "last", "many") for how in ("left", "inner", "full", "left_anti")]
ONE_ROW_COMBOS += [("aggregate", "left"), ("aggregate", "inner")]


@st.composite
def one_row_scenarios(draw, mode: str, how: str):
    """A scenario of ``scenarios`` with hot keys and ties, the §11 mode, and how the runs arrange B. Half the
    windows start at 0 and end after every output arrival, so that the whole run holds every row."""
    scenario = draw(scenarios())
    start = draw(st.sampled_from([0, scenario["start"]]))
    end = draw(st.sampled_from([HORIZON + 6, max(start, scenario["end"])]))
    # two tiles (one when the window is one unit): each run costs a second or so
    cuts = sorted({c for c in scenario["cuts"] if start < c <= end})[:1]
    if not cuts and end > start:
        cuts = [(start + end + 1) // 2]
    # the same for A and B, so that the hot key's rows are partners, and near the window
    hot_start = draw(st.integers(max(0, min(start, HORIZON - 1) - 1), min(end, HORIZON - 1)))
    b = draw(hot_tables(200, payload=True, hot_start=hot_start))
    if draw(st.booleans()):  # coarse arrivals: many partners tie on b
        b = [dict(r, t=None if r["t"] is None else r["t"] // 3 * 3) for r in b]
    return dict(
        scenario,
        a=draw(hot_tables(100, payload=False, hot_start=hot_start)),
        b=b,
        how=how,
        start=start,
        end=end,
        cuts=cuts,
        mode=mode,
        order_by=draw(st.sampled_from(ORDER_BY)) if mode in ("first", "last") else None,
        null_fill=draw(st.sampled_from(NULL_FILLS)) if mode == "aggregate" else None,
        arrangements=[draw(st.sampled_from(sorted(B_ARRANGEMENTS))) for _ in range(len(cuts) + 1)],
        # one row per A takes either plan (spec §15): 'auto' by the read range's length, or the one forced
        plan=draw(st.sampled_from(("auto", True, False))) if mode != "many" else True,
    )


def mode_arguments(scenario):
    """The inc_join arguments of the scenario's mode."""
    mode = scenario["mode"]
    if mode == "many":
        return dict(many_rows_per_key=True)
    plan = dict(many_rows_per_key=scenario.get("plan", "auto"))
    if mode == "aggregate":
        aggregates = {name: sql for name, (sql, _) in AGGREGATES.items()}
        return dict(aggregate=aggregates, null_fill=scenario["null_fill"], **plan)
    return dict(partner=mode, partner_order_by=scenario["order_by"], **plan)


def mode_frames(spark, scenario, arrangement: str, until: int | None = None):
    """A and B (B with its payloads, arranged as named); ``until``: only the rows loaded by then."""

    def loaded(rows):
        return [r for r in rows if until is None or r["t"] is None or r["t"] <= until]

    unit, arrival_type = scenario["unit"], scenario["arrival_type"]

    def frame_b(rows):
        return side_frame(spark, rows, "b", unit, arrival_type, payload=True)

    return (
        side_frame(spark, loaded(scenario["a"]), "a", unit, arrival_type),
        B_ARRANGEMENTS[arrangement](loaded(scenario["b"]), frame_b),
    )


def mode_run(frames, scenario, start, end, **extra):
    """One run of the scenario's mode, in the oracle's shape (not collected)."""
    unit = scenario["unit"]
    result = inc_join(
        *frames,
        join_cols="k",
        how=scenario["how"],
        look_back_time=scenario["lb"],
        max_waiting_time=scenario["mw"],
        time_uom=unit,
        output_window_start=bound(start, unit),
        output_window_end=bound(end, unit),
        join_cond=None if scenario.get("cond") is None else CONDITIONS[scenario["cond"]][0],
        **mode_arguments(scenario),
        **extra,
    )
    if scenario["mode"] == "aggregate":
        return oracle_shape(result, AGGREGATES)
    return oracle_shape(result, b_fields=B_FIELDS[1:])  # id_B, v, w


def collect_runs(scenario, runs: dict) -> dict:
    """Collect the runs (tag -> DataFrame in the oracle's shape) in one Spark job: tag -> Counter of rows."""
    tagged = [df.withColumn("tag", F.lit(str(tag))) for tag, df in runs.items()]
    union = tagged[0]
    for df in tagged[1:]:
        union = union.unionByName(df)
    collected = union.collect()
    aggregates = len(AGGREGATES) if scenario["mode"] == "aggregate" else 0
    result = {tag: Counter() for tag in runs}
    by_name = {str(tag): tag for tag in runs}
    for row in collected:
        result[by_name[row.tag]] += Counter(shaped_rows([row], scenario["unit"], aggregates))
    return result


def mode_expected(scenario, start, end, until=None, include_waiting=False, late_match_time=0):
    """The oracle's rows of the scenario's mode, over the rows loaded by ``until`` (None: all), with late matches
    (spec §10) when ``late_match_time`` > 0."""
    mode = scenario["mode"]
    unit, arrival_type = scenario["unit"], scenario["arrival_type"]

    def loaded(rows):
        return [r for r in rows if until is None or r["t"] is None or r["t"] <= until]

    b_rows = [output_fields(r, "b", unit, arrival_type) for r in loaded(scenario["b"])]
    extra: dict = {}
    if mode == "aggregate":
        extra = dict(aggregate={name: fn for name, (_, fn) in AGGREGATES.items()}, null_fill=scenario["null_fill"])
    elif mode in ("first", "last"):
        order_by = scenario["order_by"]
        extra = dict(partner=mode, partner_order_by=[order_by] if isinstance(order_by, str) else order_by or [])
        extra["b_cols"] = B_COLS
    if mode != "aggregate":
        extra["b_fields"] = B_FIELDS
    return Counter(
        expected_rows(
            loaded(scenario["a"]),
            b_rows,
            how=scenario["how"],
            lb=scenario["lb"],
            mw=scenario["mw"],
            start=start,
            end=end,
            include_waiting=include_waiting,
            join_cond=oracle_cond(scenario),
            late_match_time=late_match_time,
            **extra,
        )
    )


ONE_ROW_CODES = {"first": {1, 2, 3, 4}, "last": {1, 2, 3, 4}, "aggregate": {4, 8}}


# An example costs two runs of a heavier plan (2-4 s on 2 cores): each (mode, how) gets 2 examples (the first,
# hypothesis's simplest, is already a hot key of tied rows), and the profile's example count says how many pairs
# run: all 14 with the `inc_join` profile (16), the pairwise ones with the smaller ones (8 in make test, 4 on Spark 3.5)
ONE_ROW_PER_PAIR = 2
# pairwise: each mode and each how once; first-left is the one that finds a sliding window closed one unit early
ONE_ROW_FEW = [("first", "left"), ("last", "full"), ("many", "inner"), ("first", "left_anti"), ("aggregate", "inner")]
ONE_ROW_RUN = ONE_ROW_COMBOS if settings().max_examples >= len(ONE_ROW_COMBOS) else ONE_ROW_FEW
ONE_ROW_SETTINGS = settings(PROPERTY_SETTINGS, max_examples=ONE_ROW_PER_PAIR)


@pytest.mark.parametrize(("mode", "how"), ONE_ROW_RUN, ids=[f"{m}-{h}" for m, h in ONE_ROW_RUN])
@ONE_ROW_SETTINGS
@given(data=st.data())
def test_one_row_per_a_modes_tile_match_the_spec_and_ignore_the_order_of_b(spark, mode, how, data):
    """spec §11 for partner first / last, aggregate, and partner all with many_rows_per_key, on random tables with
    hot keys, exact duplicates and ties, with or without a join_cond (spec §12), in one Spark job per example
    (the runs are unioned):

    (a) a tiling of the window into two runs adds up to the oracle's rows of one run, and each run equals
        the oracle; (d) each run sees only the rows loaded by its own end, so a run made before later loads gives
        what the oracle gives with every load; the first run has include_waiting (how != inner): it equals the
        oracle, and without its code 5 rows it is the run's final rows;
    (b) one row per A row: each A row at most once in its final codes, and exactly once (how = left, full) when the
        window covers every output arrival;
    (c) each run sees B arranged its own way (reversed, repartitioned): the rows never depend on it."""
    scenario = data.draw(one_row_scenarios(mode, how))
    start, end = scenario["start"], scenario["end"]
    waiting = scenario["how"] != "inner"
    pieces = tiles(start, end, scenario["cuts"])
    runs = {}
    for i, ((lo, hi), arrangement) in enumerate(zip(pieces, scenario["arrangements"], strict=True)):
        frames = mode_frames(spark, scenario, arrangement, until=hi)
        runs[i] = mode_run(frames, scenario, lo, hi, include_waiting=waiting and i == 0)
    got = collect_runs(scenario, runs)

    for i, (lo, hi) in enumerate(pieces):
        expected = mode_expected(scenario, lo, hi, until=hi, include_waiting=waiting and i == 0)
        assert got[i] == expected, f"run {i} over [{lo}, {hi}], B {scenario['arrangements'][i]}"
    if waiting:
        got[0] = +(got[0] - Counter({r: c for r, c in got[0].items() if r[4] == 5}))
    whole = sum(got.values(), Counter())
    assert whole == mode_expected(scenario, start, end)

    if scenario["mode"] in ONE_ROW_CODES:
        final = ONE_ROW_CODES[scenario["mode"]]
        per_a = Counter(row[2] for row, count in whole.items() for _ in range(count) if row[4] in final)
        copies = Counter(r["id"] for r in scenario["a"] if r["t"] is not None)  # exact duplicates: two A rows
        assert all(per_a[a_id] <= copies[a_id] for a_id in per_a), f"an A row has more than one row: {per_a}"
        if scenario["how"] in ("left", "full") and start == 0 and end >= HORIZON + max(scenario["lb"], scenario["mw"]):
            assert per_a == copies, "every A row with an arrival has its one row once its window has closed"
