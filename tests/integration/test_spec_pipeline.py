"""spec §9 through dbt: the watermark guard against premature time-outs, and catching up once both inputs
are declared loaded."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

pytestmark = pytest.mark.dbt

SPEC_TABLE = {  # TrxId: (output RecDate, JoinType, DiffArrivalTime, WaitingTime), spec §9
    1: (date(2025, 3, 6), 2, -1, None),
    2: (date(2025, 3, 6), 2, -2, None),
    3: (date(2025, 3, 6), 1, 0, None),
    4: (date(2025, 3, 7), 1, 0, None),
    7: (date(2025, 3, 8), 2, -2, None),
    5: (date(2025, 3, 12), 3, 5, None),
    6: (date(2025, 3, 17), 4, None, 10),
}


def spec_rows(project):
    return {
        r.TrxId: (r.RecDate, r.JoinType, r.DiffArrivalTime, r.WaitingTime) for r in project.table("spec_left").collect()
    }


@pytest.mark.matrix  # the spec's example, run by the core in tests/core/test_spec_example.py
def test_nothing_is_finalised_before_both_inputs_reach_it_then_the_pipeline_catches_up(project):
    day = date(2025, 3, 5)
    project.invoke("run", "--select", "+spec_left", "--full-refresh", today=day)
    while day < date(2025, 3, 13):
        day += timedelta(days=1)
        project.invoke("run", "--select", "+spec_left", today=day)
    # A's last load is 03-08: the data cannot show that A was loaded (empty) after that, so 03-09.. stay open.
    # TrxId 5's partner arrived 03-12 but is not emitted, and TrxId 6 does not time out prematurely.
    assert spec_rows(project) == {k: v for k, v in SPEC_TABLE.items() if k not in (5, 6)}
    # the orchestrator declares both inputs loaded up to 03-20: one run finalises 03-09 .. 03-20
    project.invoke(
        "run", "--select", "+spec_left", today=date(2025, 3, 20), vars={"inc_join_available_until": "2025-03-20"}
    )
    assert spec_rows(project) == SPEC_TABLE
