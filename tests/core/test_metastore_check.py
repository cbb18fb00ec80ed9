"""The embedded metastore's check (orchestration/python_models/metastore.py, issue 71 item 3): which Derby database
a profile's settings name, and whether another process holds its lock (a real second process and a real OS lock;
tests/integration/test_state_dir_in_use.py runs it against a booted Derby)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dbt_inc_join.orchestration.python_models.metastore import (
    SECTION,
    embedded_database,
    in_use_message,
    locked_by_another_process,
)

URL = "spark.hadoop.javax.jdo.option.ConnectionURL"


def test_the_database_of_the_readme_s_profile_and_of_the_defaults(tmp_path):
    state = tmp_path / "state"
    readme = {URL: f"jdbc:derby:;databaseName={state}/metastore_db;create=true",
              "spark.driver.extraJavaOptions": f"-Dderby.system.home={state}"}  # fmt: skip
    assert embedded_database(readme, Path("/elsewhere")) == state / "metastore_db"
    # Hive's default: metastore_db under Derby's home, the working directory unless the options give one
    assert embedded_database({}, tmp_path) == tmp_path / "metastore_db"
    home = {"spark.driver.extraJavaOptions": f"-Xmx1g -Dderby.system.home={state} -XX:+UseSerialGC"}
    assert embedded_database(home, tmp_path) == state / "metastore_db"
    assert embedded_database({URL: "jdbc:derby:relative/db;create=true"}, tmp_path) == tmp_path / "relative" / "db"
    # a network server, another database, an in-memory one: no lock of this machine's to ask
    for url in ("jdbc:derby://127.0.0.1:1527/metastore;create=true", "jdbc:postgresql://host/hive",
                "jdbc:derby:memory:db;create=true"):  # fmt: skip
        assert embedded_database({URL: url}, tmp_path) is None, url


def test_a_lock_held_by_another_process_is_seen_and_released(tmp_path):
    database = tmp_path / "metastore_db"
    assert not locked_by_another_process(database)  # no database yet
    database.mkdir()
    (database / "dbex.lck").write_text("")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys; f = open(sys.argv[1], 'r+'); fcntl.lockf(f, fcntl.LOCK_EX); "
         "print('locked', flush=True); sys.stdin.read()", str(database / "dbex.lck")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        assert locked_by_another_process(database)
        assert locked_by_another_process(database)  # asking takes no lock that stays
    finally:
        holder.kill()
        holder.wait()
    assert not locked_by_another_process(database)


def test_the_message_is_one_line_naming_the_directory_and_the_section(tmp_path):
    message = in_use_message(tmp_path / "state" / "metastore_db")
    assert "\n" not in message and str(tmp_path / "state") in message and message.endswith(SECTION)
