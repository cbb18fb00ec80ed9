"""Python models under dbt-spark ``method: session``: run the compiled model in dbt's own SparkSession.

dbt-spark 1.11 only ships Databricks submission helpers, so out of the box a Python model fails in session
mode. dbt-core imports every installed top-level ``dbt_*`` module when it loads a project; importing
``dbt_inc_join`` calls :func:`register`, which adds a ``session`` helper to dbt-spark's adapter and makes it
the default for session profiles. Nothing happens when dbt-spark is not installed.
"""
from __future__ import annotations

from typing import Any, Dict

from .submission import install_submission_helper, model_name, run_model_code

SUBMISSION_METHOD = "session"


def register() -> bool:
    """Add the ``session`` helper to dbt-spark (the default for ``method: session``); True when available."""
    try:
        from dbt.adapters.base import PythonJobHelper
    except Exception:  # dbt absent or incompatible: nothing to register
        return False

    class SessionPythonJobHelper(PythonJobHelper):
        """exec() the compiled model code in the in-process SparkSession that dbt's SQL uses."""

        def __init__(self, parsed_model: Dict, credentials: Any) -> None:
            self.parsed_model = parsed_model
            self.credentials = credentials

        def submit(self, compiled_code: str) -> Any:
            from pyspark.sql import SparkSession

            # The same builder dbt-spark's session cursor uses, hence the very same session.
            builder = SparkSession.builder.enableHiveSupport()
            for key, value in (self.credentials.server_side_parameters or {}).items():
                builder = builder.config(key, value)
            run_model_code(compiled_code, builder.getOrCreate(), model_name(self.parsed_model))
            return None

    return install_submission_helper(SUBMISSION_METHOD, SessionPythonJobHelper, profile_method="session")
