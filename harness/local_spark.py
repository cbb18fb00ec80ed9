"""The embedded local Spark used by the demo, the tests and the benchmark.

A session keeps its warehouse and Derby metastore in one directory. Derby allows one JVM at a time, so
concurrent Spark processes need different directories. The settings are those of the repository's dbt profiles
(integration_tests/profiles.yml, bench/dbt/profiles.yml), value for value: dbt-spark's ``method: session`` passes
the profile's ``server_side_parameters`` to ``SparkSession.builder`` before every statement, and Spark logs
"Using an existing Spark session; only runtime SQL configurations will take effect." each time one of them differs
from the running session's (tests/packaging/test_profiles.py keeps them equal).
"""

from __future__ import annotations

import os
from pathlib import Path

from .table_formats import format_settings, table_format

LOG_CONFIG = Path(__file__).resolve().parent / "log4j2.properties"
# The JVM flags of short runs (the integration profile's); the full benchmark sets INC_JOIN_JVM_FLAGS instead.
DEFAULT_JVM_FLAGS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ReservedCodeCacheSize=256m"


def local_spark_settings(state_dir: Path) -> dict[str, str]:
    """The session's settings, written as the profiles write them (the warehouse as the `file:` URI Spark keeps)."""
    state = Path(state_dir).resolve()
    jvm_flags = os.environ.get("INC_JOIN_JVM_FLAGS", DEFAULT_JVM_FLAGS)
    return {
        "spark.master": "local[2]",
        "spark.app.name": "inc_join",
        "spark.sql.shuffle.partitions": "2",
        "spark.default.parallelism": "2",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.warehouse.dir": f"file:{state}/warehouse",
        # the embedded Derby metastore in the state directory, or one that several processes share (a Derby network
        # server: INC_JOIN_METASTORE_URL and INC_JOIN_METASTORE_DRIVER, tests/formats/test_concurrent_runs.py)
        "spark.hadoop.javax.jdo.option.ConnectionURL": os.environ.get(
            "INC_JOIN_METASTORE_URL", f"jdbc:derby:;databaseName={state}/metastore_db;create=true"
        ),
        "spark.hadoop.javax.jdo.option.ConnectionDriverName": os.environ.get(
            "INC_JOIN_METASTORE_DRIVER", "org.apache.derby.jdbc.EmbeddedDriver"
        ),
        "spark.driver.extraJavaOptions": f"-Dderby.system.home={state} {jvm_flags}",
        # The embedded Derby metastore's direct SQL has failed a date partition filter now and then under load
        # (INTERNAL_ERROR_HIVE_METASTORE_PARTITION_FILTER, "The syntax of the string representation of a date/time
        # value is incorrect"); then Spark lists the partitions and filters them itself, as the error suggests. No
        # profile names it, so dbt-spark leaves the session's value as it is.
        "spark.sql.hive.metastorePartitionPruningFallbackOnException": "true",
        # Delta Lake or Iceberg when INC_JOIN_TABLE_FORMAT says so (harness/table_formats.py)
        **format_settings(table_format()),
    }


def evaluation_settings() -> dict[str, str]:
    """INC_JOIN_CODEGEN=interpreted: Spark evaluates plans and expressions without generating and compiling Java
    code for them (a mode Spark's own suites test in too). The same rows; the many small queries of the core and
    dbt legs on Spark 4 take 5-7 % less time. The other legs compile, as a user's Spark does (Makefile: the axes)."""
    chosen = os.environ.get("INC_JOIN_CODEGEN", "compiled")
    if chosen not in ("compiled", "interpreted"):
        raise ValueError(f"INC_JOIN_CODEGEN must be 'compiled' or 'interpreted', not {chosen!r}")
    if chosen == "compiled":
        return {}
    return {"spark.sql.codegen.wholeStage": "false", "spark.sql.codegen.factoryMode": "NO_CODEGEN"}


def local_spark_session(state_dir: Path, hive: bool = True):
    """A local[2] SparkSession with few shuffle partitions, UTC session time zone, no UI, and only errors on the
    console: warnings go to ``<state_dir>/spark.log`` (harness/log4j2.properties)."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    state = Path(state_dir).resolve()
    state.mkdir(parents=True, exist_ok=True)
    builder = SparkSession.builder
    for key, value in local_spark_settings(state).items():
        builder = builder.config(key, value)
    # The logging set-up goes in the JVM's other options entry, which no profile sets, so that the profiles'
    # spark.driver.extraJavaOptions stays equal to the session's.
    builder = builder.config(
        "spark.driver.defaultJavaOptions",
        f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()} -Dinc_join.log.dir={state}",
    )
    for key, value in evaluation_settings().items():
        builder = builder.config(key, value)
    return (builder.enableHiveSupport() if hive else builder).getOrCreate()
