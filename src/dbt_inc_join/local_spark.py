"""The embedded local Spark used by the demo, the tests and the benchmark.

Each session gets its own warehouse and Derby metastore under ``<state_root>/<name>``: Derby allows one JVM
at a time, so concurrent Spark processes must not share one.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


def local_spark_session(name: str, state_root: Optional[Path] = None):
    """A local[2] SparkSession with few shuffle partitions, UTC session time zone, no UI and quiet logs.

    ``state_root`` defaults to ``./.spark-state`` in the current directory."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    state = (state_root or Path.cwd() / ".spark-state").resolve() / name
    state.mkdir(parents=True, exist_ok=True)
    jvm_flags = os.environ.get("INC_JOIN_JVM_FLAGS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
    java_options = f"-Dderby.system.home={state} {jvm_flags}"
    session = (
        SparkSession.builder.master("local[2]")
        .appName(f"inc_join-{name}")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", str(state / "warehouse"))
        .config("spark.driver.extraJavaOptions", java_options)
        .config("spark.hadoop.javax.jdo.option.ConnectionURL",
                f"jdbc:derby:;databaseName={state / 'metastore_db'};create=true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    return session
