"""The embedded profile's one-process limit, told in seconds (issue 71, docs/table-formats.md).

With ``method: session`` Spark's Hive metastore is an embedded Derby database, which one JVM at a time may boot:
Derby holds an operating-system lock on ``<database>/dbex.lck`` while it has the database open. A second dbt process
on the same state directory would otherwise retry inside Hive for minutes and end in thousands of lines of
``ERROR XSDB6``. Before dbt-spark opens a session connection, this module asks the operating system whether another
process holds that lock, and if so stops with one line. Imports no pyspark; nothing changes for other methods.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

URL_KEY = "spark.hadoop.javax.jdo.option.ConnectionURL"
# Hive's default when no URL is given: a database named metastore_db under Derby's home (the working directory)
DEFAULT_URL = "jdbc:derby:;databaseName=metastore_db;create=true"
SECTION = "docs/table-formats.md#two-processes-on-one-metastore"


def derby_home(parameters: Mapping[str, Any], cwd: Path) -> Path:
    """Where Derby resolves a relative database name: -Dderby.system.home in the driver's Java options, else the
    working directory."""
    options = str(parameters.get("spark.driver.extraJavaOptions") or "")
    found = re.search(r"-Dderby\.system\.home=(\S+)", options)
    return cwd / found.group(1) if found else cwd


def embedded_database(parameters: Mapping[str, Any], cwd: Path) -> Path | None:
    """The directory of the embedded Derby database the profile's metastore uses; None for a network server
    (``jdbc:derby://host...``) or any other database."""
    url = str(parameters.get(URL_KEY) or DEFAULT_URL)
    if not url.startswith("jdbc:derby:") or url.startswith("jdbc:derby://"):
        return None
    name, *attributes = url.removeprefix("jdbc:derby:").split(";")
    for attribute in attributes:
        key, _, value = attribute.partition("=")
        if key.strip() == "databaseName":
            name = value.strip()
    if not name or name.startswith(("memory:", "classpath:", "jar:")):
        return None
    name = name.removeprefix("directory:")
    return derby_home(parameters, cwd) / name


def locked_by_another_process(database: Path) -> bool:
    """Whether another process holds Derby's exclusive lock of ``database``. Call it only while this process runs
    no JVM: closing a file drops every lock this process holds on it, a booted Derby's too."""
    try:
        import fcntl
    except ImportError:  # no POSIX locks (Windows): Derby reports it itself
        return False
    lock_file = database / "dbex.lck"
    try:
        descriptor = os.open(lock_file, os.O_RDWR)
    except OSError:  # no database yet, or not ours to open
        return False
    try:
        fcntl.lockf(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    else:
        fcntl.lockf(descriptor, fcntl.LOCK_UN)
        return False
    finally:
        os.close(descriptor)


def runs_a_jvm() -> bool:
    """Whether this process already runs Spark's JVM (then its own Derby may hold the lock: no probe)."""
    pyspark = sys.modules.get("pyspark")
    context = getattr(pyspark, "SparkContext", None)
    return context is not None and getattr(context, "_active_spark_context", None) is not None


def in_use_message(database: Path) -> str:
    """The one line a second process on the same state directory stops with."""
    return (
        f"inc_join: the Hive metastore in {database.parent} ({database.name}, embedded Derby) is in use by another "
        "process; method: session lets one process at a time use a state directory. Wait for the other dbt run, "
        f"give this one another state directory (INC_JOIN_STATE_DIR), or share one metastore: {SECTION}"
    )


def metastore_in_use(parameters: Mapping[str, Any], cwd: Path) -> str | None:
    """in_use_message when another process has the profile's embedded metastore open, else None."""
    database = embedded_database(parameters, cwd)
    if database is None or runs_a_jvm() or not locked_by_another_process(database):
        return None
    return in_use_message(database)


def install_metastore_check() -> bool:
    """Check the metastore before dbt-spark opens a ``method: session`` connection (the SparkSession, and with it
    Derby, starts on its first statement). Idempotent; False when dbt-spark is absent."""
    try:
        from dbt.adapters.exceptions import FailedToConnectError
        from dbt.adapters.spark.connections import SparkConnectionManager
    except Exception:
        return False
    manager: Any = SparkConnectionManager  # its classmethod is replaced, which its declared types do not allow
    if getattr(manager, "_inc_join_metastore_check", False):
        return True
    opened = manager.open

    def open_checked(cls: Any, connection: Any) -> Any:
        credentials = connection.credentials
        method = getattr(credentials.method, "value", credentials.method)
        if str(method) == "session":
            found = metastore_in_use(credentials.server_side_parameters or {}, Path.cwd())
            if found is not None:
                raise FailedToConnectError(found)
        return opened.__func__(cls, connection)

    manager.open = classmethod(open_checked)
    manager._inc_join_metastore_check = True
    return True
