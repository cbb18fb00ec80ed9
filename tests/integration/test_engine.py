"""What differs by engine: the ANSI mode of the run (INC_JOIN_ANSI, tests/conftest.py) reaches the statements dbt
runs (the SQL of a model and the code of a Python model, each probed inside the model itself), and the checks
that let Spark analyse an argument read its refusal as the engine words it."""

from __future__ import annotations

import pytest

from tests.bad_input_cases import DBT_EXACT, DBT_STARTS

from ..conftest import ansi_setting
from .pipeline import LAST_DAY
from .test_bad_input import ERROR_CASES, inc_join_message

pytestmark = pytest.mark.dbt


def test_ansi_mode_reaches_dbt_sql_and_python_models(project):
    project.invoke("run", "--select", "engine_probe", "engine_probe_py")
    ansi = ansi_setting() or "false"  # unset: dbt-spark 1.11's own setting
    for name in ("engine_probe", "engine_probe_py"):
        row = project.table(name).first()
        assert (row.ansi_conf, row.size_of_null) == (ansi, None if ansi == "true" else -1), name


# the SQL macro's checks that EXPLAIN a probe over the inputs (no data read): Spark 4 writes a refusal after
# `Error occurred during query planning:`, Spark 3.5 as the exception under `== Physical Plan ==`
SPARK_ANALYSED = ("bad_aggregate_unknown_column", "bad_aggregate_not_aggregate", "bad_aggregate_unknown_function",
                  "bad_join_cond_spark_error")  # fmt: skip


def test_arguments_spark_analyses_fail_with_their_message_on_this_engine(project):
    result = project.invoke("run", "--select", *(f"+{name}" for name in SPARK_ANALYSED), vars=ERROR_CASES,
                            today=LAST_DAY, expect_success=False)  # fmt: skip
    messages = {r.node.name: str(r.message) for r in result.result.results if r.node.name in SPARK_ANALYSED}
    assert sorted(messages) == sorted(SPARK_ANALYSED), messages
    for name, text in messages.items():
        said = inc_join_message(text)
        assert said == DBT_EXACT[name] if name in DBT_EXACT else said.startswith(DBT_STARTS[name]), (name, text)
