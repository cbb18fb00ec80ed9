"""The SQL macro, as dbt runs it, against the brute-force oracle (tests/core/oracle.py) on random histories: the
property tests/core/test_properties.py checks for the core, here for the package's SQL path (issue 41).

Each example draws small A and B histories (few keys, NULL keys and arrivals, partners late, early and missing,
day, hour or minute units, DATE or TIMESTAMP arrivals, B's key and arrival named otherwise) and a call: how,
look_back_time, max_waiting_time, late_match_time, include_waiting, join_cond, partner all / first / last or
aggregate, the plan of spec §15; a window [start, end] and, for a third of them, a cut inside it. The call runs
through the macro over [start, end], and with a cut also over [start, cut - 1] and [cut, end]. The rows of the
whole run equal the oracle's, and the two runs of the tiling add up to the whole one (but for the first run's
waiting rows, which only that run shows).

A dbt invocation costs 10-25 s, so the examples are not run one by one: the fixture ``sql_rows`` draws them first
(the same strategy, settings and seed as the property, so the same examples), writes every example's rows into
two tables (one view per example and side over them), and runs every call of every example in ONE `dbt show
--inline` (integration_tests/macros/property_join.sql: one statement, the runs' rows unioned). The property then
looks each example up; an example the fixture did not draw (a changed hypothesis) runs on its own, slower.
Shrinking is off (each step would be a dbt invocation): a failure reports the example as drawn, which is small.
The window's end is the one given: a row without key after the window, in A and in B, holds the availability
watermark that caps a dbt run (spec §6) past it; no var, so the invocation parses no more than the seed's did."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from ..conftest import whole_matrix
from ..core.frames import moment, units_since_origin
from ..core.oracle import expected_rows
from ..core.test_properties import CONDITIONS, oracle_cond

pytestmark = pytest.mark.dbt

SCHEMA = "inc_join_it"
EXAMPLES = 16 if whole_matrix() else 8  # make test: 8 (one dbt show costs about 10 s an example)
SEED = 41

# output name -> (Spark SQL aggregate, its Python twin over the partner B rows)
AGGREGATES = {
    "n": ("count(*)", len),
    "ids": ("sort_array(collect_list(id))", lambda rows: tuple(sorted(r["id"] for r in rows))),
    "top": ("max_by(b_val, id)", lambda rows: f"b{max(r['id'] for r in rows)}" if rows else None),
}


HORIZON = 12  # arrivals lie in [0, HORIZON]; windows reach a little beyond


def histories(rnd: random.Random) -> tuple[list[dict], list[dict]]:
    """A and B: 4 to 9 A rows of few keys (duplicates, collisions, NULL), arrivals over [0, HORIZON] or NULL
    (rarely); B rows of those keys (then 1 to 5 of their own): none, one or two per A row, arriving 3 units before
    to 6 after it (early, on time, late, too late), so that partners are many and some are missing."""

    def arrival(near: int | None = None) -> int | None:
        if rnd.random() < 0.08:
            return None
        return rnd.randint(0, HORIZON) if near is None else max(0, near + rnd.randint(-3, 6))

    a = [dict(id=100 + i, k=rnd.choice([None, 0, 1, 1, 2, 2]), t=arrival()) for i in range(rnd.randint(4, 9))]
    b: list[dict] = []
    for row in a:
        for _ in range(rnd.choice([0, 1, 1, 2])):
            b.append(dict(k=row["k"] if rnd.random() < 0.9 else rnd.choice([0, 1, 2]), t=arrival(row["t"])))
    b += [dict(k=rnd.choice([None, 0, 1, 2]), t=arrival()) for _ in range(rnd.randint(1, 5))]
    rnd.shuffle(b)
    b = [dict(row, id=200 + i) for i, row in enumerate(b)]
    for row in a + b:
        row["jitter"] = rnd.randint(0, 59)
    return a, b


def example_of(number: int) -> dict:
    """The example a number stands for: the histories and the call, with the fields of the core's property
    (tests/core/test_properties.py: scenarios), a mode of spec §11, include_waiting, the plan, and for a third of
    them a cut of the window (each run costs a statement).

    Hypothesis draws the number, not each field: with the few examples a dbt test can afford, its own draws stay
    near their simplest values (most rows at 0, before the window) and near the examples before (a run of 20 drew
    7 variants of one call); a number drawn anew is an example drawn anew."""
    rnd = random.Random(number)
    unit = rnd.choice(["day", "day", "hour", "minute"])
    mode = rnd.choice(["all", "all", "first", "last", "aggregate"])
    how = rnd.choice(["left", "inner"] if mode == "aggregate" else ["inner", "left", "full", "full", "left_anti"])
    start = rnd.randint(0, 4)
    end = rnd.randint(start + 2, HORIZON + 5)
    a, b = histories(rnd)
    # a dbt run ends at the availability watermark min(max a, max b) at the latest (spec §6): a row without key
    # on each side, arriving after the window, holds it past the end given (and places nothing in the window)
    a.append(dict(id=199, k=None, t=end + 1, jitter=0))
    b.append(dict(id=299, k=None, t=end + 1, jitter=0))
    return dict(
        unit=unit,
        arrival_type="timestamp" if unit != "day" else rnd.choice(["date", "timestamp"]),
        a=a,
        b=b,
        how=how,
        lb=rnd.choice([0, 0, 1, 2, 3]),
        mw=rnd.choice([0, 1, 2, 3, 4]),
        # spec §10: late matches with partner all (not with left_anti, which has no pairs)
        late=rnd.choice([0, 1, 3]) if mode == "all" and how != "left_anti" else 0,
        start=start,
        end=end,
        cut=rnd.choice([None, None, rnd.randint(start + 1, end)]),
        # spec §12: join_cond over both sides, A only or B only (None: none); B's key and arrival renamed
        cond=rnd.choice([None, None, "pair", "a_only", "b_only", "mixed"]),
        renamed=rnd.random() < 0.5,
        mode=mode,
        include_waiting=rnd.random() < 0.5,
        null_fill=rnd.choice([None, {"top": "none"}]) if mode == "aggregate" else None,
        plan=rnd.choice(["auto", True, False]),
    )


def examples():
    return st.integers(0, 2**32 - 1).map(example_of)


EXAMPLE_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    phases=[Phase.generate],
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def key(example: dict) -> str:
    return json.dumps(example, sort_keys=True)


def drawn_examples() -> list[dict]:
    """The examples the property will see: the same strategy, settings and seed."""
    drawn: list[dict] = []

    @seed(SEED)
    @EXAMPLE_SETTINGS
    @given(example=examples())
    def collect(example):
        drawn.append(example)

    collect()
    return drawn


# ---------------------------------------------------------------------------------------------------------------
# The examples as tables, their calls as runs of the macro, the runs' rows as oracle rows


def bound_text(t: int, unit: str) -> str:
    value = moment(t, unit)
    return value.strftime("%Y-%m-%d") if unit == "day" else value.strftime("%Y-%m-%d %H:%M:%S")


def write_inputs(spark, batch: dict[str, dict]) -> None:
    """Every example's A and B rows into two tables, tagged with the example's name; a view per example and side
    with the example's arrival type and column names."""
    for side in ("a", "b"):
        rows = [
            (
                name,
                r["id"],
                r["k"],
                None if r["t"] is None else moment(r["t"], ex["unit"], r["jitter"]).strftime("%Y-%m-%d %H:%M:%S"),
                f"{side}{r['id']}",
            )
            for name, ex in batch.items()
            for r in ex[side]
        ]
        frame = spark.createDataFrame(rows, f"example string, id int, k int, arrival string, {side}_val string")
        frame.write.mode("overwrite").saveAsTable(f"{SCHEMA}.property_{side}_rows")
    for name, ex in batch.items():
        for side in ("a", "b"):
            renamed = side == "b" and ex["renamed"]
            key_name, arrival = ("bk", "PaidAt") if renamed else ("k", "RecDate")
            spark.sql(
                f"CREATE OR REPLACE VIEW {SCHEMA}.{name}_{side} AS SELECT id, k AS {key_name}, "
                f"CAST(to_timestamp(arrival) AS {ex['arrival_type']}) AS {arrival}, {side}_val "
                f"FROM {SCHEMA}.property_{side}_rows WHERE example = '{name}'"
            )


def windows(example: dict) -> dict[str, tuple[int, int]]:
    """The runs of an example: the whole window, and the two tiles of its cut."""
    start, end, cut = example["start"], example["end"], example["cut"]
    if cut is None:
        return {"whole": (start, end)}
    return {"whole": (start, end), "first": (start, cut - 1), "second": (cut, end)}


def macro_runs(name: str, example: dict) -> list[dict]:
    unit, renamed, mode = example["unit"], example["renamed"], example["mode"]
    call = dict(
        schema=SCHEMA,
        a=f"{name}_a",
        b=f"{name}_b",
        join_cols={"k": "bk"} if renamed else "k",
        inc_col=["RecDate", "PaidAt"] if renamed else "RecDate",
        how=example["how"],
        lb=example["lb"],
        mw=example["mw"],
        time_uom=unit,
        include_waiting=example["include_waiting"],
        partner=mode if mode in ("first", "last") else "all",
        aggregate={n: sql for n, (sql, _) in AGGREGATES.items()} if mode == "aggregate" else None,
        null_fill=example["null_fill"],
        many_rows_per_key=example["plan"],
        late_match_time=example["late"],
        join_cond=None if example["cond"] is None else CONDITIONS[example["cond"]][0],
    )
    return [
        dict(call, name=f"{name}__{run}", start=bound_text(lo, unit), end=bound_text(hi, unit))
        for run, (lo, hi) in windows(example).items()
    ]


def sql_rows(project, spark, batch: dict[str, dict]) -> dict[str, dict[str, Counter]]:
    """Every run of every example of ``batch`` (name -> example) through the macro in one `dbt show`: per example,
    per run, its rows as oracle rows."""
    write_inputs(spark, batch)
    runs = [run for name, ex in batch.items() for run in macro_runs(name, ex)]
    text = json.dumps(runs).replace("\\", "\\\\").replace("'", "\\'")
    inline = f"{{{{ property_runs(fromjson('{text}')) }}}}"
    result = project.invoke("show", "--inline", inline, "--limit", "-1", "--no-populate-cache")
    table = result.result.results[0].agate_table
    found: dict[str, dict[str, Counter]] = {name: {run: Counter() for run in windows(ex)} for name, ex in batch.items()}
    for run, text_row in zip(table.columns["run"], table.columns["row"], strict=True):
        name, window = run.split("__")
        ex = batch[name]
        found[name][window][oracle_row(json.loads(text_row), ex)] += 1
    return found


def _hashable(value: Any) -> Any:
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


def oracle_row(row: dict, example: dict) -> tuple:
    """A row of the macro's output (JSON without its NULL fields) in the oracle's shape."""
    shaped = (
        row.get("k"),
        units_since_origin(row["out"], example["unit"]),
        row.get("a_id"),
        row.get("b_id"),
        row["code"],
        row.get("diff"),
        row.get("waiting"),
    )
    if example["mode"] == "aggregate":
        shaped += (tuple(_hashable(row.get(f"g{i}")) for i in range(len(AGGREGATES))),)
    return shaped


def oracle(example: dict, start: int, end: int) -> Counter:
    mode = example["mode"]
    return Counter(
        expected_rows(
            example["a"],
            example["b"],
            how=example["how"],
            lb=example["lb"],
            mw=example["mw"],
            start=start,
            end=end,
            include_waiting=example["include_waiting"],
            partner=mode if mode in ("first", "last") else "all",
            aggregate={n: fn for n, (_, fn) in AGGREGATES.items()} if mode == "aggregate" else None,
            null_fill=example["null_fill"],
            late_match_time=example["late"],
            join_cond=oracle_cond(example),
        )
    )


# ---------------------------------------------------------------------------------------------------------------


class DrawnRows(dict):
    """The fixture's rows by example (``by_key``), with ``project`` and ``spark`` for an example drawn later and
    the ``late`` ones; shown short in a falsifying example (its rows are the test's, not the example's)."""

    def __repr__(self) -> str:
        return f"<the rows of {len(self['by_key'])} examples, one dbt show>"


@pytest.fixture(scope="module")
def drawn_rows(project, spark) -> DrawnRows:
    """The rows of every drawn example's runs, from one dbt invocation."""
    batch = {f"property_{i}": ex for i, ex in enumerate(drawn_examples())}
    rows = sql_rows(project, spark, batch)
    return DrawnRows(by_key={key(ex): rows[name] for name, ex in batch.items()}, project=project, spark=spark, late=[])


def rows_of(drawn_rows: DrawnRows, example: dict) -> dict[str, Counter]:
    found = drawn_rows["by_key"].get(key(example))
    if found is None:  # not among the fixture's examples: one more dbt invocation
        drawn_rows["late"].append(example)
        found = sql_rows(drawn_rows["project"], drawn_rows["spark"], {"property_late": example})["property_late"]
    return found


@seed(SEED)
@EXAMPLE_SETTINGS
@given(example=examples())
def test_the_sql_macro_as_dbt_runs_it_equals_the_oracle_and_two_windows_add_up_to_one(drawn_rows, example):
    runs = rows_of(drawn_rows, example)
    assert runs["whole"] == oracle(example, example["start"], example["end"])
    if example["cut"] is not None:  # a_waiting rows are provisional (spec §3): the first run's belong to it alone
        assert +Counter({row: n for row, n in runs["first"].items() if row[4] != 5}) + runs["second"] == runs["whole"]


def test_the_property_ran_on_the_examples_of_one_invocation(drawn_rows):
    """Every example of the property came from the fixture's one `dbt show` (none ran on its own), and the
    examples have rows to compare."""
    assert drawn_rows["late"] == []
    assert len(drawn_rows["by_key"]) >= EXAMPLES // 2
    assert sum(sum(runs["whole"].values()) for runs in drawn_rows["by_key"].values()) > 0
