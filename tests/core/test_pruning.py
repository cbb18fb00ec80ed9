"""spec §4: a run reads A only where a ∈ [s − mw, e] ([s − mw − lb, e] for how = full) and B only where
b ∈ [s − mw − lb, e], as partition filters on a table partitioned by the arrival column."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from dbt_inc_join import inc_join

LB, MW = 2, 3


@pytest.fixture(scope="module")
def partitioned(spark, tmp_path_factory):
    """A and B as parquet partitioned by RecDate, one partition per day of March 2025."""
    root = tmp_path_factory.mktemp("partitioned")
    for side in ("a", "b"):
        spark.range(0, 31 * 4).selectExpr(
            "CAST(id % 40 AS INT) AS k",
            f"'{side}' AS side",
            "date_add(DATE'2025-03-01', CAST(id % 31 AS INT)) AS RecDate",
        ).write.partitionBy("RecDate").parquet(str(root / side))
    return spark.read.parquet(str(root / "a")), spark.read.parquet(str(root / "b"))


def daily_run(partitioned, day, **options):
    """One run over ``day`` with the module's windows."""
    return inc_join(
        *partitioned,
        join_cols="k",
        look_back_time=LB,
        max_waiting_time=MW,
        output_window_start=day,
        output_window_end=day,
        **options,
    )


def scans(plan_text: str):
    """The PartitionFilters of each parquet scan in a physical plan, in plan order."""
    return re.findall(r"FileScan parquet .*?PartitionFilters: \[(.*?)\], PushedFilters", plan_text)


def partitions_read(spark, make_result):
    """Build and run the query with AQE off (a plain plan tree); each file scan's 'number of partitions read'."""
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        result = make_result()
        result.collect()
        plan = result._jdf.queryExecution().executedPlan()
        leaves = plan.collectLeaves()
        counts = []
        for i in range(leaves.size()):
            node = leaves.apply(i)
            if "numPartitions" in str(node.metrics().keySet()):
                counts.append(int(node.metrics().get("numPartitions").get().value()))
        return counts
    finally:
        spark.conf.unset("spark.sql.adaptive.enabled")


@pytest.mark.parametrize(
    "how, a_days, b_days",
    [
        ("left", MW, MW + LB),
        ("inner", MW, MW + LB),
        ("left_anti", MW, MW + LB),
        ("full", MW + LB, MW + LB),
    ],
)
def test_daily_run_reads_only_the_spec_slices(spark, partitioned, how, a_days, b_days):
    day = date(2025, 3, 20)

    def run():
        return daily_run(partitioned, day, how=how)

    result = run()
    filters = scans(result._jdf.queryExecution().executedPlan().toString())
    assert len(filters) == 2, filters
    for partition_filter, days_back in zip(filters, (a_days, b_days), strict=True):
        lower = (day - timedelta(days=days_back)).isoformat()
        assert "RecDate#" in partition_filter
        assert re.search(rf"\(RecDate#\d+ >= {lower}\)", partition_filter), partition_filter
        assert re.search(rf"\(RecDate#\d+ <= {day.isoformat()}\)", partition_filter), partition_filter
    assert partitions_read(spark, run) == [a_days + 1, b_days + 1]


def test_cost_does_not_depend_on_history_length(spark, partitioned):
    """A one-day window on 31 days of history reads the same slices whatever lies before them."""
    for day in (date(2025, 3, 10), date(2025, 3, 31)):
        counts = partitions_read(
            spark,
            lambda day=day: inc_join(
                *partitioned,
                join_cols="k",
                look_back_time=LB,
                max_waiting_time=MW,
                output_window_start=day,
                output_window_end=day,
            ),
        )
        assert counts == [MW + 1, MW + LB + 1]


def test_default_end_resolves_the_watermark_from_a_pruned_read(spark, partitioned):
    day = date(2025, 3, 30)
    with_default = inc_join(
        *partitioned, join_cols="k", look_back_time=LB, max_waiting_time=MW, output_window_start=day
    )
    explicit = inc_join(
        *partitioned,
        join_cols="k",
        look_back_time=LB,
        max_waiting_time=MW,
        output_window_start=day,
        output_window_end=date(2025, 3, 31),
    )
    assert sorted(with_default.collect()) == sorted(explicit.collect())


@pytest.mark.parametrize(
    "how, a_days, b_days",
    [
        ("left", MW + 4, MW + LB + 4),
        ("inner", MW + 4, MW + LB + 4),
        # full: B one look_back_time further (spec §10 as built, docs/spec.md)
        ("full", MW + LB + 4, MW + 2 * LB + 4),
    ],
)
def test_late_matches_read_late_match_time_more_of_each_input(spark, partitioned, how, a_days, b_days):
    """spec §10 with late_match_time = 4: every scan of A and of B (the slices, the timed-out arrivals and their
    late copies) carries the literal bounds of §10's ranges, and reads exactly those partitions."""
    day = date(2025, 3, 20)

    def run():
        return daily_run(partitioned, day, how=how, late_match_time=4)

    plan = run()._jdf.queryExecution().executedPlan().toString()
    found = re.findall(
        r"FileScan parquet .*?Location: \w+\(\d+ paths?\)\[[^\]]*/(a|b)\], PartitionFilters: \[(.*?)\]", plan
    )
    assert {side for side, _ in found} == {"a", "b"}, plan
    for side, partition_filter in found:
        lower = (day - timedelta(days=a_days if side == "a" else b_days)).isoformat()
        assert re.search(rf"\(RecDate#\d+ >= {lower}\)", partition_filter), (side, partition_filter)
        assert re.search(rf"\(RecDate#\d+ <= {day.isoformat()}\)", partition_filter), (side, partition_filter)
    # the slices read exactly the range; a scan that dynamic pruning leaves without partitions reads none
    counts = set(partitions_read(spark, run))
    assert {a_days + 1, b_days + 1} <= counts <= {0, a_days + 1, b_days + 1}
