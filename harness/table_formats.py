"""The table formats of the embedded Spark: Delta Lake and Iceberg in the session catalog (spec §16).

``INC_JOIN_TABLE_FORMAT`` (``delta`` or ``iceberg``; unset: parquet) picks the format of a test run: the
session gets the format's jars (copied by ``make jars`` from jars/pom.xml into ``.jars/<format>-spark<x.y>/``),
its SQL extension and its ``spark_catalog``, and the integration project writes its tables in that format. Both
formats want ``spark_catalog``, so a session has one of them. The same settings are a user's profile lines
(README, "Delta Lake and Iceberg"), except the ``EMBEDDED_METASTORE`` lines, which only the embedded Derby
metastore of these tests needs.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
JARS = REPO / ".jars"
FORMATS = ("delta", "iceberg")

# What a user's profile sets for each format (server_side_parameters, besides spark.jars).
SESSION_SETTINGS = {
    "delta": {
        "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
    },
    "iceberg": {
        "spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        "spark.sql.catalog.spark_catalog": "org.apache.iceberg.spark.SparkSessionCatalog",
        "spark.sql.catalog.spark_catalog.type": "hive",
    },
}
# Iceberg's Hive catalog opens a metastore client of its own. Against the tests' embedded Derby it needs what
# Spark's own client sets for itself (the schema created on first use, a connection pool pyspark ships), and it
# commits without Hive's lock tables, which an embedded Derby metastore does not have (a real metastore has them).
EMBEDDED_METASTORE = {
    "iceberg": {
        "spark.hadoop.datanucleus.schema.autoCreateAll": "true",
        "spark.hadoop.hive.metastore.schema.verification": "false",
        "spark.hadoop.datanucleus.connectionPoolingType": "HikariCP",
        "spark.hadoop.iceberg.engine.hive.lock-enabled": "false",
    },
}


# Delta rebuilds a table's state from its log in spark.databricks.delta.snapshotPartitions tasks (default 50): on
# local[2] with the tests' small tables that is most of a statement's time (measured: an INSERT OVERWRITE 10.3 s ->
# 1.7 s, a count 8.3 s -> 1.0 s at load 7). Set as the session's shuffle partitions are.
SMALL_TABLES = {"delta": {"spark.databricks.delta.snapshotPartitions": "2"}}


def table_format() -> str | None:
    """The format of this run's tables: INC_JOIN_TABLE_FORMAT, or None for parquet."""
    chosen = os.environ.get("INC_JOIN_TABLE_FORMAT") or None
    if chosen is not None and chosen not in FORMATS:
        raise ValueError(f"INC_JOIN_TABLE_FORMAT must be one of {', '.join(FORMATS)} or unset (got {chosen!r}).")
    return chosen


def spark_line() -> str:
    """The installed pyspark's major.minor version, e.g. '4.1' (the jars are built per Spark line)."""
    import pyspark

    return ".".join(pyspark.__version__.split(".")[:2])


def format_jars(chosen: str, line: str) -> list[Path]:
    """The jars of a format for a Spark line, as `make jars` copied them."""
    folder = JARS / f"{chosen}-spark{line}"
    jars = sorted(folder.glob("*.jar"))
    if not jars:
        raise FileNotFoundError(f"No {chosen} jars for Spark {line} in {folder}: run `make jars` first.")
    return jars


def format_settings(chosen: str | None) -> dict[str, str]:
    """The session settings of a format (none for parquet): its jars, extension, catalog, embedded-metastore lines."""
    if chosen is None:
        return {}
    jars = ",".join(str(jar) for jar in format_jars(chosen, spark_line()))
    return {
        "spark.jars": jars,
        **SESSION_SETTINGS[chosen],
        **EMBEDDED_METASTORE.get(chosen, {}),
        **SMALL_TABLES.get(chosen, {}),
    }
