"""What the package's dbt-spark Python submission helpers share: their base class, running a compiled model's
code in a given SparkSession, reporting its failure, and adding a helper to dbt-spark's adapter.

dbt-spark 1.11 only ships Databricks submission helpers (``BaseDatabricksHelper`` and its subclasses, which
upload the code to a cluster). The helpers here run the code in dbt's own Python process instead; each
(``SessionHelper`` in session.py, ``SparkConnectHelper`` in connect.py) differs only in where its SparkSession
comes from. This module imports dbt (``PythonJobHelper``), never pyspark.
"""

from __future__ import annotations

import re
import traceback
from typing import Any

from dbt.adapters.base import PythonJobHelper

from ...sql_text.macros import MacroError


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
    """What dbt reports for a failed Python model: inc_join's own errors are complete sentences (spec §7: one
    clear message), its argument checks' (``inc_join: ``, ``inc_join_many: ``) and every message of its macros
    (MacroError: a refused run, restated inputs with on_restated_input='fail'); anything else keeps its traceback
    for debugging the model's code."""
    # inc_join: and inc_join_many: lead the checks' messages; a public function's own name (inc_join_model:) an
    # unknown keyword's
    own = isinstance(error, (ValueError, TypeError)) and re.match(r"inc_join\w*: ", str(error)) is not None
    if own or isinstance(error, MacroError):
        return str(error)
    return f"Python model failed: {error}\n{traceback.format_exc()}"


def model_name(parsed_model: dict[str, Any]) -> str:
    """The model's unique id (its alias when dbt gives none), for messages."""
    return str(parsed_model.get("unique_id") or parsed_model.get("alias") or "this model")


def run_model_code(compiled_code: str, spark: Any, name: str, shares_dbt_session: bool = False) -> None:
    """exec() the compiled model code with ``spark`` in its namespace, as dbt's Databricks helpers do remotely;
    a failure becomes one DbtRuntimeError with python_model_failure's text. ``shares_dbt_session``: ``spark`` is
    the session dbt's SQL statements run in."""
    from dbt_common.exceptions import DbtRuntimeError

    # _inc_join_in_process: the writer's code (macros/io/_py_writer.sql) runs on Spark outside Databricks;
    # _inc_join_shares_session: it hands the run's record to record_run in the session's settings, not as a table
    # property (which Delta would commit: an empty window would then commit to the model's table)
    namespace: dict[str, Any] = {"__name__": "__dbt_python_model__", "spark": spark, "_inc_join_in_process": True,
                                 "_inc_join_shares_session": shares_dbt_session}  # fmt: skip
    try:
        exec(compile(_strip_first_indent(compiled_code), f"<dbt python model {name}>", "exec"), namespace)
    except Exception as error:
        raise DbtRuntimeError(python_model_failure(error)) from error


class BaseInProcessHelper(PythonJobHelper):
    """A dbt-spark submission helper that exec()s the compiled model code in this process, against the
    SparkSession its subclass provides. ``submission_method``: the name models select it by
    (``submission_method: <name>``); ``profile_method``: the profile ``method`` it is the default for."""

    submission_method: str = ""
    profile_method: str = ""
    shares_dbt_session: bool = False
    session_per_run: bool = False  # spark_session() opens one for this run, stopped when it ends

    def __init__(self, parsed_model: dict, credentials: Any) -> None:
        self.parsed_model = parsed_model
        self.credentials = credentials
        self.name = model_name(parsed_model)

    def spark_session(self) -> Any:
        """The SparkSession the model code runs in (its ``spark`` variable)."""
        raise NotImplementedError("an inc_join submission helper says where its SparkSession comes from")

    def submit(self, compiled_code: str) -> Any:
        spark = self.spark_session()
        try:
            run_model_code(compiled_code, spark, self.name, self.shares_dbt_session)
        finally:
            if self.session_per_run:
                spark.stop()
        return None


def install_submission_helper(method: str, helper: type, profile_method: str) -> bool:
    """Add ``helper`` to dbt-spark's SparkAdapter as submission method ``method``, the default for profiles of
    ``method: <profile_method>`` (other profiles keep dbt-spark's default). Idempotent; False when dbt-spark is
    absent or incompatible (other adapters stay untouched)."""
    try:
        from dbt.adapters.spark.impl import SparkAdapter
    except Exception:
        return False
    adapter: Any = SparkAdapter  # its properties are replaced below, which its declared types do not allow
    installed = adapter.__dict__.get("_inc_join_helpers", {})
    if method in installed:
        return True
    helpers = adapter.python_submission_helpers
    default_method = adapter.default_python_submission_method

    def python_submission_helpers(self) -> dict[str, Any]:
        return {**helpers.fget(self), method: helper}

    def default_python_submission_method(self) -> str:
        credentials_method = getattr(getattr(getattr(self, "config", None), "credentials", None), "method", None)
        if str(getattr(credentials_method, "value", credentials_method)) == profile_method:
            return method
        return default_method.fget(self)

    adapter.python_submission_helpers = property(python_submission_helpers)
    adapter.default_python_submission_method = property(default_python_submission_method)
    adapter._inc_join_helpers = {**installed, method: helper}
    return True
