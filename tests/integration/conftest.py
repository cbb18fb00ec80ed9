"""The integration dbt project, seeded once, on the test session's SparkSession."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.local_dbt import LocalDbtProject

from ..conftest import compile_file_system, dbt_spark_default_ansi

PROJECT = Path(__file__).resolve().parents[2] / "integration_tests"


@pytest.fixture(scope="session")
def project(spark):
    # the spark fixture started the session dbt reuses; INC_JOIN_STATE_DIR points at its catalog
    dbt = LocalDbtProject(PROJECT, Path(os.environ["INC_JOIN_STATE_DIR"]), parse_per_vars=True, write_json=False)
    # deps links the package (local: ../); `make test` runs it once before its lanes, so a leg running beside
    # another never replaces the link the other is reading
    if not (PROJECT / "dbt_packages" / "dbt_inc_join").exists():
        dbt.invoke("deps")
    with dbt_spark_default_ansi():  # dbt-spark's seed SQL writes empty cells as `None`, which ANSI rejects
        dbt.invoke("seed")
    return dbt


@pytest.fixture(scope="session")
def daily_pipeline(project):
    """The daily pipeline, run once for every test that looks at its tables: ({model: sorted rows}, {model: its
    open-state line (spec §18) of the last day's run})."""
    from .pipeline import run_daily_pipeline

    lines: dict[str, str] = {}
    return run_daily_pipeline(project, state_lines=lines), lines


@pytest.fixture(scope="session")
def daily(daily_pipeline):
    """The daily pipeline's tables: {model: sorted rows}."""
    return daily_pipeline[0]


@pytest.fixture(scope="module")
def halting_file_system(tmp_path_factory):
    """HaltingFileSystem compiled against the running pyspark's Hadoop jars."""
    source = Path(__file__).parent / "faults" / "HaltingFileSystem.java"
    return compile_file_system(source, tmp_path_factory.mktemp("halting-fs"))
