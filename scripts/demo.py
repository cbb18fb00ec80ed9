"""`make demo`: the spec §9 pipeline with dbt on the embedded local Spark.

Seeds the two example tables, then runs the incremental model `spec_left` once per simulated day
(2025-03-05 .. 2025-03-20, each day seeing only the loads up to it), prints the final table and its JoinType
counts, and checks it against one run of the PySpark core over the whole period.
"""

from __future__ import annotations

import os
import sys
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # harness/ (repository only, not installed)

from dbt_inc_join import inc_join  # noqa: E402
from harness.local_dbt import LocalDbtProject  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
FIRST, LAST = date(2025, 3, 5), date(2025, 3, 20)


def main() -> int:
    os.environ.setdefault("DBT_LOG_LEVEL", "warn")  # keep dbt's own output to warnings; our lines are printed
    project = LocalDbtProject(REPO / "integration_tests", REPO / ".spark-state" / "demo")
    project.spark()  # started here, with the harness's logging (warnings to a file), and reused by dbt
    project.invoke("deps", "--quiet")
    project.invoke("seed", "--select", "spec_a", "spec_b", "--full-refresh", "--quiet")
    day = FIRST
    while day <= LAST:
        first_run = ["--full-refresh"] if day == FIRST else []
        # The loads of both inputs are complete up to `today`, including days without rows, which the data
        # alone cannot show: the orchestrator declares it.
        project.invoke(
            "run", "--select", "+spec_left", "--quiet", *first_run, today=day, vars={"inc_join_available_until": day}
        )
        added = (
            project.spark().sql(f"SELECT count(*) FROM inc_join_it.spec_left WHERE RecDate = DATE'{day}'").first()[0]
        )
        print(f"dbt run, today = {day}: {added} row(s) placed on {day}")
        day += timedelta(days=1)

    spark = project.spark()
    table = spark.table("inc_join_it.spec_left")
    print(
        "\nThe incremental table inc_join_it.spec_left after sixteen daily runs "
        "(look_back_time=2, max_waiting_time=10, how='left'):"
    )
    table.selectExpr(
        "TrxId", "RecDate", "RecDate_A", "RecDate_B", "CountryCode", "DiffArrivalTime", "WaitingTime", "JoinType"
    ).orderBy("RecDate", "TrxId").show(truncate=False)
    print("JoinType counts:")
    table.groupBy("JoinType").count().orderBy("JoinType").show()

    core = inc_join(
        spark.table("inc_join_it.spec_a"),
        spark.table("inc_join_it.spec_b"),
        join_cols="TrxId",
        look_back_time=2,
        max_waiting_time=10,
        output_window_start=FIRST,
        output_window_end=LAST,
    )
    same = (
        table.select(*core.columns).exceptAll(core).count() == 0
        and core.exceptAll(table.select(*core.columns)).count() == 0
    )
    print(f"One run of the PySpark core over {FIRST} .. {LAST} gives the same rows: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
