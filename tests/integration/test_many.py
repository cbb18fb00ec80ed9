"""spec §12: the SQL macro inc_join_many gives the core's rows (src/dbt_inc_join/orchestration/many.py) on the
integration
inputs, with first / last / aggregate inputs, keys and arrivals named otherwise, two and three inputs. All cases
are rendered by one ``dbt compile``; each rendered query runs on the test session's Spark."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest

from dbt_inc_join import inc_join_many, suggest_windows_many

from .pipeline import FIRST_DAY, LAST_DAY, ordered, rows

SEPARATOR = "-- inc_join_many: next case"

pytestmark = pytest.mark.dbt

RENAMED = dict(join_cols={"TrxId": "PayTrx"}, inc_col=["RecDate", "PaidOn"])
CASES = [
    dict(
        start="2025-01-03",
        end="2025-01-09",
        inputs=[
            dict(b="gen_b", name="pay", join_cols="TrxId", look_back_time=2, max_waiting_time=4),
            dict(
                b="renamed_b",
                name="agg",
                look_back_time=1,
                max_waiting_time=2,
                aggregate={"n": "count(*)", "statuses": "sort_array(collect_set(Status))"},
                **RENAMED,
            ),
        ],
    ),
    dict(
        start="2025-01-02",
        end="2025-01-10",
        inputs=[
            dict(
                b="gen_b",
                name="last_pay",
                join_cols="TrxId",
                look_back_time=0,
                max_waiting_time=3,
                partner="last",
                partner_order_by=["PaymentId"],
            ),
            dict(b="renamed_b", name="first_pay", look_back_time=2, max_waiting_time=1, suffix="_fp", **RENAMED),
            dict(
                b="gen_b",
                name="fees",
                join_cols="TrxId",
                look_back_time=1,
                max_waiting_time=5,
                aggregate={"paid_ids": "sort_array(collect_list(PaymentId))", "k": "count(*)"},
                null_fill={"k": -1},
                many_rows_per_key=True,  # the grouped plan in SQL (core_rows: the core chooses, here plain)
            ),
        ],
    ),
    # join_cond per input (over both sides; over B only, in an aggregate), and the rows still waiting
    dict(
        start="2025-01-04",
        end="2025-01-08",
        include_waiting=True,
        inputs=[
            dict(
                b="gen_b",
                name="pay",
                join_cols="TrxId",
                look_back_time=2,
                max_waiting_time=4,
                join_cond="b.PaymentId % 3 <> a.TrxId % 3",
            ),
            # split into conjuncts: A-only (its rows stay, without partner), pair and B-only
            dict(
                b="gen_b",
                name="mix",
                join_cols="TrxId",
                look_back_time=1,
                max_waiting_time=3,
                join_cond="a.Amount > 300 AND b.PaymentId % 2 = a.TrxId % 2 AND b.Status <> 'x'",
                suffix="_mix",
                many_rows_per_key=True,
            ),
            dict(
                b="renamed_b",
                name="agg",
                look_back_time=1,
                max_waiting_time=2,
                aggregate={"n": "count(*)"},
                join_cond="b.Status <> 'ok' OR a.Amount > 300",
                **RENAMED,
            ),
        ],
    ),
    # a first run: from the beginning up to the end
    dict(
        start=None,
        end="2025-01-06",
        inputs=[dict(b="gen_b", name="pay", join_cols="TrxId", look_back_time=2, max_waiting_time=4)],
    ),
]


# per case, the inputs that take A's distinct (keys, arrival) in SQL: 0: pay (13 days read, within 2 of its join
# windows of 7) and agg (an aggregate); 1: fees (grouped) alone, last_pay and first_pay sampled A (14 and 16
# days, over 2 of their windows of 4); 2: pay (11 days, within 14), mix (grouped), agg; 3: pay (the macro starts
# the first run at A's first arrival, 2025-01-01, so pay reads 12 days, within 14)
DISTINCTS = [2, 1, 3, 1]


def jinja_literal(value) -> str:
    """A Python value as a Jinja literal (dicts, lists, strings, numbers, None)."""
    if value is None:
        return "none"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{jinja_literal(k)}: {jinja_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(jinja_literal(v) for v in value) + "]"
    return repr(value)


def jinja_call(case) -> str:
    inputs = []
    for spec in case["inputs"]:
        entry = {k: v for k, v in spec.items() if k != "b"}
        items = [f"'relation': ref('{spec['b']}')"] + [
            f"{jinja_literal(k)}: {jinja_literal(v)}" for k, v in entry.items()
        ]
        inputs.append("{" + ", ".join(items) + "}")
    return (
        f"{{{{ dbt_inc_join.inc_join_many(ref('gen_a'), [{', '.join(inputs)}], "
        f"output_window_start={jinja_literal(case['start'])}, output_window_end={jinja_literal(case['end'])}, "
        f"include_waiting={case.get('include_waiting', False)}) }}}}"
    )


@pytest.fixture(scope="module")
def rendered(project):
    project.invoke("run", "--select", "renamed_b")
    inline = f"\n{SEPARATOR}\n".join(jinja_call(case) for case in CASES)
    result = project.invoke("compile", "--inline", inline, "--no-populate-cache")
    parts = [part.strip() for part in result.result.results[0].node.compiled_code.split(SEPARATOR)]
    assert len(parts) == len(CASES)
    return parts


def core_rows(spark, case):
    """The core's rows, each input's plan chosen by the core (spec §15: the rows never depend on it)."""
    inputs = []
    for spec in case["inputs"]:
        entry = {k: v for k, v in spec.items() if k not in ("b", "many_rows_per_key")}
        if isinstance(entry.get("inc_col"), list):
            entry["inc_col"] = tuple(entry["inc_col"])
        inputs.append(dict(df=spark.table(f"inc_join_it.{spec['b']}"), **entry))
    expected = inc_join_many(
        spark.table("inc_join_it.gen_a"),
        inputs,
        output_window_start=case["start"],
        output_window_end=case["end"],
        include_waiting=case.get("include_waiting", False),
    )
    return expected.columns, rows(expected, expected.columns)


@pytest.mark.parametrize("index", range(len(CASES)))
def test_sql_macro_equals_core(spark, rendered, index):
    # the rendered query runs once: the checks below read its collected rows (each further action on the query
    # would run the whole statement again)
    table = spark.sql(rendered[index])
    found = rows(table, table.columns)
    assert (table.columns, found) == core_rows(spark, CASES[index])
    # the integration keys are unique: the grouped plan (time buckets) only where an input forces it
    forced = [spec for spec in CASES[index]["inputs"] if spec.get("many_rows_per_key")]
    assert rendered[index].count(" AS _bucket") == len(forced)
    # A's distinct (keys, arrival) (spec §15): every aggregate and grouped plan, and a pick whose read range decided
    # its plain plan; a pick that A's sample gave the plain plan pairs B with A's rows (unique keys here)
    assert rendered[index].lower().count("select distinct") == DISTINCTS[index]
    assert len(found) > 0
    first = table.columns.index(f"JoinType_{CASES[index]['inputs'][0]['name']}")
    codes = {row[first] for row in found}
    assert len(codes) > 1, codes  # the case has rows with and without partner
    if CASES[index].get("include_waiting"):
        names = [table.columns.index(f"JoinType_{spec['name']}") for spec in CASES[index]["inputs"]]
        waiting = [row for row in found if any(row[i] == 5 for i in names)]
        assert 0 < len(waiting) < len(found)  # rows still waiting for an input, and settled rows


# the daily models gen_many (SQL) and gen_many_py (Python): integration_tests/models/many/
MANY_INPUTS = [
    dict(b="stg_gen_b", name="pay", join_cols="TrxId", look_back_time=2, max_waiting_time=4),
    dict(
        b="stg_renamed_b",
        name="near",
        join_cols={"TrxId": "PayTrx"},
        inc_col=("RecDate", "PaidOn"),
        look_back_time=1,
        max_waiting_time=1,
        aggregate={"n_near": "count(*)", "near_statuses": "sort_array(collect_set(Status))"},
    ),
]


def many_reference(spark):
    """The core over the whole period, on the inputs as the last day's run saw them."""
    a = spark.table("inc_join_it.gen_a").where(f"RecDate <= DATE'{LAST_DAY}'")
    b = spark.table("inc_join_it.gen_b").where(f"RecDate <= DATE'{LAST_DAY}'")
    renamed = b.selectExpr("PaymentId", "TrxId AS PayTrx", "Country", "Status", "RecDate AS PaidOn")
    frames = {"stg_gen_b": b, "stg_renamed_b": renamed}
    inputs = [dict({k: v for k, v in spec.items() if k != "b"}, df=frames[spec["b"]]) for spec in MANY_INPUTS]
    return inc_join_many(a, inputs, output_window_start=FIRST_DAY)


@pytest.fixture(scope="module")
def refreshed(project):
    """gen_many and gen_many_py rebuilt with their inputs on the last day (--full-refresh), once: each model's
    log line and its table's rows after the run, for the test of the tables and the test of the log lines."""
    lines = many_log_lines(project, "run", "--select", "+gen_many", "+gen_many_py", "--full-refresh", today=LAST_DAY)
    tables = {}
    for name in ("gen_many", "gen_many_py"):
        table = project.table(name)
        tables[name] = rows(table, ordered(table.columns))
    return {"lines": lines, "tables": tables}


def test_daily_many_tables_equal_the_core_and_a_full_refresh(spark, project, daily, refreshed):
    """spec §12 in dbt: eight daily runs of the SQL and the Python model each equal one core run over the
    period; a full refresh on the last day gives the same table; the generic tests per input pass (a_rows_once,
    missed_partners and input_lag among them)."""
    expected = many_reference(spark)
    columns = ordered(expected.columns)
    assert daily["gen_many"] == rows(expected, columns)
    assert daily["gen_many_py"] == daily["gen_many"], "the Python model differs from the SQL model"
    codes = {(r[columns.index("JoinType_pay")], r[columns.index("JoinType_near")]) for r in daily["gen_many"]}
    assert {c for c, _ in codes} >= {1, 2, 3, 4} and {c for _, c in codes} == {4, 8}, codes
    for name in ("gen_many", "gen_many_py"):
        assert refreshed["tables"][name] == daily["gen_many"], name
    assert_generic_tests(project)


def assert_generic_tests(project):
    """Every generic test per input (integration_tests/models/many/many.yml) on gen_many as the daily pipeline
    leaves it (test_dbt_pipeline runs them in each table format too); the bad ones: test_watching.py."""
    result = project.invoke("test", "--select", "gen_many", "--exclude", "tag:generic_bad", today=LAST_DAY)
    tested = {r.node.name: (str(r.status), r.failures) for r in result.result.results}
    for test in ("a_rows_once", "join_type_drift", "missed_partners", "input_lag"):
        assert any(test in name for name in tested), (test, tested)
    assert tested["gen_many_near_missed_partners"] == tested["gen_many_near_input_lag"] == ("pass", 0), tested
    # B's keys and arrival named otherwise (PayTrx, PaidOn): 01-07 and 01-08 over the bound of 0.6
    assert tested["gen_many_near_missed_partners_over_0_6"] == ("warn", 2), tested


def test_suggest_windows_sizes_each_input_in_one_call(spark, project, rendered, capfd):
    """dbt run-operation suggest_windows_many prints one report per input, with the numbers of the Python
    suggest_windows_many (first partner for one input, aggregate for the other, keys and arrival renamed)."""
    inputs = [
        dict(b="gen_b", name="pay", join_cols="TrxId"),
        dict(b="renamed_b", name="near", join_cols={"TrxId": "PayTrx"}, inc_col=["RecDate", "PaidOn"], aggregate=True),
    ]
    capfd.readouterr()
    project.invoke(
        "run-operation", "dbt_inc_join.suggest_windows_many", "--args", json.dumps(dict(a="gen_a", inputs=inputs))
    )
    printed = capfd.readouterr().out
    frames = {"gen_b": spark.table("inc_join_it.gen_b"), "renamed_b": spark.table("inc_join_it.renamed_b")}
    python = suggest_windows_many(
        spark.table("inc_join_it.gen_a"),
        [dict({k: v for k, v in spec.items() if k != "b"}, df=frames[spec["b"]]) for spec in inputs],
    )
    sections = re.split(r"inc_join_many input '(\w+)' \((\w+)\):", printed)[1:]
    assert [(sections[i], sections[i + 1]) for i in range(0, len(sections), 3)] == [
        ("pay", "first"),
        ("near", "aggregate"),
    ]
    for i, name in ((0, "pay"), (3, "near")):
        found = re.search(r"look_back_time=(\d+), max_waiting_time=(\d+)", sections[i + 2])
        assert found and (int(found[1]), int(found[2])) == (python[name].look_back_time, python[name].max_waiting_time)
        assert python[name].partner == ("first" if name == "pay" else "aggregate")
        # a live history: the A rows whose partners may not have arrived yet are left out, the same in both
        censoring = python[name].censoring
        assert censoring.left_out > 0
        assert f"  {censoring.left_out:,} A rows left out as censored: a + {censoring.reach} days" in sections[i + 2]


def many_log_lines(project, *args, **invoke):
    """The inc_join_many log lines of one dbt invocation, by target (its last part)."""
    lines = {}

    def collect(event):
        if event.info.name == "JinjaLogInfo" and event.info.msg.startswith("inc_join_many "):
            target, _, rest = event.info.msg[len("inc_join_many ") :].partition(": ")
            lines[target.split(".")[-1]] = rest.replace(target, "<this>")

    project.invoke(*args, callbacks=[collect], **invoke)
    return lines


def test_the_log_line_names_the_stalled_input(spark, project, rendered):
    """A stalled input (stg_gen_b, loaded up to the simulated day only) holds the watermark back: the log line
    gives each input's latest arrival under its name and names the stalled one."""
    latest = {name: spark.sql(f"SELECT max(RecDate) FROM inc_join_it.{name}").first()[0] for name in ("gen_a", "gen_b")}
    start = LAST_DAY
    inline = (
        "{{ dbt_inc_join.inc_join_many(ref('gen_a'), ["
        "{'relation': ref('gen_b'), 'name': 'pay', 'join_cols': 'TrxId', 'look_back_time': 2, 'max_waiting_time': 4},"
        "{'relation': ref('stg_gen_b'), 'name': 'late', 'join_cols': 'TrxId', 'look_back_time': 1,"
        f" 'max_waiting_time': 1}}], output_window_start='{start}') }}}}"
    )
    project.invoke("run", "--select", "stg_gen_b", today=start - timedelta(1))
    try:
        lines = many_log_lines(project, "compile", "--inline", inline, "--no-populate-cache")
    finally:
        project.invoke("run", "--select", "stg_gen_b", today=LAST_DAY)  # as the daily pipeline left it
    (line,) = lines.values()
    assert line == (
        f"window empty (no end: no availability watermark); start: argument output_window_start; end: late has no "
        f"arrival from {start} on yet: watermark min(max a {latest['gen_a']}, max pay {latest['gen_b']}, "
        "max late none), held back by late; reads nothing; plan: pay plain (the run reads nothing); late plain (the "
        "run reads nothing)"
    )


def test_sql_and_python_many_models_log_the_same_line(refreshed):
    """gen_many and gen_many_py rebuilt on the last day: the same line, each input's latest arrival under its
    name, all of them holding the watermark (the inputs are loaded up to the same day)."""
    lines = refreshed["lines"]
    assert lines["gen_many"] == lines["gen_many_py"]
    assert (
        f"; end: availability watermark min(max a {LAST_DAY}, max pay {LAST_DAY}, max near {LAST_DAY}), held back "
        f"by a, pay and near; reads a " in lines["gen_many"]
    )
    # each input's plan (spec §15): the 8 days read pay from 6 days back (max mw 4, then lb 2), 14 days, within 2
    # of its join windows (2 + 4 + 1); near's 13 days are more than 2 of its (1 + 1 + 1), so one query decides it:
    # A's sample, its keyed rows up to the end of the window's first join window of near (days 1-3: 340 rows of
    # gen_a.csv, TrxId unique), and the 26 rows of gen_b.csv on days 6-8 with their TrxId (0.08 a row, 0.3 over 13)
    short = "plain (auto: B's read range of 14 days is at most 2 join windows of 7 days)"
    sparse = (
        "plain (auto: 340 A rows of a sample (1.0 rows a key) meet 0.1 B rows each in the last 3 days of B's read "
        "range, about 0 in its 13 days, below 8)"
    )
    assert lines["gen_many"].endswith(f"; plan: pay {short}; near {sparse}")
