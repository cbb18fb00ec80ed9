"""Python models under dbt-spark ``method: session``: run the compiled model in dbt's own SparkSession.

dbt-spark 1.11 only ships Databricks submission helpers, so out of the box a Python model fails in session
mode. dbt-core imports every installed top-level ``dbt_*`` module when it loads a project; importing
``dbt_inc_join`` calls :func:`register`, which adds a ``session`` helper to dbt-spark's adapter and makes it
the default for session profiles. Nothing happens when dbt-spark is not installed.
"""
from __future__ import annotations

import traceback
from typing import Any, Dict

SUBMISSION_METHOD = "session"


def _strip_first_indent(code: str) -> str:
    """The materialization renders the script indented (``    {{ create_table_as(...) }}``); exec needs its
    first statement at column 0. Line numbers stay as in target/run."""
    lines = code.split("\n")
    for index, line in enumerate(lines):
        if line.strip():
            lines[index] = line.lstrip()
            break
    return "\n".join(lines)


def python_model_failure(error: BaseException) -> str:
    """What dbt reports for a failed Python model: inc_join's own argument errors are complete sentences
    (SPEC §7: one clear message), anything else keeps its traceback for debugging the model's code."""
    if isinstance(error, (ValueError, TypeError)) and str(error).startswith("inc_join: "):
        return str(error)
    return f"Python model failed: {error}\n{traceback.format_exc()}"


def register() -> bool:
    """Patch dbt-spark's SparkAdapter once; True when the ``session`` helper is available."""
    try:
        from dbt.adapters.base import PythonJobHelper
        from dbt.adapters.spark.impl import SparkAdapter
    except Exception:  # dbt-spark absent or incompatible: other adapters stay untouched
        return False
    if getattr(SparkAdapter, "_inc_join_session_helper", False):
        return True

    class SessionPythonJobHelper(PythonJobHelper):
        """exec() the compiled model code in the in-process SparkSession that dbt's SQL uses."""

        def __init__(self, parsed_model: Dict, credentials: Any) -> None:
            self.parsed_model = parsed_model
            self.credentials = credentials

        def submit(self, compiled_code: str) -> Any:
            from dbt_common.exceptions import DbtRuntimeError
            from pyspark.sql import SparkSession

            # The same builder dbt-spark's session cursor uses, hence the very same session.
            builder = SparkSession.builder.enableHiveSupport()
            for key, value in (self.credentials.server_side_parameters or {}).items():
                builder = builder.config(key, value)
            spark = builder.getOrCreate()
            name = f"<dbt python model {self.parsed_model.get('unique_id', self.parsed_model.get('alias'))}>"
            namespace: Dict[str, Any] = {"__name__": "__dbt_python_model__", "spark": spark}
            try:
                exec(compile(_strip_first_indent(compiled_code), name, "exec"), namespace)
            except Exception as error:
                raise DbtRuntimeError(python_model_failure(error)) from error
            return None

    helpers = SparkAdapter.python_submission_helpers
    default_method = SparkAdapter.default_python_submission_method

    def python_submission_helpers(self) -> Dict[str, Any]:
        return {**helpers.fget(self), SUBMISSION_METHOD: SessionPythonJobHelper}

    def default_python_submission_method(self) -> str:
        method = getattr(getattr(getattr(self, "config", None), "credentials", None), "method", None)
        if str(getattr(method, "value", method)) == "session":
            return SUBMISSION_METHOD
        return default_method.fget(self)

    SparkAdapter.python_submission_helpers = property(python_submission_helpers)
    SparkAdapter.default_python_submission_method = property(default_python_submission_method)
    SparkAdapter._inc_join_session_helper = True
    return True
