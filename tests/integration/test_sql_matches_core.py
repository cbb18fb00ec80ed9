"""The SQL macro and the PySpark core give identical rows on the same inputs, over a matrix of arguments.

All cases are rendered by one ``dbt compile`` (each dbt invocation with other vars re-parses the project, 10-20
s a case); each rendered query then runs on the test session's Spark and is compared with the core. One case also
goes through ``dbt run`` of the model sql_matrix, so the rendered SQL is shown to materialise as a table."""

from __future__ import annotations

import os
from datetime import date

import pytest

from dbt_inc_join import inc_join

from .pipeline import rows

SEPARATOR = "-- inc_join_matrix: next case"

pytestmark = pytest.mark.dbt

CASES = [
    dict(how="left_anti", start="2025-01-03", end="2025-01-08"),
    dict(how="full", look_back_time=0, max_waiting_time=0, start="2025-01-01", end="2025-01-10"),
    dict(how="left", enforce_sliding_join_window=False, start="2025-01-04", end="2025-01-06"),
    dict(how="full", enforce_sliding_join_window=False, look_back_time=1, start="2025-01-04", end="2025-01-09"),
    dict(how="left", include_waiting=True, start="2025-01-05", end="2025-01-07"),
    dict(
        how="inner",
        output_select="inc_col, JoinTypeName, join_cols, inc_col_b, Status, DiffArrivalTime",
        start="2025-01-02",
        end="2025-01-08",
    ),
    dict(
        how="left",
        suffixes=["_fin", "_sepa"],
        output_select="join_cols, inc_col, df_a_cols, df_b_cols, JoinType",
        start="2025-01-02",
        end="2025-01-04",
    ),
    dict(
        a="gen_hour_a",
        b="gen_hour_b",
        time_uom="hour",
        how="full",
        look_back_time=1,
        max_waiting_time=3,
        start="2025-01-01 20:00",
        end="2025-01-02 05:00",
    ),
    dict(
        a="gen_hour_a",
        b="gen_hour_b",
        time_uom="minute",
        how="left",
        look_back_time=90,
        max_waiting_time=120,
        start="2025-01-02 23:00",
        end="2025-01-03 01:30",
    ),
    dict(
        a="odd_names_a",
        b="odd_names_b",
        join_cols="trx id",
        inc_col="Rec Date",
        how="full",
        start="2025-01-02",
        end="2025-01-06",
    ),
    # spec §10, late matches (and with how = full, B rows that are late partners are no b_timed_out)
    dict(how="left", look_back_time=1, max_waiting_time=1, late_match_time=3, start="2025-01-04", end="2025-01-09"),
    dict(
        how="full",
        look_back_time=1,
        max_waiting_time=0,
        late_match_time=2,
        many_rows_per_key=True,
        start="2025-01-03",
        end="2025-01-10",
        engines=False,
    ),
    # spec §12: keys and arrival named otherwise in B; join_cond over both sides, over one side, with late matches
    # (the late copies' anti-join) and in the compatibility mode
    dict(
        b="renamed_b",
        join_cols={"TrxId": "PayTrx"},
        inc_col=["RecDate", "PaidOn"],
        how="full",
        look_back_time=1,
        start="2025-01-02",
        end="2025-01-09",
    ),
    dict(
        b="renamed_b",
        join_cols={"TrxId": "PayTrx"},
        inc_col=["RecDate", "PaidOn"],
        how="left",
        max_waiting_time=1,
        late_match_time=3,
        join_cond="b.PaymentId % 3 <> a.TrxId % 3 AND b.Status <> 'x.y'",
        start="2025-01-03",
        end="2025-01-09",
    ),
    dict(how="full", join_cond="a.Amount > 300", start="2025-01-02", end="2025-01-08"),
    dict(
        how="left",
        enforce_sliding_join_window=False,
        join_cond="b.Status = 'ok'",
        start="2025-01-04",
        end="2025-01-06",
        engines=False,
    ),
    # spec §11, one row per A, on keys with many rows a day and B rows delivered twice
    dict(
        a="hot_keys_a", b="hot_keys_b", how="left", partner="first", start="2025-01-03", end="2025-01-09", engines=False
    ),
    dict(
        a="hot_keys_a",
        b="hot_keys_b",
        how="full",
        partner="last",
        partner_order_by=["Status", "PaymentId"],
        start="2025-01-02",
        end="2025-01-10",
    ),
    dict(
        a="hot_keys_a",
        b="hot_keys_b",
        how="left",
        include_waiting=True,
        aggregate={
            "n": "count(*)",
            "countries": "count(distinct Country)",
            "last_status": "max_by(Status, PaymentId)",
            "payments": "sort_array(collect_list(PaymentId))",
        },
        null_fill={"last_status": "none"},
        start="2025-01-05",
        end="2025-01-09",
    ),
    dict(
        a="gen_hour_a",
        b="gen_hour_b",
        time_uom="hour",
        how="inner",
        look_back_time=1,
        max_waiting_time=3,
        aggregate={"n": "count(*)"},
        start="2025-01-01 20:00",
        end="2025-01-02 05:00",
        engines=False,
    ),
    dict(a="hot_keys_a", b="hot_keys_b", how="inner", many_rows_per_key=True, start="2025-01-02", end="2025-01-08"),
    # spec §12: join_cond in the one-row-per-A plans (A's condition columns in the distinct rows, joined back
    # null-safe) and in the buckets of many_rows_per_key
    dict(
        a="hot_keys_a",
        b="hot_keys_b",
        how="full",
        partner="first",
        join_cond="b.PaymentId % 2 = a.Seq % 2",
        start="2025-01-03",
        end="2025-01-09",
    ),
    dict(
        a="hot_keys_a",
        b="hot_keys_b",
        how="left",
        aggregate={"n": "count(*)", "payments": "sort_array(collect_list(PaymentId))"},
        join_cond="a.Amount > 300 AND b.Status <> 'x'",
        start="2025-01-04",
        end="2025-01-09",
    ),
    dict(
        a="hot_keys_a",
        b="hot_keys_b",
        how="inner",
        many_rows_per_key=True,
        join_cond="b.PaymentId % 3 <> a.Seq % 3",
        start="2025-01-02",
        end="2025-01-08",
    ),
    dict(
        a="hot_keys_a",
        b="hot_keys_b",
        how="full",
        many_rows_per_key=True,
        start="2025-01-03",
        end="2025-01-07",
        engines=False,
    ),
    # spec §12, what join_cond costs: a condition split into A-only, pair and B-only conjuncts (the A-only one
    # filters A's distinct rows and tests the A row in the join back, which stays without partner when it fails)
    dict(
        a="hot_keys_a",
        b="hot_keys_b",
        how="full",
        partner="last",
        join_cond="a.Amount > 300 AND b.PaymentId % 2 = a.Seq % 2 AND b.Status <> 'x'",
        start="2025-01-03",
        end="2025-01-09",
    ),
]
# The engine runs of `make test` (Spark 4 with ANSI on, Spark 3.5) take the cases not marked engines=False: the
# §11 cases there are one per plan shape (the pick of last with how = full, the aggregate with its empty row, every
# partner of how = inner by bucket).
if os.environ.get("INC_JOIN_ANSI"):
    CASES = [case for case in CASES if case.get("engines", True)]


# enforce_sliding_join_window=False over one day with look_back_time 0: A rows of 2025-01-07 join their partners
# that arrived up to max_waiting_time days earlier (the original inc-join reads B from start - look_back_time -
# max_waiting_time and joins on the keys alone), in SQL exactly as in the core.
COMPAT_CORNER = dict(
    how="left",
    enforce_sliding_join_window=False,
    look_back_time=0,
    max_waiting_time=5,
    start="2025-01-07",
    end="2025-01-07",
)
MATERIALISED = next(i for i, case in enumerate(CASES) if case.get("a") == "odd_names_a")


@pytest.fixture(scope="module")
def rendered(project):
    """Every case's SQL, by one dbt compile of all of them (macros/matrix_join.sql), after the inputs that are
    models of their own are built."""
    inputs = sorted(
        {
            case[side]
            for case in CASES
            for side in ("a", "b")
            if case.get(side, "gen").startswith(("odd", "hot", "renamed"))
        }
    )
    project.invoke("run", "--select", *inputs)
    cases = [*CASES, COMPAT_CORNER]
    inline = f"{{{{ matrix_cases(var('matrix_cases'), '{SEPARATOR}') }}}}"
    result = project.invoke("compile", "--inline", inline, "--no-populate-cache", vars={"matrix_cases": cases})
    parts = [part.strip() for part in result.result.results[0].node.compiled_code.split(SEPARATOR)]
    assert len(parts) == len(cases)
    return dict(zip(map(id, cases), parts, strict=True))


def core_rows(spark, case):
    """The core's answer for one case: its columns and rows."""
    arguments = {k: v for k, v in case.items() if k not in ("a", "b", "start", "end", "engines")}
    arguments.setdefault("join_cols", "TrxId")
    arguments.setdefault("look_back_time", 2)
    arguments.setdefault("max_waiting_time", 4)
    expected = inc_join(
        spark.table(f"inc_join_it.{case.get('a', 'gen_a')}"),
        spark.table(f"inc_join_it.{case.get('b', 'gen_b')}"),
        output_window_start=case["start"],
        output_window_end=case["end"],
        **arguments,
    )
    return expected.columns, rows(expected, expected.columns)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.get('a', 'gen_a')}-{c['how']}-{i}" for i, c in enumerate(CASES)])
def test_sql_macro_equals_core(spark, rendered, case):
    # the rendered query runs once: the checks below read its collected rows (each further action on the query
    # would run the whole statement again)
    table = spark.sql(rendered[id(case)])
    found = rows(table, table.columns)
    assert (table.columns, found) == core_rows(spark, case)
    assert len(found) > 0
    if case.get("late_match_time"):
        join_type = table.columns.index("JoinType")
        assert any(row[join_type] == 7 for row in found), "the case has late matches"


def test_the_model_materialises_a_case(spark, project, rendered):
    """dbt run of sql_matrix (a table) writes the rows of the rendered query (the case with column names that
    need quoting)."""
    case = CASES[MATERIALISED]
    project.invoke("run", "--select", "sql_matrix", vars={"matrix": case})
    table = project.table("sql_matrix")
    assert (table.columns, rows(table, table.columns)) == core_rows(spark, case)


def test_sql_compatibility_mode_matches_the_original_in_the_issue_11_corner(spark, rendered):
    table = spark.sql(rendered[id(COMPAT_CORNER)])
    found = rows(table, table.columns)  # the query runs once; the checks read its rows
    assert (table.columns, found) == core_rows(spark, COMPAT_CORNER)
    join_type, diff, a_arrival = (table.columns.index(c) for c in ("JoinType", "DiffArrivalTime", "RecDate_A"))
    late = [row for row in found if row[join_type] == 2]
    diffs = [row[diff] for row in late if row[diff] is not None]
    assert late and diffs and min(diffs) < 0, "a_late rows with B older than look_back_time are the corner"
    # no a_late row with B more than 5 days older, or with A outside the one day (SQL's three-valued OR: a NULL
    # side does not make a row count)
    corner = date(2025, 1, 7)
    outside = [
        row
        for row in late
        if (row[diff] is not None and row[diff] < -5) or (row[a_arrival] is not None and row[a_arrival] != corner)
    ]
    assert outside == []
