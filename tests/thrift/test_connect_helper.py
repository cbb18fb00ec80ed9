"""The Spark Connect submission helper on its own (no server): where the URL comes from, which profiles use it
by default, and the clear error in a process that already runs a classic SparkSession."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from dbt_inc_join.orchestration.python_models.connect import SUBMISSION_METHOD, connect_session, connect_url


def test_the_model_config_wins_over_spark_remote():
    config = {"spark_connect_url": "sc://cluster:15002"}
    assert connect_url(config, environ={"SPARK_REMOTE": "sc://other:1"}) == "sc://cluster:15002"
    assert connect_url({"spark_connect_url": ""}, environ={"SPARK_REMOTE": "sc://other:1"}) == "sc://other:1"


def test_meta_wins_over_the_plain_config_key_and_blank_values_fall_through():
    both = {"meta": {"spark_connect_url": "sc://meta:15002"}, "spark_connect_url": "sc://plain:15002"}
    assert connect_url(both, environ={"SPARK_REMOTE": "sc://env:1"}) == "sc://meta:15002"
    blank_meta = {"meta": {"spark_connect_url": "  "}, "spark_connect_url": "sc://plain:15002"}
    assert connect_url(blank_meta, environ={}) == "sc://plain:15002"
    assert connect_url({"meta": {"owner": "x"}}, environ={"SPARK_REMOTE": "sc://env:1"}) == "sc://env:1"


def test_a_missing_or_malformed_url_is_one_clear_error():
    with pytest.raises(
        ValueError,
        match=r"inc_join: Python model model\.p\.m runs through Spark Connect .* no "
        r"Connect URL is set\. Set meta spark_connect_url in the model config",
    ):
        connect_url({}, "model.p.m", environ={})
    with pytest.raises(ValueError, match=r"spark_connect_url must be a Spark Connect URL 'sc://host:port"):
        connect_url({"spark_connect_url": "http://cluster:15002"}, environ={})


def test_thrift_profiles_default_to_spark_connect_and_session_profiles_stay_in_process():
    from dbt.adapters.spark.impl import SparkAdapter

    import dbt_inc_join  # noqa: F401  (registers the helpers)

    def adapter(method):
        return SimpleNamespace(config=SimpleNamespace(credentials=SimpleNamespace(method=method)))

    default = SparkAdapter.default_python_submission_method.fget
    assert default(adapter("thrift")) == SUBMISSION_METHOD
    assert default(adapter("session")) == "session"
    assert default(adapter("http")) == "all_purpose_cluster"  # Databricks: dbt-spark's own helpers
    helpers = SparkAdapter.python_submission_helpers.fget(adapter("http"))
    assert {"session", SUBMISSION_METHOD, "all_purpose_cluster", "job_cluster"} <= set(helpers)


def test_no_connect_session_next_to_a_classic_one(spark):
    """pyspark keeps one mode per process: the helper says so instead of pyspark's SESSION_ALREADY_EXIST."""
    with pytest.raises(RuntimeError, match="already runs a classic .*SparkSession.* in a process of its own"):
        connect_session("sc://127.0.0.1:1")
    assert "SPARK_CONNECT_MODE_ENABLED" not in os.environ  # the classic session is untouched
    assert spark.range(3).count() == 3


def test_model_code_errors_reach_dbt_as_one_message_for_both_helpers():
    """The session and spark_connect helpers share run_model_code: inc_join's own argument errors arrive as the
    sentence alone, other errors with their traceback."""
    from dbt_common.exceptions import DbtRuntimeError

    from dbt_inc_join.orchestration.python_models.submission import run_model_code

    with pytest.raises(DbtRuntimeError) as own:
        run_model_code('    raise ValueError("inc_join: how must be one of ...")', spark=None, name="model.p.m")
    assert str(own.value).endswith("inc_join: how must be one of ...")
    assert "Traceback" not in str(own.value)
    # inc_join_many's checks, and any message of the package's macros (a refused run, on_restated_input='fail')
    many = "raise ValueError(\"inc_join_many: input 'pay' has no join_cols.\")"
    macro = "from dbt_inc_join.sql_text import MacroError\nraise MacroError('inc_join m: restated units ...')"
    for code, sentence in ((many, "inc_join_many: input 'pay' has no join_cols."), (macro, "inc_join m: restated")):
        with pytest.raises(DbtRuntimeError) as caught:
            run_model_code("    " + code, spark=None, name="model.p.m")
        assert sentence in str(caught.value) and "Traceback" not in str(caught.value), code
    # a public function's unknown keyword: its message leads with the function's name
    typo = "from dbt_inc_join import inc_join_model\ninc_join_model(None, None, None, look_back_tim=2)"
    with pytest.raises(DbtRuntimeError) as unknown:
        run_model_code("    " + typo, spark=None, name="model.p.m")
    assert "inc_join_model: unknown argument 'look_back_tim'; accepted arguments: dbt, " in str(unknown.value)
    assert "Did you mean 'look_back_time'?" in str(unknown.value) and "Traceback" not in str(unknown.value)
    with pytest.raises(DbtRuntimeError) as other:
        run_model_code("    spark.table('x')", spark=None, name="model.p.m")
    assert "Python model failed" in str(other.value) and "<dbt python model model.p.m>" in str(other.value)
