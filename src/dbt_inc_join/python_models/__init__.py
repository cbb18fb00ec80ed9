"""The dbt glue of inc_join (the Python side of the dbt package's macros/python_models/).

- ``model``: ``inc_join_model``, the body of a dbt Python model (its window comes from dbt's state);
- ``submission``, ``session``, ``connect``: dbt-spark submission helpers that run Python models in dbt's own
  SparkSession (``method: session``) or through Spark Connect (``method: thrift``).

Importing this subpackage is cheap and needs no pyspark; only ``model`` imports pyspark.
"""
