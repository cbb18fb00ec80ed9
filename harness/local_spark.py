"""The embedded local Spark used by the demo, the tests and the benchmark.

A session keeps its warehouse and Derby metastore in one directory. Derby allows one JVM at a time, so
concurrent Spark processes need different directories. The settings match the integration project's dbt
profile (integration_tests/profiles.yml), so dbt-spark's ``method: session`` reuses a session started here.
"""

from __future__ import annotations

import os
from pathlib import Path

LOG_CONFIG = Path(__file__).resolve().parent / "log4j2.properties"


def local_spark_session(state_dir: Path, hive: bool = True):
    """A local[2] SparkSession with few shuffle partitions, UTC session time zone, no UI, and only errors on the
    console: warnings go to ``<state_dir>/spark.log`` (harness/log4j2.properties)."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    state = Path(state_dir).resolve()
    state.mkdir(parents=True, exist_ok=True)
    jvm_flags = os.environ.get(
        "INC_JOIN_JVM_FLAGS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ReservedCodeCacheSize=256m"
    )
    builder = (
        SparkSession.builder.master("local[2]")
        .appName("inc_join")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", str(state / "warehouse"))
        .config(
            "spark.driver.extraJavaOptions",
            f"-Dderby.system.home={state} {jvm_flags} "
            f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()} -Dinc_join.log.dir={state}",
        )
        .config(
            "spark.hadoop.javax.jdo.option.ConnectionURL",
            f"jdbc:derby:;databaseName={state / 'metastore_db'};create=true",
        )
    )
    return (builder.enableHiveSupport() if hive else builder).getOrCreate()
