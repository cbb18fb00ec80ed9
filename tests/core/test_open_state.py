"""The open state (spec §18) is a cache: runs that read it give the rows of runs that do not, and of the oracle.

Each example is a chain of runs that tile a period, as daily runs would. The first run reads as today and
leaves the state; each later run reads its new rows, B's last look_back_time and the state of the run before,
unless the state is lost there (the run then reads as today and leaves the state again). The state goes from one
run to the next as a table would: collected and made a DataFrame again."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dbt_inc_join.orchestration.join import prepare_join
from dbt_inc_join.orchestration.many import many_open_state_kind, prepare_many, render_many
from dbt_inc_join.orchestration.render import OpenState, open_state_kind, render_join
from dbt_inc_join.plan.window import OutputWindow, parse_bound

from .frames import bound, oracle_shape, shaped_rows
from .oracle import expected_many_rows, expected_rows
from .test_many import many_frames, many_inputs, many_rows, many_scenarios, oracle_inputs
from .test_properties import (
    B_FIELDS,
    PROPERTY_SETTINGS,
    frames_for,
    mode_expected,
    mode_frames,
    oracle_cond,
    scenario_arguments,
    scenarios,
    tiles,
)

pytestmark = pytest.mark.one_engine

# (partner, how) of the shapes that keep a state, and the kind each keeps
STATE_SHAPES = [("all", "left"), ("all", "left_anti"), ("first", "left"), ("first", "inner")]


def _arguments(scenario: dict) -> dict:
    # both plans (spec §15), without 'auto''s query per run
    arguments = dict(scenario_arguments(scenario), many_rows_per_key=scenario["grouped"])
    if scenario["partner"] != "all":
        arguments.update(partner=scenario["partner"], partner_order_by=scenario.get("order_by"))
    return arguments


def _run(prepared, scenario, lo, hi, kind, state):
    """The rows of a run over [lo, hi] and the state it leaves (a DataFrame made from the collected rows)."""
    unit = scenario["unit"]
    window = OutputWindow(parse_bound(bound(lo, unit), "start", prepared.params.time_uom, "UTC"),
                          parse_bound(bound(hi, unit), "end", prepared.params.time_uom, "UTC"))  # fmt: skip
    given_state = OpenState(kind, state)
    rows = render_join(prepared, window, open_state=given_state)
    left = render_join(prepared, window, open_state=given_state, output="state")
    spark = left.sparkSession
    return rows, spark.createDataFrame(left.collect(), left.schema)


def _chain(prepared, scenario, lost: set[int]) -> Counter:
    """The rows of the chain of runs, collected at once; ``lost``: the runs that find no state."""
    kind, reason = open_state_kind(prepared)
    assert kind is not None, reason
    b_fields = B_FIELDS[1:] if scenario["partner"] != "all" else ()
    union, state = None, None
    for index, (lo, hi) in enumerate(tiles(scenario["start"], scenario["end"], scenario["cuts"])):
        rows, state = _run(prepared, scenario, lo, hi, kind, None if index in lost or index == 0 else state)
        shaped = oracle_shape(rows, b_fields=b_fields)
        union = shaped if union is None else union.unionByName(shaped)
    return Counter(shaped_rows(union.collect(), scenario["unit"]))


def _rows(rng: random.Random, prefix: int, payload: bool) -> list[dict]:
    """Dense rows: few keys, arrivals around the chain's window, so that partners come before, inside and after
    B's read of a run (hypothesis's own draws are sparse here: mostly NULLs and empty tables)."""
    rows = []
    for i in range(rng.randint(4, 12)):
        row = dict(id=prefix + i, k=rng.choice([0, 1, 2, 0, 1, 2, None]), t=rng.choice([*range(13), None]),
                   jitter=rng.randint(0, 59))  # fmt: skip
        if payload:
            row.update(v=rng.choice([None, 0, 1]), w=rng.choice([None, 0, 1]))
        rows.append(row)
    return rows


@st.composite
def state_scenarios(draw, partner: str, how: str):
    """A chain of runs over [start, start + 6]: most one unit long (daily runs), some longer (a catch-up)."""
    scenario = draw(scenarios())
    rng = random.Random(draw(st.integers(0, 2**32)))
    start = rng.randint(2, 5)
    end = start + 6
    return dict(scenario, a=_rows(rng, 100, False), b=_rows(rng, 200, partner == "first"), partner=partner,
                how=how, late=0, lb=rng.randint(0, 2), mw=rng.randint(1, 4), start=start, end=end,
                cuts=[c for c in range(start + 1, end + 1) if rng.random() < 0.8],
                cond=scenario["cond"] if partner == "first" else None, mode=partner,
                order_by=rng.choice([None, "w"]) if partner == "first" else None,
                lost=set(rng.sample(range(1, 7), rng.choice([0, 0, 1, 2]))), grouped=rng.random() < 0.5)  # fmt: skip


@pytest.mark.parametrize(("partner", "how"), STATE_SHAPES, ids=[f"{p}-{h}" for p, h in STATE_SHAPES])
# an example is a chain of up to 7 runs: 2 per shape in `make test` (profile fast), 4 in `make test-matrix`
@settings(PROPERTY_SETTINGS, max_examples=max(2, settings().max_examples // 4))
@given(data=st.data())
def test_runs_with_the_state_give_the_rows_of_runs_without_it(spark, partner, how, data):
    """A chain of runs, the state lost in some, against the oracle's one run over the chain's period."""
    scenario = data.draw(state_scenarios(partner, how))
    start, end = scenario["start"], scenario["end"]
    if partner == "all":
        frames = frames_for(spark, scenario)
        oracle = expected_rows(scenario["a"], scenario["b"], how=how, lb=scenario["lb"], mw=scenario["mw"],
                               start=start, end=end, join_cond=oracle_cond(scenario))  # fmt: skip
        expected = Counter(oracle)
    else:  # B with its payloads, which order the partners (spec §11)
        scenario["renamed"] = False
        frames = mode_frames(spark, scenario, "as drawn")
        expected = mode_expected(scenario, start, end)
    prepared = prepare_join(*frames, **_arguments(scenario))
    assert _chain(prepared, scenario, scenario["lost"]) == expected


def test_the_state_names_what_it_cannot_keep(spark):
    """Shapes without a state say why (spec §18)."""
    a = spark.createDataFrame([(1, "2024-01-01")], "k int, RecDate string").selectExpr(
        "k", "to_date(RecDate) AS RecDate"
    )
    cases = [
        ("full", {}, "how = full"),
        ("left", {"partner": "last"}, "partner = last"),
        ("left", {"aggregate": {"n": "count(*)"}}, "aggregate"),
        ("left", {"late_match_time": 1}, "late_match_time"),
        ("left", {"join_cond": "a.k > b.k"}, "join_cond with partner = all"),
        ("inner", {}, "how = inner with partner = all has no timed-out rows"),
    ]
    for how, extra, reason in cases:
        prepared = prepare_join(a, a, join_cols="k", how=how, look_back_time=1, max_waiting_time=2, **extra)
        assert open_state_kind(prepared) == (None, reason)
    assert open_state_kind(prepare_join(a, a, join_cols="k", max_waiting_time=2)) == ("keys", None)
    assert open_state_kind(prepare_join(a, a, join_cols="k", partner="first")) == ("rows", None)


def test_auto_keeps_the_state_from_the_threshold_of_its_kind_of_new_rows_of_a_a_unit():
    """open_state='auto' (spec §18): kept when A's new rows a unit reach the kind's threshold, else none and why."""
    from dbt_inc_join.sql_text import render
    from dbt_inc_join.tables.shared_tables import OPEN_STATE

    least = OPEN_STATE["parquet"]["rows"]
    assert render("_open_state_pays", "rows", {"rows": 2 * least, "units": 2}, "day") == ["rows", None]
    below = render("_open_state_pays", "rows", {"rows": 2 * least - 2, "units": 2}, "day")
    assert below == [None, f"open_state='auto': {least - 1:,} new rows of A a day, below {least:,}"]
    assert render("_open_state_pays", "keys", {"rows": least, "units": 1}, "hour")[0] is None
    # a Delta table's threshold is its own, and the line names the format; another format takes parquet's
    for file_format in ("delta",):
        own = OPEN_STATE[file_format]["rows"]
        assert own > least
        assert render("_open_state_pays", "rows", {"rows": own, "units": 1}, "day", file_format) == ["rows", None]
        said = render("_open_state_pays", "rows", {"rows": least, "units": 1}, "day", file_format.upper())
        assert said == [None, f"open_state='auto': {least:,} new rows of A a day, below {own:,} on {file_format}"]
    never = render("_open_state_pays", "keys", {"rows": 10**9, "units": 1}, "day", "delta")
    assert never == [None, "open_state='auto' keeps none with partner='all' on delta"]
    for file_format in ("orc", "iceberg"):
        assert render("_open_state_pays", "rows", {"rows": least, "units": 1}, "day", file_format) == ["rows", None]


def test_auto_counts_the_rows_of_a_from_the_start_to_its_latest_arrival():
    """The watermark query's count (or a checking run's fingerprints, per unit) over the units from the start to
    A's latest arrival; a first run's start is A's earliest; no count (a declared watermark): none."""
    from dbt_inc_join.sql_text import render

    start, latest = date(2025, 3, 4), date(2025, 3, 6)
    row = {"a_max": "2025-03-06 00:00:00", "a_rows": 300, "a_min": "2025-03-01 00:00:00"}
    assert render("_new_a_rows", None, row, "a", start, latest, "day") == {"rows": 300, "units": 3}
    assert render("_new_a_rows", None, row, "a", None, latest, "day") == {"rows": 300, "units": 6}
    assert render("_new_a_rows", None, {"a_max": None}, "a", start, None, "day") is None
    assert render("_new_a_rows", None, dict(row, a_rows=0), "a", start, None, "day") == {"rows": 0, "units": 1}
    units = {"2025-03-03 00:00:00": "50:9", "2025-03-04 00:00:00": "70:1", "2025-03-06 00:00:00": "30:2"}
    ranges = {"a": ["2025-03-01 00:00:00", None], "b": ["2025-03-01 00:00:00", None]}
    read = {"ranges": ranges, "units": {"a": units, "b": {"2025-03-05 00:00:00": "999:3"}}}
    assert render("_new_a_rows", read, {}, "a", start, latest, "day") == {"rows": 100, "units": 3}


@st.composite
def many_state_scenarios(draw):
    """inc_join_many with two or three inputs, each taking its first partner, over a chain of runs like
    state_scenarios's."""
    scenario = draw(many_scenarios())
    rng = random.Random(draw(st.integers(0, 2**32)))
    start = rng.randint(2, 5)
    end = start + 6
    inputs = [dict(spec, mode="first", rows=_rows(rng, 200 + 100 * i, False), lb=rng.randint(0, 2),
                   mw=rng.randint(0, 4)) for i, spec in enumerate(scenario["inputs"])]  # fmt: skip
    return dict(scenario, a=_rows(rng, 100, False), inputs=inputs, start=start, end=end,
                cuts=[c for c in range(start + 1, end + 1) if rng.random() < 0.8],
                lost=set(rng.sample(range(1, 7), rng.choice([0, 0, 1, 2]))))  # fmt: skip


# an example is a chain of up to 7 runs of two or three inputs: 2 in `make test`, 4 in `make test-matrix`
@settings(PROPERTY_SETTINGS, max_examples=max(2, settings().max_examples // 4))
@given(scenario=many_state_scenarios())
def test_inc_join_many_runs_with_the_state_give_the_rows_of_runs_without_it(spark, scenario):
    """inc_join_many (spec §12, §18): a chain of runs, each made when the rows up to its end are loaded and
    reading the state the run before left (lost in some), against the oracle's one run over the chain's
    period."""
    start, end, unit = scenario["start"], scenario["end"], scenario["unit"]
    got, state = Counter(), None
    for index, (lo, hi) in enumerate(tiles(start, end, scenario["cuts"])):
        frames = many_frames(spark, scenario, until=hi)
        many = prepare_many(frames[0], many_inputs(frames, scenario), unit, None, False)
        kind, reason = many_open_state_kind(many)
        assert kind == "many", reason
        given_state = OpenState(kind, None if index in scenario["lost"] or index == 0 else state)
        window = OutputWindow(parse_bound(bound(lo, unit), "start", many.time_uom, "UTC"),
                              parse_bound(bound(hi, unit), "end", many.time_uom, "UTC"))  # fmt: skip
        rows = render_many(many, window.start, window.end, open_state=given_state)
        left = render_many(many, window.start, window.end, open_state=given_state, output="state")
        got += many_rows(rows.selectExpr("*", "date_format(RecDate, 'yyyy-MM-dd HH:mm:ss') AS _out").collect(),
                         scenario)  # fmt: skip
        state = spark.createDataFrame(left.collect(), left.schema)
    assert got == Counter(expected_many_rows(scenario["a"], oracle_inputs(scenario), start=start, end=end))


def test_inc_join_many_keeps_a_state_only_when_every_input_takes_its_first_partner(spark):
    """An input with partner = last or aggregate settles when its window closes: every A row of its window stays
    open, so inc_join_many keeps none and says why (spec §18)."""
    a = spark.createDataFrame([(1, "2024-01-01")], "k int, RecDate string").selectExpr(
        "k", "to_date(RecDate) AS RecDate"
    )
    first = dict(df=a, name="p", join_cols="k", look_back_time=1, max_waiting_time=2)
    cases = [
        ([first, dict(first, name="q", partner="last")], False, "input 'q' has partner = last"),
        ([first, dict(first, name="n", aggregate={"n": "count(*)"})], False, "input 'n' has aggregate"),
        ([first, dict(first, name="q")], True, "include_waiting"),
    ]
    for inputs, waiting, reason in cases:
        assert many_open_state_kind(prepare_many(a, inputs, "day", None, waiting)) == (None, reason)
    assert many_open_state_kind(prepare_many(a, [first, dict(first, name="q")], "day", None, False)) == ("many", None)


def test_a_microbatch_model_keeps_the_state_where_a_run_can_read_it():
    """spec §18, Microbatch: dbt's default lookback starts every run a batch before its new ones, so
    open_state='auto' keeps none there; lookback=0 and open_state=true keep it; append never."""
    from types import SimpleNamespace

    from dbt_inc_join.sql_text.macros import port

    def keeps(strategy: str, enabled, lookback: int | None = None):
        settings = {"materialized": "incremental", "incremental_strategy": strategy, "lookback": lookback}
        config = SimpleNamespace(get=lambda key, default=None: default if settings.get(key) is None else settings[key])
        keeper = port(lambda text: None, {"config": config})
        return keeper("_open_state_model_keeps", ["rows", None], enabled, None, None, "day")

    read_none = (
        "microbatch with lookback {}: a run without --event-time-start re-does the batches before its new ones and "
        "reads no state (lookback=0 reads it, and so does open_state=true in runs given their bounds)"
    )
    assert keeps("microbatch", "auto") == [None, read_none.format(1)]
    assert keeps("microbatch", "auto", 2) == [None, read_none.format(2)]
    assert keeps("microbatch", "auto", 0) == ["rows", None]
    assert keeps("microbatch", True) == keeps("merge", "auto") == ["rows", None]
    assert keeps("append", True) == [None, "incremental_strategy=append"]


def test_a_python_microbatch_model_keeps_the_state_unless_its_batches_run_at_once():
    """spec §18, Microbatch: a Python model's batches each tag their state (the writer's post-hook), which holds
    for batches run one after the other (dbt-spark's); a model whose batches run concurrently keeps none. A SQL
    model's state is read by its first batch and written after its last, which dbt runs alone."""
    from types import SimpleNamespace

    from dbt_inc_join.orchestration.python_models.model import _unkept
    from dbt_inc_join.sql_text.macros import port

    def keeps(strategy: str, language: str, concurrent: bool | None):
        settings = {"materialized": "incremental", "incremental_strategy": strategy, "lookback": 0,
                    "concurrent_batches": concurrent}  # fmt: skip
        config = SimpleNamespace(get=lambda key, default=None: default if settings.get(key) is None else settings[key])
        keeper = port(lambda text: None, {"config": config, "model": SimpleNamespace(language=language)})
        return keeper("_open_state_model_keeps", ["rows", None], True, None, None, "day")

    assert keeps("microbatch", "python", None) == keeps("microbatch", "python", False) == ["rows", None]
    assert keeps("microbatch", "python", True) == [None, "a Python model whose microbatch batches run concurrently"]
    assert keeps("microbatch", "sql", True) == keeps("merge", "python", True) == ["rows", None]
    tables = {"a": "db.a", "b": None}
    assert _unkept(tables) == "an input is not a table as dbt.ref or dbt.source loaded it"
    assert _unkept({**tables, "b": "db.b"}) is None
