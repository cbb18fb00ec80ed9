"""The engine this run asked for is the one the tests use (the matrix of `make test`, tests/conftest.py)."""

from __future__ import annotations

import os

import pyspark

from ..conftest import ansi_setting


def test_the_pyspark_version_is_the_one_the_run_expects():
    expected = os.environ.get("INC_JOIN_EXPECT_SPARK")
    if expected:
        assert pyspark.__version__.startswith(expected + ".") or pyspark.__version__ == expected
    assert tuple(int(p) for p in pyspark.__version__.split(".")[:2]) >= (3, 5), "pyproject promises pyspark>=3.5"


def test_ansi_mode_reaches_the_queries(spark):
    """size(NULL) is NULL under ANSI and -1 without it: the mode the queries really run in."""
    ansi = ansi_setting() or ("true" if int(pyspark.__version__.split(".")[0]) >= 4 else "false")
    size_of_null = spark.sql("select size(cast(null as array<int>)) as s").first().s
    assert spark.conf.get("spark.sql.ansi.enabled") == ansi
    assert size_of_null == (None if ansi == "true" else -1)
