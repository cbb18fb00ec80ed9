"""Fixtures shared by the core's tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def inputs(spark):
    """The worked example of spec §9 (test_spec_example.A and B) as DataFrames with DATE arrivals."""
    from .test_spec_example import A, B

    df_a = spark.createDataFrame(A, "TrxId int, RecDate string").selectExpr("TrxId", "to_date(RecDate) AS RecDate")
    df_b = spark.createDataFrame(B, "TrxId int, CountryCode string, RecDate string").selectExpr(
        "TrxId", "CountryCode", "to_date(RecDate) AS RecDate"
    )
    return df_a, df_b
