"""Write the generated seed tables of integration_tests/ (deterministic: the same files every time).

gen_a / gen_b: daily loads (B rows carry their own PaymentId, so no two input rows are identical) over 10 days
with every JoinType: partners in either order, partners later than max_waiting_time, A rows without partner,
B rows without A, keys with several partners, NULL keys and NULL arrivals. gen_hour_a / gen_hour_b: the same
shapes at hour granularity over 3 days (TIMESTAMP arrivals).
"""

from __future__ import annotations

import csv
import random
from datetime import date, datetime, timedelta
from pathlib import Path

SEEDS = Path(__file__).resolve().parent.parent / "integration_tests" / "seeds"
DAYS = 10
ROWS_PER_DAY = 120
HOURS = 72
ROWS_PER_HOUR = 8


def lateness(rng: random.Random) -> int:
    """Δ = b − a in units: mostly small, both signs, a tail beyond a 4-unit wait."""
    return rng.choices([-3, -2, -1, 0, 1, 2, 3, 4, 5, 7], weights=[2, 5, 8, 30, 12, 8, 5, 3, 2, 2])[0]


def generate(rng: random.Random, units: int, per_unit: int, moment, fmt: str):
    a_rows, b_rows = [], []
    trx = 0
    for unit in range(units):
        for _ in range(per_unit):
            trx += 1
            key = None if rng.random() < 0.02 else trx
            a_at = None if rng.random() < 0.01 else moment(unit)
            a_rows.append((key, f"acct{trx % 37}", round(rng.uniform(1, 999), 2), a_at))
            shape = rng.random()
            if shape < 0.08:
                continue  # the partner never arrives
            partners = 2 if shape > 0.95 else 1  # a few keys with several partners
            for partner in range(partners):
                offset = lateness(rng)
                # a second partner is a different row (a correction), never a byte-identical copy
                status = rng.choice(["ok", "pending"]) if partner == 0 else "correction"
                if 0 <= unit + offset < units + 3:
                    b_rows.append((key, rng.choice(["NL", "DE", "UK"]), status, moment(unit + offset)))
        for _ in range(max(1, per_unit // 20)):  # B rows that no A row will ever claim
            trx += 1
            b_rows.append((None if rng.random() < 0.2 else 10_000_000 + trx, "FR", f"orphan-{trx}", moment(unit)))
    rng.shuffle(b_rows)
    text = lambda value: "" if value is None else value.strftime(fmt)  # noqa: E731
    return (
        [(k, acct, amount, text(at)) for k, acct, amount, at in a_rows],
        [(payment, k, country, status, text(at)) for payment, (k, country, status, at) in enumerate(b_rows, 1)],
    )


def write(name: str, header, rows) -> None:
    with open(SEEDS / f"{name}.csv", "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(["" if v is None else v for v in row] for row in rows)


def main() -> None:
    day0, hour0 = date(2025, 1, 1), datetime(2025, 1, 1)
    daily = generate(random.Random(20250101), DAYS, ROWS_PER_DAY, lambda d: day0 + timedelta(days=d), "%Y-%m-%d")
    hourly = generate(
        random.Random(20250102),
        HOURS,
        ROWS_PER_HOUR,
        lambda h: hour0 + timedelta(hours=h, minutes=(h * 7) % 60),
        "%Y-%m-%d %H:%M:%S",
    )
    for prefix, (a_rows, b_rows) in (("gen", daily), ("gen_hour", hourly)):
        write(f"{prefix}_a", ["TrxId", "Account", "Amount", "RecDate"], a_rows)
        write(f"{prefix}_b", ["PaymentId", "TrxId", "Country", "Status", "RecDate"], b_rows)
        print(f"{prefix}: {len(a_rows)} A rows, {len(b_rows)} B rows")


if __name__ == "__main__":
    main()
