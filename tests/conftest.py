"""One local SparkSession for the whole test run (start-up is the expensive part)."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    from harness.local_spark import local_spark_session

    state = tmp_path_factory.mktemp("spark-state")
    os.environ["INC_JOIN_STATE_DIR"] = str(state)  # dbt tests reuse this session and its catalog
    session = local_spark_session(state)
    yield session
    session.stop()
