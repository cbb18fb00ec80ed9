"""The benchmark's inputs: A and B as parquet tables partitioned by the arrival column ``RecDate``.

Data is generated with Spark itself (no Python loops) from hash functions of the row id, so the same
parameters always give the same files, whatever the number of tasks. One dataset holds the longest history;
shorter histories are catalog tables over the same files that register only the last ``n`` days'
partitions, so a 30-day and a 365-day table differ only in how much history lies before the daily slice.

Shape (per A row, decided by hashes of its id):

- 4 % of A rows never get a partner; 3 % get two and 1 % three (several partners per key);
- Δ = b − a of each partner: mostly 0 or a few days late, some B rows before A, and a thin tail beyond the
  default look_back_time = 2 / max_waiting_time = 10 (those A rows time out, those B rows find nobody);
- 1 % extra B rows whose key exists in no A row (how = full emits them as ``b_timed_out``);
- B rows that would arrive after the last generated day have not arrived yet and are left out.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from pathlib import Path

# Bump when the generated shape changes, so cached datasets of the old shape are not reused.
GENERATOR_VERSION = 1

# Δ = b − a (days) and its probability for one partner: a CDF over the cases, checked in order.
LATENESS: tuple[tuple[int, float], ...] = (
    (-3, 0.005),
    (-2, 0.02),
    (-1, 0.06),
    (0, 0.55),
    (1, 0.15),
    (2, 0.08),
    (3, 0.04),
    (4, 0.03),
)
LATE_TAIL = (5, 10, 0.06)  # Δ uniform in 5..10 with this total probability
BEYOND_WAIT = (11, 14, 0.005)  # Δ uniform in 11..14: later than the default max_waiting_time

PARTNERS_NONE, PARTNERS_TWO, PARTNERS_THREE = 0.04, 0.03, 0.01
ORPHAN_B_SHARE = 0.01


@dataclass(frozen=True)
class DataSpec:
    """What to generate: ``days`` daily loads ending on ``last_day``, ``rows_per_day`` A rows per load."""

    days: int
    rows_per_day: int
    last_day: date = date(2025, 12, 31)

    @property
    def first_day(self) -> date:
        return self.last_day - timedelta(days=self.days - 1)

    @property
    def key(self) -> str:
        """The cache directory name: every parameter that changes the files."""
        return f"d{self.days}_r{self.rows_per_day}_{self.last_day:%Y%m%d}_v{GENERATOR_VERSION}"


def _uniform(*parts: str) -> str:
    """SQL for a deterministic number in [0, 1) from hashing ``parts`` (independent streams per salt)."""
    return f"(pmod(xxhash64({', '.join(parts)}), 1000000) / 1000000.0)"


def lateness_sql(u: str, lateness=LATENESS, bands=(LATE_TAIL, BEYOND_WAIT)) -> str:
    """SQL mapping a uniform ``u`` to Δ (days) following ``lateness`` (by default LATENESS, LATE_TAIL and
    BEYOND_WAIT)."""
    cases, cumulative = [], 0.0
    for delta, share in lateness:
        cumulative += share
        cases.append(f"WHEN {u} < {cumulative:.6f} THEN {delta}")
    for low, high, share in bands:
        # spread the remaining mass of u inside this band evenly over low..high
        start, cumulative = cumulative, cumulative + share
        cases.append(
            f"WHEN {u} < {cumulative:.6f} THEN {low} + CAST(floor(({u} - {start:.6f}) / {share:.6f} "
            f"* {high - low + 1}) AS INT)"
        )
    return f"CASE {' '.join(cases)} ELSE 0 END"


def a_frame(spark, spec: DataSpec):
    """All A rows: one load per day, ``TrxId`` unique."""
    credit = _uniform("id", "'cd'")
    return spark.range(0, spec.days * spec.rows_per_day).selectExpr(
        "id AS TrxId",
        "CAST(pmod(xxhash64(id, 'acct'), 50000) AS INT) AS AccountId",
        "CAST(pmod(xxhash64(id, 'amount'), 10000000) / 100 AS DECIMAL(12, 2)) AS Amount",
        f"IF({credit} < 0.5, 'Credit', 'Debit') AS CreditDebit",
        f"date_add(DATE'{spec.first_day}', CAST(id DIV {spec.rows_per_day} AS INT)) AS RecDate",
    )


def b_frame(spark, spec: DataSpec):
    """All B rows: 0-3 partners per A row at lateness Δ, plus orphans; only those arrived by the last day."""
    n = spec.days * spec.rows_per_day
    u_partners, u_delta, u_status = (
        _uniform("id", "'partners'"),
        _uniform("id", "j", "'delta'"),
        _uniform("PaymentId", "'st'"),
    )
    partners = (
        spark.range(0, n)
        .selectExpr(
            "id",
            f"CASE WHEN {u_partners} < {PARTNERS_NONE} THEN 0 "
            f"WHEN {u_partners} < {PARTNERS_NONE + PARTNERS_TWO} THEN 2 "
            f"WHEN {u_partners} < {PARTNERS_NONE + PARTNERS_TWO + PARTNERS_THREE} THEN 3 "
            f"ELSE 1 END AS n",
        )
        .where("n > 0")
        .selectExpr("id", "explode(sequence(1, n)) AS j")
        .selectExpr("id", "j", f"CAST(id DIV {spec.rows_per_day} AS INT) + {lateness_sql(u_delta)} AS day")
        .selectExpr("id * 4 + j AS PaymentId", "id AS TrxId", "day")
    )
    orphans_per_day = max(1, int(spec.rows_per_day * ORPHAN_B_SHARE))
    orphans = spark.range(0, spec.days * orphans_per_day).selectExpr(
        f"{4 * n} + id AS PaymentId", f"{n} + id AS TrxId", f"CAST(id DIV {orphans_per_day} AS INT) AS day"
    )
    return (
        partners.unionByName(orphans)
        .where(f"day >= 0 AND day < {spec.days}")
        .selectExpr(
            "PaymentId",
            "TrxId",
            "element_at(array('NL', 'DE', 'BE', 'FR', 'UK'), "
            "CAST(pmod(xxhash64(PaymentId, 'cc'), 5) AS INT) + 1) AS CountryCode",
            f"IF({u_status} < 0.9, 'settled', 'pending') AS Status",
            f"date_add(DATE'{spec.first_day}', day) AS RecDate",
        )
    )


COLUMNS: dict[str, str] = {
    "a": "TrxId BIGINT, AccountId INT, Amount DECIMAL(12, 2), CreditDebit STRING, RecDate DATE",
    "b": "PaymentId BIGINT, TrxId BIGINT, CountryCode STRING, Status STRING, RecDate DATE",
}


def ensure_dataset(spark, spec: DataSpec, cache_dir: Path) -> Path:
    """The directory holding ``a/`` and ``b/`` for ``spec``; generated on first use, then reused.

    A marker file written last makes an interrupted generation count as missing."""
    marker = {**asdict(spec), "last_day": spec.last_day.isoformat(), "generator_version": GENERATOR_VERSION}
    frames = {"a": a_frame(spark, spec), "b": b_frame(spark, spec)}
    return ensure(spark, spec.key, cache_dir, frames, spec.days * spec.rows_per_day, marker)


def ensure(spark, key: str, cache_dir: Path, frames: dict, total: int, marker_content: dict) -> Path:
    """``cache_dir/key`` holding each frame as a parquet table partitioned by RecDate, generated on first use."""
    root = Path(cache_dir).resolve() / key
    marker = root / "_COMPLETE.json"
    if marker.exists():
        return root
    if root.exists():
        shutil.rmtree(root)
    for side, df in frames.items():
        # One file per daily partition: all rows of a day go to the same task. Small data is written by one task
        # (no shuffle: job overhead would dominate), large data spread by day over tasks of ~1M rows.
        df = df.coalesce(1) if total <= 1_000_000 else df.repartition(max(2, total // 1_000_000), "RecDate")
        df.write.partitionBy("RecDate").parquet(str(root / side))
    marker.write_text(json.dumps(marker_content, indent=2) + "\n")
    return root


# Many rows per key (the issue 12 suite): its own generator, versioned on its own.
MANY_GENERATOR_VERSION = 1

# Δ = b − intended day of a B row: mostly inside a window of look_back_time 2 / max_waiting_time 5, some late.
MANY_LATENESS: tuple[tuple[int, float], ...] = (
    (-2, 0.03),
    (-1, 0.07),
    (0, 0.55),
    (1, 0.15),
    (2, 0.08),
    (3, 0.05),
    (4, 0.03),
    (5, 0.02),
    (7, 0.01),
    (9, 0.01),
)
ORPHAN_A_SYMBOL_SHARE = 0.01  # A rows of a symbol B never has: how = left gives them code 4

MANY_COLUMNS: dict[str, str] = {
    "a": "Symbol INT, TradeId BIGINT, Qty INT, TradePx DECIMAL(12, 4), RecDate DATE",
    "b": "Symbol INT, Seq BIGINT, Amount DECIMAL(12, 2), Price DECIMAL(12, 4), RecDate DATE",
}


@dataclass(frozen=True)
class ManySpec:
    """Many rows per key: ``keys`` symbols, ``rows_per_key`` rows per symbol per day on each side, ``days``
    daily loads ending on ``last_day``. A: trades (``TradeId`` unique), B: quotes (``Seq`` unique)."""

    name: str
    keys: int
    rows_per_key: int
    days: int
    last_day: date = date(2025, 12, 31)

    @property
    def first_day(self) -> date:
        return self.last_day - timedelta(days=self.days - 1)

    @property
    def rows_per_day(self) -> int:
        return self.keys * self.rows_per_key

    @property
    def key(self) -> str:
        return (
            f"many_{self.name}_k{self.keys}_r{self.rows_per_key}_d{self.days}_{self.last_day:%Y%m%d}"
            f"_v{MANY_GENERATOR_VERSION}"
        )


def many_a_frame(spark, spec: ManySpec):
    """A: ``rows_per_key`` trades per symbol and day; 1 % of them of a symbol B never quotes (``keys``)."""
    per_day = spec.rows_per_day
    orphan = _uniform("id", "'orphan'")
    return spark.range(0, spec.days * per_day).selectExpr(
        f"CAST(IF({orphan} < {ORPHAN_A_SYMBOL_SHARE}, {spec.keys}, pmod(id, {spec.keys})) AS INT) AS Symbol",
        "id AS TradeId",
        "CAST(pmod(xxhash64(id, 'qty'), 1000) + 1 AS INT) AS Qty",
        "CAST(100 + pmod(xxhash64(id, 'px'), 1000000) / 10000 AS DECIMAL(12, 4)) AS TradePx",
        f"date_add(DATE'{spec.first_day}', CAST(id DIV {per_day} AS INT)) AS RecDate",
    )


def many_b_frame(spark, spec: ManySpec):
    """B: ``rows_per_key`` quotes per symbol and intended day, arriving at the day + Δ (MANY_LATENESS); those
    that would arrive outside the generated days are left out."""
    per_day = spec.rows_per_day
    delta = lateness_sql(_uniform("id", "'delta'"), MANY_LATENESS, ())
    return (
        spark.range(0, spec.days * per_day)
        .selectExpr("id", f"CAST(id DIV {per_day} AS INT) + {delta} AS day")
        .where(f"day >= 0 AND day < {spec.days}")
        .selectExpr(
            f"CAST(pmod(id, {spec.keys}) AS INT) AS Symbol",
            "id AS Seq",
            "CAST(pmod(xxhash64(id, 'amount'), 10000000) / 100 AS DECIMAL(12, 2)) AS Amount",
            "CAST(100 + pmod(xxhash64(id, 'px'), 1000000) / 10000 AS DECIMAL(12, 4)) AS Price",
            f"date_add(DATE'{spec.first_day}', day) AS RecDate",
        )
    )


def ensure_many_dataset(spark, spec: ManySpec, cache_dir: Path) -> Path:
    """Like ``ensure_dataset``, for a many-rows-per-key shape."""
    marker = {**asdict(spec), "last_day": spec.last_day.isoformat(), "generator_version": MANY_GENERATOR_VERSION}
    frames = {"a": many_a_frame(spark, spec), "b": many_b_frame(spark, spec)}
    return ensure(spark, spec.key, cache_dir, frames, spec.days * spec.rows_per_day, marker)


def table_name(side: str, history_days: int) -> str:
    return f"{side}_{history_days}d"


def register_table(spark, name: str, columns: str, location, days) -> None:
    """A catalog table over parquet files partitioned by RecDate, with the partitions of ``days`` (added 100 at a
    time: one ALTER per partition would cost a metastore round trip each)."""
    spark.sql(f"DROP TABLE IF EXISTS {name}")
    spark.sql(f"CREATE TABLE {name} ({columns}) USING parquet PARTITIONED BY (RecDate) LOCATION '{location}'")
    days = list(days)
    for chunk in range(0, len(days), 100):
        partitions = " ".join(f"PARTITION (RecDate = DATE'{d}')" for d in days[chunk : chunk + 100])
        spark.sql(f"ALTER TABLE {name} ADD {partitions}")


def register_tables(
    spark,
    database: str,
    dataset: Path,
    spec: DataSpec | ManySpec,
    histories: Sequence[int],
    prefix: str = "",
    columns: dict[str, str] = COLUMNS,
) -> list[str]:
    """Catalog tables ``<database>.<prefix>a_<n>d`` / ``<prefix>b_<n>d`` over the dataset's files, each knowing
    only the partitions of the last ``n`` days (``ALTER TABLE ... ADD PARTITION``): a table with ``n`` days of
    history, as a dbt source or a Hive table on a cluster would be."""
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {database}")
    created = []
    for n in histories:
        days = [spec.last_day - timedelta(days=i) for i in range(n)]
        for side in ("a", "b"):
            name = f"{database}.{prefix}{table_name(side, n)}"
            register_table(spark, name, columns[side], dataset / side, days)
            created.append(name)
    return created
