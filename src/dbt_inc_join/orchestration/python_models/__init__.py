"""The dbt glue of inc_join (with macros/orchestration/create_table_as.sql and macros/io/_py_writer.sql).

- ``model``: ``inc_join_model``, the body of a dbt Python model (its window comes from dbt's state);
- ``submission``: ``BaseInProcessHelper``, the base class of the two dbt-spark submission helpers, which run a
  Python model's code in dbt's own process: ``session.SessionHelper`` in dbt's SparkSession
  (``method: session``), ``connect.SparkConnectHelper`` through Spark Connect (``method: thrift``);
- ``metastore``: a second process on the embedded profile's state directory stops in seconds, with one line.

Importing this subpackage is cheap and needs no pyspark; only ``model`` imports pyspark.
"""

from __future__ import annotations


def register() -> bool:
    """Add the ``session`` and ``spark_connect`` helpers to dbt-spark, each the default for its profile method,
    and the embedded metastore's check (metastore.py); True when all are available. Nothing happens when dbt or
    dbt-spark is absent (other adapters stay untouched)."""
    try:
        from .connect import SparkConnectHelper
        from .metastore import install_metastore_check
        from .session import SessionHelper
        from .submission import install_submission_helper
    except Exception:  # dbt absent or incompatible: nothing to register
        return False
    installed = [
        install_submission_helper(helper.submission_method, helper, helper.profile_method)
        for helper in (SessionHelper, SparkConnectHelper)
    ]
    return all(installed) and install_metastore_check()
