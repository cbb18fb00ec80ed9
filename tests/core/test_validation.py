"""spec §7 and issue 6: every bad argument or input gets one exact message naming the parameter, raised
before any Spark job runs. The cases are tests/bad_input_cases.py, the one table of both languages (the SQL
macro's run in tests/integration/test_bad_input.py)."""

from __future__ import annotations

import pytest

from dbt_inc_join import inc_join
from tests.bad_input_cases import CORE


@pytest.fixture(scope="module")
def frames(spark):
    """Two one-row inputs whose columns of the same name differ in type where a case needs it: B's `ts` is a
    STRING, its `text_day` an INT, its `key_text` an INT and its `key_day` a TIMESTAMP."""
    df_a = spark.sql(
        "SELECT 1 AS k, DATE'2025-03-06' AS RecDate, TIMESTAMP'2025-03-06 10:00:00' AS ts, "
        "'2025-03-06' AS text_day, 5 AS amount, 'x1' AS key_text, DATE'2025-03-06' AS key_day, "
        "map('a', 1) AS key_map"
    )
    df_b = spark.sql(
        "SELECT 1 AS k, DATE'2025-03-06' AS RecDate, '2025-03-06 10:00:00' AS ts, "
        "20250306 AS text_day, 'x' AS status, 1 AS key_text, TIMESTAMP'2025-03-06 00:00:00' AS key_day, "
        "map('a', 1) AS key_map"
    )
    return df_a, df_b


@pytest.mark.parametrize("kwargs, error, message", [c[1:] for c in CORE], ids=[c[0] for c in CORE])
def test_bad_argument_gets_one_exact_message_before_any_spark_job(spark, frames, kwargs, error, message):
    arguments = dict(join_cols="k", output_window_start="2025-03-01", output_window_end="2025-03-31")
    arguments.update(kwargs)
    group = f"validation-{abs(hash(message))}"
    spark.sparkContext.setJobGroup(group, "validation must not run jobs")
    try:
        with pytest.raises(error) as caught:
            inc_join(*frames, **arguments)
    finally:
        spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
    assert str(caught.value) == message
    assert list(spark.sparkContext.statusTracker().getJobIdsForGroup(group)) == []


def test_inputs_must_be_dataframes(frames):
    with pytest.raises(TypeError) as caught:
        inc_join(frames[0], [], join_cols="k")
    assert str(caught.value) == "inc_join: df_b must be a pyspark DataFrame (got list)."


# --- the arguments table (src/dbt_inc_join/tables/shared_tables.py) is the one source of names and defaults ---


@pytest.mark.parametrize("entry", ["inc_join", "inc_join_model", "inc_join_many", "inc_join_many_model"])
def test_the_python_signatures_take_the_tables_arguments_with_its_defaults(entry):
    """docs/python-api.md is the contract; the table must say the same, so the macros (which read the table's
    generated copy) and the Python entry points cannot drift."""
    import inspect

    import dbt_inc_join
    from dbt_inc_join.tables.shared_tables import ARGUMENTS

    parameters = inspect.signature(getattr(dbt_inc_join, entry)).parameters.values()
    keywords = [p for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY]
    rows = [row for row in ARGUMENTS if entry in row["entries"]]
    assert [p.name for p in keywords] == [row["name"] for row in rows]
    for parameter, row in zip(keywords, rows, strict=True):
        expected = inspect.Parameter.empty if row["required"] else row["default"]
        assert parameter.default == expected, parameter.name


@pytest.mark.parametrize("entry", ["inc_join", "inc_join_model"])
def test_the_entry_points_pass_every_join_argument_on_by_name(entry):
    """inc_join and inc_join_model name each argument of one join in their call of prepare_join, as ``name=name``
    and in the table's order: none is left at its default by mistake."""
    import ast
    import inspect
    import textwrap

    import dbt_inc_join
    from dbt_inc_join.plan.validation import JOIN_ARGUMENTS

    tree = ast.parse(textwrap.dedent(inspect.getsource(getattr(dbt_inc_join, entry))))
    [call] = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "prepare_join"
    ]
    passed = [(k.arg, k.value.id if isinstance(k.value, ast.Name) else None) for k in call.keywords]
    assert passed == [(name, name) for name in JOIN_ARGUMENTS]


def test_the_tables_rules_name_the_python_values():
    from dbt_inc_join.sql_text.time_units import TimeUnit
    from dbt_inc_join.tables.join_types import HOW_VALUES, PARTNER_VALUES
    from dbt_inc_join.tables.shared_tables import ARGUMENTS, ON_RESTATED_INPUT_VALUES, TIME_UOM_VALUES

    assert tuple(unit.value for unit in TimeUnit) == TIME_UOM_VALUES
    accepted = {row["name"]: row["accepted"] for row in ARGUMENTS if row["check"] == "choice"}
    assert accepted == {
        "how": HOW_VALUES,
        "time_uom": TIME_UOM_VALUES,
        "partner": PARTNER_VALUES,
        "on_restated_input": ON_RESTATED_INPUT_VALUES,
    }
    assert ON_RESTATED_INPUT_VALUES == ("warn", "fail", "redo")


def test_check_parameters_takes_the_join_arguments_at_their_defaults():
    from dbt_inc_join.plan.validation import JOIN_ARGUMENTS, check_parameters

    params = check_parameters(join_cols="k")
    assert (params.how, params.look_back_time, params.partner, params.suffixes) == ("left", 0, "all", ("_A", "_B"))
    assert "output_window_start" not in JOIN_ARGUMENTS and "max_window_units" not in JOIN_ARGUMENTS
    with pytest.raises(TypeError, match="unknown arguments colour"):
        check_parameters(join_cols="k", colour="red")


def test_every_check_the_macros_name_has_its_exception_in_the_table():
    """Each check's message is written once, in its macro; the macro's _fail names the check, and the core raises
    the exception CHECK_ERRORS names for it (plan/validation.py). No check without a type, no type for nothing."""
    import re
    from pathlib import Path

    from dbt_inc_join.tables.shared_tables import CHECK_ERRORS

    macros = Path(__file__).resolve().parents[2] / "macros"
    named = set()
    for path in macros.rglob("*.sql"):
        named |= set(re.findall(r"_fail(?:_many)?\(.*?,\s*'(\w+)',\s*spelling\) }}", path.read_text(), re.S))
    assert named == set(CHECK_ERRORS)
    assert set(CHECK_ERRORS.values()) == {"TypeError", "ValueError"}


@pytest.mark.parametrize(
    "value, python, sql",
    [
        ("2", "str '2'", "'2'"),
        ([0], "list [0]", "[0]"),
        (None, "NoneType None", "None"),
        ("it's", 'str "it\'s"', "'it's'"),
    ],
)
def test_a_refused_value_is_spelled_per_language(value, python, sql):
    from dbt_inc_join.sql_text import render

    assert (render("_typed", value, "python"), render("_typed", value)) == (python, sql)


def test_an_arrival_column_left_at_its_default_is_named_in_the_message(frames):
    """Inputs without RecDate and no inc_col: the message names inc_col's default and a date column to give."""
    df_a, df_b = (df.withColumnRenamed("RecDate", "load_date") for df in frames)
    with pytest.raises(ValueError) as caught:
        inc_join(df_a, df_b, join_cols="k")
    assert str(caught.value) == (
        "inc_join: inc_col column 'RecDate' is missing from df_a; its columns are 'k', 'load_date', 'ts', 'text_day', "
        "'amount', 'key_text', 'key_day', 'key_map'. inc_col names the arrival column, 'RecDate' unless given: e.g. "
        "inc_col='load_date'."
    )


def test_a_keyword_a_function_does_not_take_gets_the_package_s_message_with_the_nearest_name():
    """As a SQL macro's call says it (_unknown_argument_message), before anything runs: no DataFrame needed."""
    from dbt_inc_join import inc_join_many

    with pytest.raises(TypeError) as caught:
        inc_join(None, None, join_cols="k", look_back_tim=1)
    text = str(caught.value)
    assert text.startswith("inc_join: unknown argument 'look_back_tim'; accepted arguments: df_a, df_b, join_cols, ")
    assert text.endswith(", join_cond. Did you mean 'look_back_time'?"), text
    with pytest.raises(TypeError) as caught:
        inc_join_many(None, [], windows=1)
    assert str(caught.value) == (
        "inc_join_many: unknown argument 'windows'; accepted arguments: a, inputs, output_window_start, "
        "output_window_end, time_uom, include_waiting, output_select."
    )
