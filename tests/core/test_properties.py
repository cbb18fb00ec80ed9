"""The consistency promises (spec §3), as hypothesis properties on random tables with duplicates, missing
partners, NULL keys, NULL arrivals and look-back > 0, checked against the brute-force oracle."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dbt_inc_join import inc_join

from .frames import bound, oracle_rows, side_frame
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
