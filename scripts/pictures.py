"""Draw the README pictures from the generated integration seeds: the lateness histogram and JoinTypes per day.

    .venv/bin/python scripts/pictures.py [--out docs/images]

Starts the embedded Spark (state in .spark-state/pictures), reads integration_tests/seeds/gen_a.csv and
gen_b.csv, prints the window suggestion for 95% of the partner pairs and writes lateness.png and
join_types.png.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # harness/ (repository only, not installed)

from dbt_inc_join import inc_join, suggest_windows  # noqa: E402
from dbt_inc_join.pictures import join_type_figure, lateness_figure, save_png  # noqa: E402
from harness.local_spark import local_spark_session  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "integration_tests" / "seeds"
# Explicit schemas: an empty TrxId is NULL (it must never pair), RecDate is a DATE, not a string.
SCHEMA_A = "TrxId BIGINT, Account STRING, Amount DOUBLE, RecDate DATE"
SCHEMA_B = "PaymentId BIGINT, TrxId BIGINT, Country STRING, Status STRING, RecDate DATE"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"), help="output folder (default: docs/images)")
    out = parser.parse_args(argv).out

    spark = local_spark_session(Path(".spark-state/pictures"))
    try:
        df_a = spark.read.csv(str(SEEDS / "gen_a.csv"), header=True, schema=SCHEMA_A)
        df_b = spark.read.csv(str(SEEDS / "gen_b.csv"), header=True, schema=SCHEMA_B)

        suggestion = suggest_windows(df_a, df_b, join_cols="TrxId", coverage=0.95, complete_history=True)
        print(suggestion.report())
        print(f"wrote {save_png(lateness_figure(suggestion), out / 'lateness.png')}")

        joined = inc_join(
            df_a,
            df_b,
            join_cols="TrxId",
            how="full",
            look_back_time=2,
            max_waiting_time=4,
            output_window_start="2025-01-01",
            output_window_end="2025-01-10",
        )
        print(f"wrote {save_png(join_type_figure(joined), out / 'join_types.png')}")
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
