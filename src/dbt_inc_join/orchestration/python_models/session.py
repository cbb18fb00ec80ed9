"""Python models under dbt-spark ``method: session``: run the compiled model in dbt's own SparkSession.

dbt-spark 1.11 only ships Databricks submission helpers, so out of the box a Python model fails in session
mode. dbt-core imports every installed top-level ``dbt_*`` module when it loads a project; importing
``dbt_inc_join`` registers :class:`SessionHelper` (``python_models.register``) as dbt-spark's ``session``
helper, the default for session profiles. Nothing happens when dbt-spark is not installed.
"""

from __future__ import annotations

from typing import Any

from .submission import BaseInProcessHelper

SUBMISSION_METHOD = "session"


class SessionHelper(BaseInProcessHelper):
    """exec() the compiled model code in the in-process SparkSession that dbt's SQL uses."""

    submission_method = SUBMISSION_METHOD
    profile_method = "session"
    shares_dbt_session = True

    def spark_session(self) -> Any:
        from pyspark.sql import SparkSession

        # The same builder dbt-spark's session cursor uses, hence the very same session.
        builder = SparkSession.builder.enableHiveSupport()
        for key, value in (self.credentials.server_side_parameters or {}).items():
            builder = builder.config(key, value)
        spark = builder.getOrCreate()
        # dbt runs each model in a thread of its own, and Spark keeps the active session per JVM thread: without
        # one there, a DataFrame write resolves the session catalog apart from this session, and with Delta Lake's
        # catalog as spark_catalog a parquet table's saveAsTable fails ("does not support REPLACE TABLE AS SELECT")
        jvm = spark._jvm
        if jvm is not None:
            jvm.org.apache.spark.sql.SparkSession.setActiveSession(spark._jsparkSession)
        return spark
