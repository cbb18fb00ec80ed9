"""spec §14, restated inputs: the rule a redo relies on, in the core and the brute-force oracle.

Every output row that depends on a row with arrival ``u`` (of A, of B, or of an input of inc_join_many) is
placed at or after ``u``. So after a tiling of committed runs over version 1 of the inputs, and a restatement
(rows added with an old arrival, deleted, a payload or a key changed; the same rows in another order is none), a
redo that replaces every output row placed at or after the earliest restated unit ``u`` by one run over
``[u, end]`` on version 2 writes the table of one run over version 2. Checked here:

- on random inputs and restatements, the core's tiles and redo equal the oracle's one run over version 2, for
  partner all / first / last, aggregate, late matches, days and hours, and inc_join_many;
- on the oracle alone (no Spark, many examples): the life cycle equals one run, each output row changes only
  with input rows of arrival at or before its placement, and a redo one unit too late can be wrong;
- on fixed rows, each kind of restatement in A, in B and in an input of inc_join_many: the redo gives one run
  over version 2, and the next run alone (no redo) does not."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import Phase, event, find, given, settings
from hypothesis import strategies as st
from pyspark.sql import functions as F

from .oracle import (
    earliest_restated_unit,
    expected_many_rows,
    table_after_restatement_and_redo,
    table_after_warn_then_redo,
)
from .test_many import many_frames, many_result, many_rows, many_scenarios, oracle_inputs
from .test_properties import (
    HORIZON,
    HOT_KEY,
    PROPERTY_SETTINGS,
    collect_runs,
    mode_expected,
    mode_frames,
    mode_run,
    one_row_scenarios,
    tiles,
)

pytestmark = pytest.mark.one_engine  # engine-independent: `make test` runs it on Spark 4 only

KINDS = ("add", "delete", "payload", "key", "arrival", "reorder")
KEYS = (None, 0, 1, 2, 3, HOT_KEY)
SMALL = (None, 0, 1)  # the payloads v and w take few values (spec §11's ties)
# the columns a payload change may touch: id (and with it <side>_val), the arrival inside its unit (jitter), v, w
A_PAYLOAD = ("id", "jitter")
B_PAYLOAD = ("id", "jitter", "v", "w")


def _read(rows, read_until):
    """Indexes of the rows a committed run read: those with an arrival up to ``read_until``."""
    return [i for i, r in enumerate(rows) if r["t"] is not None and r["t"] <= read_until]


@st.composite
def restatement(draw, version, read_until: int, redo_end: int, payloads):
    """Version 2 of the inputs: one or two restatements, each of a drawn kind on a drawn input (a row added with an
    old arrival, deleted, its key, a payload or its arrival changed, or the input's rows reordered), then up to two rows
    with new arrivals in ``(read_until, redo_end]`` (not restatements). Rows of each input may carry the payload
    columns ``payloads[i]``. Returns (version 2, the kinds applied)."""
    after = [list(rows) for rows in version]
    applied = []
    fresh = iter(range(700, 800))
    for _ in range(draw(st.integers(1, 2))):
        i = draw(st.integers(0, len(after) - 1))
        rows, read = after[i], _read(after[i], read_until)
        kind = draw(st.sampled_from(KINDS))
        if kind in ("delete", "payload", "key", "arrival") and not read:
            kind = "add"
        if kind == "add":
            rows.append(_new_row(draw, next(fresh), draw(st.integers(0, read_until)), payloads[i]))
        elif kind == "delete":
            rows.pop(draw(st.sampled_from(read)))
        elif kind == "key":
            j = draw(st.sampled_from(read))
            rows[j] = dict(rows[j], k=draw(st.sampled_from([k for k in KEYS if k != rows[j]["k"]])))
        elif kind == "arrival":  # moved to another unit, maybe one not read yet
            j = draw(st.sampled_from(read))
            rows[j] = dict(rows[j], t=draw(st.sampled_from([t for t in range(redo_end + 1) if t != rows[j]["t"]])))
        elif kind == "payload":
            j = draw(st.sampled_from(read))
            field = draw(st.sampled_from(payloads[i]))
            rows[j] = dict(rows[j], **{field: _other_value(draw, field, rows[j], next(fresh))})
        else:  # the same rows in another order
            after[i] = draw(st.permutations(rows))
        applied.append(f"{kind} in input {i}")
    for _ in range(draw(st.integers(0, 2))):
        i = draw(st.integers(0, len(after) - 1))
        after[i].append(_new_row(draw, next(fresh), draw(st.integers(read_until + 1, redo_end)), payloads[i]))
    return after, applied


def _new_row(draw, row_id: int, t: int, payload) -> dict:
    row = dict(id=row_id, k=draw(st.sampled_from(KEYS)), t=t, jitter=draw(st.integers(0, 59)))
    return row | ({"v": draw(st.sampled_from(SMALL)), "w": draw(st.sampled_from(SMALL))} if "v" in payload else {})


def _other_value(draw, field: str, row: dict, fresh_id: int):
    if field == "id":
        return fresh_id
    if field == "jitter":
        return (row.get("jitter", 0) + draw(st.integers(1, 23))) % 24  # another hour, minute or second of its unit
    return draw(st.sampled_from([v for v in SMALL if v != row.get(field)]))


# ---------------------------------------------------------------------------------------------------------------
# inc_join: a scenario of test_properties.one_row_scenarios (hot keys, ties, duplicates, join_cond), in days or
# hours, with late matches for partner all, committed as two tiles; then a restatement and a redo.

HOWS = {"all": ("inner", "left", "full", "left_anti"), "first": ("inner", "left", "full"), "last": ("inner", "left")}
HOWS["aggregate"] = ("inner", "left")
MODES = tuple(HOWS)


@st.composite
def restated_scenarios(draw, mode: str):
    how = draw(st.sampled_from(HOWS[mode]))
    scenario = draw(one_row_scenarios(mode, how))
    unit = draw(st.sampled_from(["day", "hour"]))
    late = draw(st.sampled_from([0, 1, 3])) if mode == "all" and how != "left_anti" else 0
    scenario = dict(scenario, unit=unit, arrival_type="timestamp" if unit == "hour" else scenario["arrival_type"])
    scenario["late"] = late
    redo_end = scenario["end"] + draw(st.integers(1, 3))
    version = [scenario["a"], scenario["b"]]
    after, applied = draw(restatement(version, scenario["end"], redo_end, (A_PAYLOAD, B_PAYLOAD)))
    return dict(scenario, redo_end=redo_end, after=after, applied=applied)


def join_oracle(scenario):
    """The oracle's one run of the scenario's mode over a version (A, B)."""

    def one_run(version, start, end):
        at = dict(scenario, a=version[0], b=version[1])
        return list(mode_expected(at, start, end, late_match_time=scenario["late"]).elements())

    return one_run


def join_life_cycle(spark, scenario, without_redo: bool = False) -> dict:
    """The core's tiles over version 1 and its redo on version 2, in one Spark job: the table after the redo
    (``table``), the table after a redo one unit too late (``too_late``), the unit the redo starts at (``u``), the
    earliest restated unit (``restated``, None: none) and, with ``without_redo``, the table after the next run
    alone, over ``[end + 1, redo_end]`` on version 2 (``without_redo``)."""
    before, after = [scenario["a"], scenario["b"]], scenario["after"]
    start, end, redo_end = scenario["start"], scenario["end"], scenario["redo_end"]
    restated = earliest_restated_unit(before, after, end)
    u = end + 1 if restated is None else max(restated, start)
    extra = {"late_match_time": scenario["late"]} if scenario["late"] else {}
    first = dict(scenario, a=before[0], b=before[1])
    runs = {}
    pieces = tiles(start, end, scenario["cuts"])
    for i, ((lo, hi), arrangement) in enumerate(zip(pieces, scenario["arrangements"], strict=True)):
        runs[i] = mode_run(mode_frames(spark, first, arrangement, until=hi), first, lo, hi, **extra)
    second = dict(scenario, a=after[0], b=after[1])
    runs["redo"] = mode_run(mode_frames(spark, second, "reversed", until=redo_end), second, u, redo_end, **extra)
    if without_redo:
        frames = mode_frames(spark, second, "as drawn", until=redo_end)
        runs["next"] = mode_run(frames, second, end + 1, redo_end, **extra)
    got = collect_runs(scenario, runs)
    committed = sum((got[i] for i in range(len(pieces))), Counter())
    redone = got["redo"]
    return dict(
        table=_placed(committed, lambda t: t < u) + redone,
        too_late=_placed(committed, lambda t: t <= u) + _placed(redone, lambda t: t > u),
        u=u,
        restated=restated,
        without_redo=committed + got["next"] if without_redo else None,
    )


def _placed(rows: Counter, where) -> Counter:
    return Counter({row: n for row, n in rows.items() if where(row[1])})


# each mode its own test; an example is one Spark job of three runs (2-4 s on 2 cores): 1 example per mode with
# the `fast` profile (8), 3 with the `inc_join` profile (25)
RESTATED_SETTINGS = settings(PROPERTY_SETTINGS, max_examples=max(1, settings().max_examples // 8))


@pytest.mark.parametrize("mode", MODES)
@RESTATED_SETTINGS
@given(data=st.data())
def test_a_redo_from_the_earliest_restated_unit_gives_one_run_over_the_current_inputs(spark, mode, data):
    """The core's tiles over version 1, then its redo from u on version 2, equal the oracle's one run over
    version 2; the oracle's life cycle gives the same; a redo one unit late gives what the oracle says it gives
    (and is wrong in some examples: see the test on the oracle below)."""
    scenario = data.draw(restated_scenarios(mode))
    for applied in scenario["applied"]:
        event(applied)
    got = join_life_cycle(spark, scenario)
    table, too_late, u, restated = got["table"], got["too_late"], got["u"], got["restated"]
    one_run = join_oracle(scenario)
    before, after = [scenario["a"], scenario["b"]], scenario["after"]
    start, redo_end = scenario["start"], scenario["redo_end"]
    expected = Counter(one_run(after, start, redo_end))
    assert table == expected, f"redo from {u} (restated {restated}) {scenario['applied']}"
    tile_list = tiles(start, scenario["end"], scenario["cuts"])
    assert Counter(table_after_restatement_and_redo(before, after, one_run, tile_list, redo_end)) == expected
    if restated is not None:
        late = table_after_restatement_and_redo(before, after, one_run, tile_list, redo_end, redo_from=u + 1)
        assert too_late == Counter(late)
        event(f"a redo one unit late is {'wrong' if too_late != expected else 'right by chance'}")


# ---------------------------------------------------------------------------------------------------------------
# inc_join_many: a scenario of test_many.many_scenarios (2-3 inputs, first / last / aggregate, join_cond).


@st.composite
def restated_many_scenarios(draw):
    scenario = draw(many_scenarios())
    redo_end = scenario["end"] + draw(st.integers(1, 3))
    version = [scenario["a"], *(spec["rows"] for spec in scenario["inputs"])]
    after, applied = draw(restatement(version, scenario["end"], redo_end, [A_PAYLOAD] * len(version)))
    return dict(scenario, redo_end=redo_end, after=after, applied=applied)


def many_version(scenario, version):
    """The scenario of inc_join_many over this version of its inputs (A, then each input's rows)."""
    inputs = [dict(spec, rows=rows) for spec, rows in zip(scenario["inputs"], version[1:], strict=True)]
    return dict(scenario, a=version[0], inputs=inputs)


def many_oracle(scenario):
    def one_run(version, start, end):
        at = many_version(scenario, version)
        return expected_many_rows(at["a"], oracle_inputs(at), start=start, end=end)

    return one_run


def many_life_cycle(spark, scenario, without_redo: bool = False) -> dict:
    """``join_life_cycle`` for inc_join_many: its runs unioned, in one Spark job."""
    before, after = [scenario["a"], *(spec["rows"] for spec in scenario["inputs"])], scenario["after"]
    start, end, redo_end = scenario["start"], scenario["end"], scenario["redo_end"]
    restated = earliest_restated_unit(before, after, end)
    u = end + 1 if restated is None else max(restated, start)
    first, second = many_version(scenario, before), many_version(scenario, after)
    pieces = tiles(start, end, scenario["cuts"])
    runs = {i: many_result(many_frames(spark, first, until=hi), first, lo, hi) for i, (lo, hi) in enumerate(pieces)}
    frames = many_frames(spark, second, until=redo_end)
    runs["redo"] = many_result(frames, second, u, redo_end)
    if without_redo:
        runs["next"] = many_result(frames, second, end + 1, redo_end)
    union = None
    for tag, df in runs.items():
        tagged = df.withColumn("_tag", F.lit(str(tag)))
        union = tagged if union is None else union.unionByName(tagged)
    collected = union.collect()
    got = {tag: many_rows([r for r in collected if r["_tag"] == str(tag)], scenario) for tag in runs}
    committed = sum((got[i] for i in range(len(pieces))), Counter())
    return dict(
        table=_placed(committed, lambda t: t < u) + got["redo"],
        u=u,
        restated=restated,
        without_redo=committed + got["next"] if without_redo else None,
    )


@settings(PROPERTY_SETTINGS, max_examples=max(1, settings().max_examples // 4))
@given(scenario=restated_many_scenarios())
def test_a_redo_of_inc_join_many_gives_one_run_over_the_current_inputs(spark, scenario):
    for applied in scenario["applied"]:
        event(applied)
    got = many_life_cycle(spark, scenario)
    one_run = many_oracle(scenario)
    before, after = [scenario["a"], *(spec["rows"] for spec in scenario["inputs"])], scenario["after"]
    expected = Counter(one_run(after, scenario["start"], scenario["redo_end"]))
    assert got["table"] == expected, f"redo from {got['u']} (restated {got['restated']}) {scenario['applied']}"
    tile_list = tiles(scenario["start"], scenario["end"], scenario["cuts"])
    redone = table_after_restatement_and_redo(before, after, one_run, tile_list, scenario["redo_end"])
    assert Counter(redone) == expected


# ---------------------------------------------------------------------------------------------------------------
# The rule on the oracle alone (no Spark, so many examples): the life cycle equals one run; a change of the
# inputs changes only output rows placed at or after the earliest unit it touches, for the drawn restatement and
# for deleting a row or changing its key (each output row that changes with an input row depends on it); and a
# redo one unit too late can be wrong, so none of these checks holds by construction.

EVERY_PLACEMENT = HORIZON + 40  # after the last output arrival any scenario can have


def assert_changes_placed_from_earliest_change(one_run, before, after) -> None:
    changed = earliest_restated_unit(before, after, EVERY_PLACEMENT)
    old, new = Counter(one_run(before, None, EVERY_PLACEMENT)), Counter(one_run(after, None, EVERY_PLACEMENT))
    moved = (old - new) + (new - old)
    assert changed is not None or not moved, f"the inputs are the same but the rows differ: {moved}"
    early = [row for row in moved if row[1] < changed]
    assert not early, f"rows placed before {changed}, the earliest changed unit, change: {early}"


def single_row_changes(version, picks):
    """For each picked (input, row): the version without that row, and with its key changed."""
    for i, j in picks:
        row = version[i][j]
        without = [rows if n != i else rows[:j] + rows[j + 1 :] for n, rows in enumerate(version)]
        rekeyed = [rows if n != i else rows[:j] + [dict(row, k=_next_key(row["k"]))] + rows[j + 1 :]
                   for n, rows in enumerate(version)]  # fmt: skip
        yield without
        yield rekeyed


def _next_key(key):
    return KEYS[(KEYS.index(key) + 1) % len(KEYS)]


def _picks(data, version):
    cells = [(i, j) for i, rows in enumerate(version) for j, r in enumerate(rows) if r["t"] is not None]
    return data.draw(st.lists(st.sampled_from(cells), max_size=6, unique=True)) if cells else []


def check_on_the_oracle(one_run, before, scenario, data) -> None:
    """The life cycle of version 1 then 2 equals one run over version 2; version 1 and 2 differ only in rows
    placed at or after the earliest unit they differ in; so do version 2 and version 2 with a row deleted or its
    key changed, for a few drawn rows."""
    after, redo_end = scenario["after"], scenario["redo_end"]
    tile_list = tiles(scenario["start"], scenario["end"], scenario["cuts"])
    expected = Counter(one_run(after, scenario["start"], redo_end))
    assert Counter(table_after_restatement_and_redo(before, after, one_run, tile_list, redo_end)) == expected
    # a plain (warn) run between the restatement and the redo changes nothing: the units stay outstanding
    warn_end = data.draw(st.integers(scenario["end"] + 1, redo_end), label="warn run's end")
    assert Counter(table_after_warn_then_redo(before, after, one_run, tile_list, warn_end, redo_end)) == expected
    assert_changes_placed_from_earliest_change(one_run, before, after)
    for changed in single_row_changes(after, _picks(data, after)):
        assert_changes_placed_from_earliest_change(one_run, after, changed)


ORACLE_SETTINGS = settings(PROPERTY_SETTINGS, max_examples=settings().max_examples * 2)


@pytest.mark.parametrize("mode", MODES)
@ORACLE_SETTINGS
@given(data=st.data())
def test_on_the_oracle_no_row_changes_before_the_input_it_depends_on(mode, data):
    scenario = data.draw(restated_scenarios(mode))
    check_on_the_oracle(join_oracle(scenario), [scenario["a"], scenario["b"]], scenario, data)


@ORACLE_SETTINGS
@given(data=st.data())
def test_on_the_oracle_no_row_of_inc_join_many_changes_before_the_input_it_depends_on(data):
    scenario = data.draw(restated_many_scenarios())
    before = [scenario["a"], *(spec["rows"] for spec in scenario["inputs"])]
    check_on_the_oracle(many_oracle(scenario), before, scenario, data)


def _one_unit_late_is_wrong(scenario, one_run, before) -> bool:
    after, start, end, redo_end = scenario["after"], scenario["start"], scenario["end"], scenario["redo_end"]
    restated = earliest_restated_unit(before, after, end)
    if restated is None or restated < start:
        return False
    tile_list = tiles(start, end, scenario["cuts"])
    late = table_after_restatement_and_redo(before, after, one_run, tile_list, redo_end, redo_from=restated + 1)
    return Counter(late) != Counter(one_run(after, start, redo_end))


# the first example found is enough (shrinking it costs most of the time)
FIND_SETTINGS = settings(max_examples=500, derandomize=True, database=None, phases=[Phase.generate])


@pytest.mark.parametrize("mode", MODES)
def test_on_the_oracle_a_redo_one_unit_late_can_be_wrong(mode):
    """The negative control: the earliest restated unit is where the redo must start, not a unit later."""
    find(
        restated_scenarios(mode),
        lambda s: _one_unit_late_is_wrong(s, join_oracle(s), [s["a"], s["b"]]),
        settings=FIND_SETTINGS,
    )


def test_on_the_oracle_a_redo_of_inc_join_many_one_unit_late_can_be_wrong():
    find(
        restated_many_scenarios(),
        lambda s: _one_unit_late_is_wrong(s, many_oracle(s), [s["a"], *(spec["rows"] for spec in s["inputs"])]),
        settings=FIND_SETTINGS,
    )


# ---------------------------------------------------------------------------------------------------------------
# Fixed rows, days, committed as [0, 3] and [4, 6], redone up to day 8. inc_join with how = left, look-back 1,
# max_waiting_time 2: A 1 (key 1, day 2) meets B 11 (day 3): code 3 on day 3; A 2 (key 2, day 4) meets B 12
# (day 5): code 3 on day 5. Each restatement below changes a row of the committed tiles.

FIXED_A = [dict(id=1, k=1, t=2, jitter=0), dict(id=2, k=2, t=4, jitter=0)]
FIXED_B = [dict(id=11, k=1, t=3, jitter=0, v=0, w=0), dict(id=12, k=2, t=5, jitter=0, v=0, w=0)]
FIXED_JOIN = dict(
    unit="day", arrival_type="date", how="left", lb=1, mw=2, late=0, cond=None, mode="all", order_by=None,
    null_fill=None, start=0, end=6, cuts=[4], arrangements=["as drawn", "reversed"], redo_end=8,
)  # fmt: skip


def _replaced(rows, index, **changes):
    return [dict(r, **changes) if i == index else r for i, r in enumerate(rows)]


# kind -> (version 1's rows of the restated input -> version 2's), the restated unit
RESTATED_A = {
    "add": (lambda rows: [*rows, dict(id=3, k=1, t=1, jitter=5)], 1),  # meets B 11 two days later: code 3, day 3
    "delete": (lambda rows: rows[1:], 2),  # A 1 gone: its row on day 3 too
    "payload": (lambda rows: _replaced(rows, 0, id=5), 2),  # A 1 is now A 5
    "key": (lambda rows: _replaced(rows, 0, k=3), 2),  # A 1 meets nobody: a_timed_out on day 4
    "reorder": (lambda rows: rows[::-1], None),
}
RESTATED_B = {
    "add": (lambda rows: [*rows, dict(id=13, k=2, t=4, jitter=7, v=1, w=0)], 4),  # meets A 2 the same day
    "delete": (lambda rows: rows[1:], 3),  # A 1 has no partner: a_timed_out on day 4
    "payload": (lambda rows: _replaced(rows, 0, v=1), 3),  # the output row names B 11 by (id, v, w)
    "key": (lambda rows: _replaced(rows, 0, k=3), 3),
    "reorder": (lambda rows: rows[::-1], None),
}
FIXED_CASES = [("A", kind) for kind in RESTATED_A] + [("B", kind) for kind in RESTATED_B]


@pytest.mark.parametrize(("side", "kind"), FIXED_CASES, ids=[f"{side}-{kind}" for side, kind in FIXED_CASES])
def test_each_restatement_of_a_or_b_is_repaired_by_the_redo_and_only_by_it(spark, side, kind):
    change, unit = (RESTATED_A if side == "A" else RESTATED_B)[kind]
    after = [change(FIXED_A), FIXED_B] if side == "A" else [FIXED_A, change(FIXED_B)]
    scenario = dict(FIXED_JOIN, a=FIXED_A, b=FIXED_B, after=after)
    got = join_life_cycle(spark, scenario, without_redo=True)
    assert got["restated"] == unit
    expected = Counter(join_oracle(scenario)(after, scenario["start"], scenario["redo_end"]))
    assert got["table"] == expected
    if unit is None:  # the same rows in another order: the next run is all there is to do
        assert got["without_redo"] == expected
    else:
        assert got["without_redo"] != expected, "the restatement changes a committed row"
        # B's restatements change the row placed on the restated unit itself (B 11 or B 13 is on it): one unit late
        # is too late; A's change rows placed a day or more later
        assert (got["too_late"] != expected) == (side == "B")


# inc_join_many over the same A: input in0 (partner first, look-back 1, max_waiting_time 2) with B's rows, input
# in1 (aggregate, look-back 0, max_waiting_time 2) with B 21 (key 1, day 2) and B 22 (key 2, day 6). A 1 settles
# in0 on day 3 and in1 on day 4: placed on day 4; A 2 on days 5 and 6: placed on day 6.
FIXED_MANY = dict(
    a=FIXED_A,
    inputs=[
        dict(name="in0", rows=[dict(r) for r in FIXED_B], lb=1, mw=2, mode="first", cond=None),
        dict(name="in1", rows=[dict(id=21, k=1, t=2, jitter=0), dict(id=22, k=2, t=6, jitter=0)], lb=0, mw=2,
             mode="aggregate", cond=None),
    ],
    unit="day", arrival_type="date", start=0, end=6, cuts=[4], redo_end=8,
)  # fmt: skip
RESTATED_MANY = {
    "add": (lambda rows: [*rows, dict(id=23, k=1, t=3, jitter=0)], 3),  # in1 of A 1 aggregates B 21 and B 23
    "delete": (lambda rows: rows[1:], 2),  # A 1 has no partner in in1: code 4
    "payload": (lambda rows: _replaced(rows, 0, id=25), 2),
    "key": (lambda rows: _replaced(rows, 0, k=3), 2),
    "reorder": (lambda rows: rows[::-1], None),
}


# each kind on A and B above; of inc_join_many's, `make test` takes two (the rest in make test-matrix)
MANY_KINDS = [
    kind if kind in ("delete", "reorder") else pytest.param(kind, marks=pytest.mark.matrix) for kind in RESTATED_MANY
]


@pytest.mark.parametrize("kind", MANY_KINDS)
def test_each_restatement_of_an_input_of_inc_join_many_is_repaired_by_the_redo_and_only_by_it(spark, kind):
    change, unit = RESTATED_MANY[kind]
    before = [FIXED_MANY["a"], *(spec["rows"] for spec in FIXED_MANY["inputs"])]
    after = [*before[:2], change(before[2])]
    got = many_life_cycle(spark, dict(FIXED_MANY, after=after), without_redo=True)
    assert got["restated"] == unit
    expected = Counter(many_oracle(FIXED_MANY)(after, FIXED_MANY["start"], FIXED_MANY["redo_end"]))
    assert got["table"] == expected
    if unit is None:  # the same rows in another order: the next run is all there is to do
        assert got["without_redo"] == expected
    else:
        assert got["without_redo"] != expected, "the restatement changes a committed row"
