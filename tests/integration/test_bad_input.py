"""spec §7 for the SQL macro (and the Python model): each bad argument or input fails its model with one exact
message naming the parameter, and the other models still run. The same cases for the core are in
tests/core/test_validation.py; both read tests/bad_input_cases.py, the one table of the cases (the models are
integration_tests/models/error_cases/)."""

from __future__ import annotations

import re

import pytest

from tests.bad_input_cases import DBT_COMPILED, DBT_EXACT, DBT_STARTS

from .pipeline import LAST_DAY

pytestmark = pytest.mark.dbt

ERROR_CASES = {"inc_join_error_cases": True}


def inc_join_message(text: str) -> str:
    """The inc_join line of dbt's error (dbt adds the model's name and the macro call stack around it), without
    its `inc_join: ` (inc_join_many's own messages keep their `inc_join_many: `)."""
    found = re.findall(r"^\s*(inc_join(?:_many)?: .*)$", text, re.M)
    assert len(found) == 1, text
    return found[0].removeprefix("inc_join: ")


@pytest.fixture(scope="module")
def failures(project):
    """One dbt run of every error-case model (each fails on its own) and one compile for the microbatch one."""
    result = project.invoke(
        "run",
        "--select",
        "+error_cases",
        "--exclude",
        "bad_batch_finer_than_unit",
        vars=ERROR_CASES,
        today=LAST_DAY,
        expect_success=False,
    )
    statuses = {r.node.name: (str(r.status), r.message) for r in result.result.results}
    for name in DBT_COMPILED:
        compiled = project.invoke("compile", "--select", name, vars=ERROR_CASES, today=LAST_DAY, expect_success=False)
        statuses[name] = ("error", str(compiled.exception))
    return statuses


@pytest.mark.parametrize("model, message", sorted({**DBT_EXACT, **DBT_COMPILED}.items()))
def test_bad_model_fails_with_one_exact_message(failures, model, message):
    status, text = failures[model]
    assert status == "error"
    assert inc_join_message(text) == message
    assert "Traceback" not in text and "Exception" not in text


@pytest.mark.parametrize("model, start", sorted(DBT_STARTS.items()))
def test_bad_model_fails_with_one_message_ending_in_sparks_words(failures, model, start):
    status, text = failures[model]
    assert status == "error"
    assert inc_join_message(text).startswith(start) and "no_such_function" in inc_join_message(text)[len(start) :]
    assert "Traceback" not in text


def test_every_error_case_model_is_checked(failures):
    """A new model in error_cases/ needs its expected message here; the typed inputs still build, and so does the
    ledger's model, which bad_append_recorded's post-hook record_run depends on."""
    built = {"typed_a", "typed_b", "stg_gen_a", "stg_gen_b", "dbt_inc_join_runs"}
    checked = set(DBT_EXACT) | set(DBT_STARTS) | set(DBT_COMPILED) | built
    assert set(failures) == checked
    assert all(failures[name][0] == "success" for name in ("typed_a", "typed_b", "dbt_inc_join_runs"))
