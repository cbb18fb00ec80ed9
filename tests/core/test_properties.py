"""The consistency promises (spec §3 and §11), as hypothesis properties on random tables with duplicates, hot
keys, missing partners, NULL keys, NULL arrivals and look-back > 0, checked against the brute-force oracle."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyspark.sql import functions as F

from dbt_inc_join import inc_join

from .frames import bound, oracle_rows, oracle_shape, output_fields, shaped_rows, side_frame
from .oracle import expected_rows

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
    return dict(
        unit=unit,
        arrival_type=arrival_type,
        a=draw(tables(100)),
        b=draw(tables(200)),
        how=draw(st.sampled_from(["inner", "left", "full", "left_anti"])),
        lb=draw(st.integers(0, 3)),
        mw=draw(st.integers(0, 4)),
        start=start,
        end=end,
        cuts=sorted(cuts),
    )


def tiles(start, end, cuts):
    edges = [start] + cuts + [end + 1]
    return [(lo, hi - 1) for lo, hi in zip(edges, edges[1:], strict=False)]


def frames_for(spark, scenario):
    return (
        side_frame(spark, scenario["a"], "a", scenario["unit"], scenario["arrival_type"]),
        side_frame(spark, scenario["b"], "b", scenario["unit"], scenario["arrival_type"]),
    )


def run(frames, scenario, start, end, **extra):
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
        **extra,
    )
    return Counter(oracle_rows(result, unit))


# the example count comes from the hypothesis profile (tests/conftest.py): 25, or 8 in `make test-core`
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
    scenario = dict(scenario, how="full" if scenario["how"] == "full" else "left")
    rows = run(frames_for(spark, scenario), scenario, None, HORIZON + 10)
    codes_by_a = {}
    for (_k, _out, a_id, _b_id, code, _diff, _waiting), count in rows.items():
        assert count == 1, "an output row is duplicated"
        if a_id is not None:
            codes_by_a.setdefault(a_id, []).append(code)
    for a_id, codes in codes_by_a.items():
        assert codes.count(4) <= 1
        assert not (4 in codes and set(codes) & {1, 2, 3}), f"A row {a_id} both matched and timed out: {codes}"
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

B_COLS = ("id", "RecDate", "b_val", "v")  # B's output columns in their order: the last ties of partner (§11)
ORDER_BY = [None, "v", ["b_val", "v"]]


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


@st.composite
def hot_tables(draw, prefix: int, payload: bool):
    """Rows like ``tables``, and a hot key (key 0, up to 12 rows in a few units), exact duplicates and, with
    ``payload``, rows tied on arrival and key with other payloads (some with the same id)."""
    rows = [dict(r, v=draw(st.one_of(st.none(), st.integers(0, 3)))) for r in draw(tables(prefix))]
    hot_start = draw(st.integers(0, HORIZON - 3))
    for i in range(draw(st.integers(0, 12))):
        t = draw(st.one_of(st.integers(hot_start, hot_start + 3), st.none()))
        v = draw(st.one_of(st.none(), st.integers(0, 3)))
        rows.append(dict(id=prefix + 20 + i, k=0, t=t, jitter=draw(st.integers(0, 59)), v=v))
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
                        jitter=draw(st.integers(0, 59)),
                        v=draw(st.one_of(st.none(), st.integers(0, 3))),
                    )
                )
    return rows


@st.composite
def one_row_scenarios(draw, modes=("first", "last", "aggregate", "many")):
    scenario = draw(scenarios())
    mode = draw(st.sampled_from(modes))
    how = draw(st.sampled_from(["left", "inner"])) if mode == "aggregate" else scenario["how"]
    return dict(
        scenario,
        a=draw(hot_tables(100, payload=False)),
        b=draw(hot_tables(200, payload=True)),
        how=how,
        mode=mode,
        order_by=draw(st.sampled_from(ORDER_BY)) if mode in ("first", "last") else None,
        null_fill=draw(st.sampled_from(NULL_FILLS)) if mode == "aggregate" else None,
    )


def mode_arguments(scenario):
    """The inc_join arguments of the scenario's mode."""
    mode = scenario["mode"]
    if mode == "many":
        return dict(many_rows_per_key=True)
    if mode == "aggregate":
        return dict(aggregate={name: sql for name, (sql, _) in AGGREGATES.items()}, null_fill=scenario["null_fill"])
    return dict(partner=mode, partner_order_by=scenario["order_by"])


def mode_frames(spark, scenario, order_b=None):
    """A and B (B with its payload ``v``); ``order_b`` rearranges B (sorted, repartitioned, ...)."""
    df_b = side_frame(spark, scenario["b"], "b", scenario["unit"], scenario["arrival_type"], payload=True)
    return (
        side_frame(spark, scenario["a"], "a", scenario["unit"], scenario["arrival_type"]),
        order_b(df_b) if order_b else df_b,
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
        **mode_arguments(scenario),
        **extra,
    )
    return oracle_shape(result, AGGREGATES if scenario["mode"] == "aggregate" else ())


def collect_runs(scenario, runs: dict) -> dict:
    """Collect the runs (tag -> DataFrame in the oracle's shape) in one Spark job: tag -> Counter of rows."""
    tagged = [df.withColumn("tag", F.lit(tag)) for tag, df in runs.items()]
    union = tagged[0]
    for df in tagged[1:]:
        union = union.unionByName(df)
    collected = union.collect()
    aggregates = len(AGGREGATES) if scenario["mode"] == "aggregate" else 0
    result = {tag: Counter() for tag in runs}
    for row in collected:
        result[row.tag] += Counter(shaped_rows([row], scenario["unit"], aggregates))
    return result


def mode_expected(scenario, start, end, a=None, b=None, include_waiting=False):
    mode = scenario["mode"]
    unit, arrival_type = scenario["unit"], scenario["arrival_type"]
    b_rows = [output_fields(r, "b", unit, arrival_type) for r in (scenario["b"] if b is None else b)]
    extra: dict = {}
    if mode == "aggregate":
        extra = dict(aggregate={name: fn for name, (_, fn) in AGGREGATES.items()}, null_fill=scenario["null_fill"])
    elif mode in ("first", "last"):
        order_by = scenario["order_by"]
        extra = dict(partner=mode, partner_order_by=[order_by] if isinstance(order_by, str) else order_by or [])
        extra["b_cols"] = B_COLS
    return Counter(
        expected_rows(
            scenario["a"] if a is None else a,
            b_rows,
            how=scenario["how"],
            lb=scenario["lb"],
            mw=scenario["mw"],
            start=start,
            end=end,
            include_waiting=include_waiting,
            **extra,
        )
    )


ONE_ROW_CODES = {"first": {1, 2, 3, 4}, "last": {1, 2, 3, 4}, "aggregate": {4, 8}}


@PROPERTY_SETTINGS
@given(scenario=one_row_scenarios())
def test_one_row_per_a_modes_tile_and_match_the_spec(spark, scenario):
    """(a) any tiling adds up to one run and to the oracle; (b) each A row once over the whole history."""
    frames = mode_frames(spark, scenario)
    start, end, horizon = scenario["start"], scenario["end"], HORIZON + 10
    runs = {"whole": mode_run(frames, scenario, start, end), "all": mode_run(frames, scenario, None, horizon)}
    for i, (lo, hi) in enumerate(tiles(start, end, scenario["cuts"])):
        runs[f"tile{i}"] = mode_run(frames, scenario, lo, hi)
    got = collect_runs(scenario, runs)
    assert got["whole"] == mode_expected(scenario, start, end)
    assert sum((got[tag] for tag in got if tag.startswith("tile")), Counter()) == got["whole"]
    assert got["all"] == mode_expected(scenario, None, horizon)
    if scenario["mode"] in ONE_ROW_CODES:
        once = ONE_ROW_CODES[scenario["mode"]] & ({1, 2, 3, 8} if scenario["how"] == "inner" else {1, 2, 3, 4, 8})
        per_a = Counter(row[2] for row, count in got["all"].items() for _ in range(count) if row[4] in once)
        assert all(count == 1 for count in per_a.values()), f"an A row has more than one row: {per_a}"
        if scenario["how"] in ("left", "full"):
            placed = {r["id"] for r in scenario["a"] if r["t"] is not None}
            assert set(per_a) == placed, "every A row with an arrival has its one row once its window has closed"


# (c) the order and partitioning of B never decide which partner or which aggregate comes out
B_ARRANGEMENTS = {
    "by id": lambda df: df.orderBy("id", "v"),
    "by id desc": lambda df: df.orderBy(F.desc("id"), F.desc_nulls_first("v")).coalesce(1),
    "hashed on v": lambda df: df.repartition(3, "v"),
    "round robin": lambda df: df.repartition(4),
}


@st.composite
def tied_scenarios(draw):
    """Few keys and few arrivals on B, so that partners tie on b; exact duplicates and other payloads."""
    scenario = draw(one_row_scenarios(modes=("first", "last", "aggregate")))
    b = [dict(r, t=None if r["t"] is None else r["t"] // 3 * 3) for r in scenario["b"]]
    return dict(scenario, b=b + [dict(r) for r in b if r["k"] == 0][:4])


@PROPERTY_SETTINGS
@given(scenario=tied_scenarios())
def test_ties_and_duplicates_do_not_depend_on_how_b_is_ordered(spark, scenario):
    horizon = HORIZON + 10
    runs = {
        name: mode_run(mode_frames(spark, scenario, arrange), scenario, None, horizon)
        for name, arrange in B_ARRANGEMENTS.items()
    }
    got = collect_runs(scenario, runs)
    expected = mode_expected(scenario, None, horizon)
    for name in B_ARRANGEMENTS:
        assert got[name] == expected, f"B arranged {name}"


@PROPERTY_SETTINGS
@given(scenario=one_row_scenarios(), later_loads=st.integers(1, 6))
def test_one_row_per_a_rerunning_a_window_after_later_loads_changes_nothing(spark, scenario, later_loads):
    """(d) a run over [s, e] made when data had arrived up to e equals the same run made later; with
    include_waiting it adds only code 5 rows, as the oracle says."""
    start, end = scenario["start"], scenario["end"]
    then = dict(
        scenario,
        a=[r for r in scenario["a"] if r["t"] is None or r["t"] <= end],
        b=[r for r in scenario["b"] if r["t"] is None or r["t"] <= end],
    )
    later_a = [dict(id=900 + i, k=i % 4, t=end + 1 + i % later_loads, jitter=0) for i in range(later_loads)]
    later_b = [dict(id=950 + i, k=i % 4, t=end + 1 + i, jitter=0, v=i % 3) for i in range(later_loads)]
    now = dict(scenario, a=scenario["a"] + later_a, b=scenario["b"] + later_b)
    then_frames = mode_frames(spark, then)
    runs = {
        "before": mode_run(then_frames, then, start, end),
        "after": mode_run(mode_frames(spark, now), now, start, end),
    }
    waiting = scenario["how"] != "inner"
    if waiting:
        runs["waiting"] = mode_run(then_frames, then, start, end, include_waiting=True)
    got = collect_runs(scenario, runs)
    assert got["before"] == got["after"]
    if waiting:
        assert got["waiting"] == mode_expected(then, start, end, include_waiting=True)
        assert +(got["waiting"] - Counter({r: c for r, c in got["waiting"].items() if r[4] == 5})) == got["before"]
