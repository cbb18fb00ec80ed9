"""Unusual but valid inputs through the SQL macro: each model gives the PySpark core's rows on the same
inputs (the core itself is checked against the brute-force reference in tests/core/test_edge_inputs.py)."""

from __future__ import annotations

import csv

import pytest

from dbt_inc_join import inc_join

from .conftest import PROJECT
from .pipeline import LAST_DAY, rows

pytestmark = pytest.mark.dbt

WINDOW = dict(output_window_start="2025-01-01", output_window_end="2025-01-10")
MODELS = {
    # model: (a, b, how, window)
    "edge_empty_a_full": ("empty_a", "gen_b", "full", WINDOW),
    "edge_empty_b_full": ("gen_a", "empty_b", "full", WINDOW),
    "edge_null_keys_full": ("null_keys_a", "null_keys_b", "full", WINDOW),
    "edge_start_after_end": (
        "gen_a",
        "gen_b",
        "full",
        dict(output_window_start="2025-01-06", output_window_end="2025-01-05"),
    ),
}
EMPTY_INPUT = ["edge_empty_a_full", "edge_empty_b_full"]


def snapshot(project, names):
    return {name: rows(project.table(name), project.table(name).columns) for name in names}


@pytest.fixture(scope="module")
def edge_tables(project):
    """Every edge model as dbt builds it, then the empty-input ones again once the orchestrator declares
    both inputs loaded up to the window end (var inc_join_available_until)."""
    project.invoke("run", "--select", "+tag:edge", today=LAST_DAY)
    undeclared = snapshot(project, MODELS)
    project.invoke(
        "run", "--select", *EMPTY_INPUT, vars={"inc_join_available_until": WINDOW["output_window_end"]}, today=LAST_DAY
    )
    return undeclared, {**undeclared, **snapshot(project, EMPTY_INPUT)}


def core_rows(spark, model):
    a, b, how, window = MODELS[model]
    expected = inc_join(
        spark.table(f"inc_join_it.{a}"),
        spark.table(f"inc_join_it.{b}"),
        join_cols="TrxId",
        how=how,
        look_back_time=2,
        max_waiting_time=4,
        **window,
    )
    return expected.columns, rows(expected, expected.columns)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_edge_model_equals_the_core(spark, project, edge_tables, model):
    columns, expected = core_rows(spark, model)
    assert project.table(model).columns == columns
    assert edge_tables[1][model] == expected


def test_an_empty_input_holds_everything_back_until_declared_loaded(spark, edge_tables):
    """An input without rows has no watermark: dbt cannot tell "not loaded yet" from "nothing arrived", so it
    times nothing out (no premature a_timed_out/b_timed_out) until the orchestrator declares the load."""
    undeclared, declared = edge_tables
    for model in EMPTY_INPUT:
        assert undeclared[model] == []
        assert len(declared[model]) > 100


def test_edge_models_show_what_they_promise(spark, edge_tables):
    codes = {
        name: {r.JoinType for r in spark.table(f"inc_join_it.{name}").select("JoinType").distinct().collect()}
        for name in MODELS
    }
    assert codes["edge_empty_a_full"] == {6}  # every B row, unclaimed
    assert codes["edge_empty_b_full"] == {4}  # every A row timed out
    assert codes["edge_null_keys_full"] == {4, 6}  # a NULL key never matches
    assert codes["edge_start_after_end"] == set()  # an empty run, not an error


def test_null_arrivals_are_reported_by_the_recommended_test(project):
    with open(PROJECT / "seeds" / "gen_a.csv", newline="") as seed:
        null_arrivals = sum(1 for row in csv.DictReader(seed) if not row["RecDate"])
    result = project.invoke("test", "--select", "gen_a,test_name:not_null")
    [found] = result.result.results
    assert (str(found.status), found.failures) == ("warn", null_arrivals)
    assert null_arrivals > 0
