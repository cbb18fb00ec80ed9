"""The files of an input table, listed by the test restated_inputs (spec §14; macros/generic_tests/
_changed_files.sql): from two listings of a table partitioned by its arrival column, the macro _listed_files
names the candidate units, which the fingerprints then confirm. Checked here against the oracle
(``changed_file_units``), on drawn histories of files (added, removed, written again, a unit dropped; written in
the same millisecond as the last listing's latest file, or later):

- the candidates are exactly the units, up to the last one the runs read, whose files changed;
- without a listing before, every unit is compared.

The listing's rows are those of the macro's SQL (_file_listing_sql) computed here from the files; the SQL itself
runs on Spark in tests/integration/test_restated.py. All cases render in one `run-operation` (no Spark)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from .operations import logged_json
from .oracle import changed_file_units

# one `dbt run-operation` renders every case (no Spark): not part of the fast tier (`make test-fast`)
pytestmark = [pytest.mark.dbt, pytest.mark.one_engine]

UNITS = [f"2025-03-0{d} 00:00:00" for d in range(1, 7)]
EXAMPLES = 300


def file_hash(file: dict) -> int:
    """A signed 64-bit hash of a file's path, size and modification time (the SQL's xxhash64 stands here)."""
    digest = hashlib.sha256(f"{file['path']}|{file['length']}|{file['modified']}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def listing_rows(files: list[dict]) -> list[list[Any]]:
    """The rows _file_listing_sql returns for these files: per unit (input 'b'), the files and their hash sum."""
    return [["b", unit, sum(1 for f in files if f["unit"] == unit),
             str(sum(file_hash(f) for f in files if f["unit"] == unit))]
            for unit in sorted({f["unit"] for f in files})]  # fmt: skip


@st.composite
def file_history(draw) -> dict:
    """A first listing, then what happened to the files before the second: files added, removed, written again
    under their path, or a unit's files all removed; every new file modified at or after the first listing's
    latest (the same millisecond included)."""
    count = draw(st.integers(1, 8))
    first = [
        {"path": f"p{i}", "unit": draw(st.sampled_from(UNITS)), "length": draw(st.integers(1, 3)),
         "modified": draw(st.integers(1000, 1006))}
        for i in range(count)
    ]  # fmt: skip
    seen = max(f["modified"] for f in first)
    files = [dict(f) for f in first]
    for step in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(("add", "remove", "rewrite", "drop unit")))
        later = draw(st.integers(seen, seen + 3))
        if kind == "add" or not files:
            files.append({"path": f"n{step}", "unit": draw(st.sampled_from(UNITS)), "length": draw(st.integers(1, 3)),
                          "modified": later})  # fmt: skip
        elif kind == "remove":
            files.pop(draw(st.integers(0, len(files) - 1)))
        elif kind == "rewrite":
            index = draw(st.integers(0, len(files) - 1))
            files[index] = dict(files[index], length=draw(st.integers(1, 3)), modified=later)
        else:
            unit = draw(st.sampled_from([f["unit"] for f in files]))
            files = [f for f in files if f["unit"] != unit]
    return {"first": first, "second": files, "last_read": draw(st.sampled_from(UNITS))}


def drawn_histories() -> list[dict]:
    """EXAMPLES histories drawn by hypothesis (generation only: the check runs on all of them at once)."""
    found: list[dict] = []

    @settings(max_examples=EXAMPLES, phases=[Phase.generate], database=None, deadline=None)
    @given(file_history())
    def collect(history: dict) -> None:
        found.append(history)

    collect()
    return found


def render(histories: list[dict], state_dir: Path) -> dict[str, Any]:
    """_listed_files over each history's two listings, in one `run-operation render_listed_files`."""
    cases = [
        {"id": str(index), "first": listing_rows(history["first"]), "second": listing_rows(history["second"]),
         "last_read": history["last_read"]}
        for index, history in enumerate(histories)
    ]  # fmt: skip
    return logged_json("render_listed_files", {"cases": cases}, state_dir)


@pytest.fixture(scope="module")
def histories_and_results(tmp_path_factory) -> tuple[list[dict], dict[str, Any]]:
    histories = drawn_histories()
    first = [{"path": "p0", "unit": UNITS[0], "length": 1, "modified": 1000},
             {"path": "p1", "unit": UNITS[2], "length": 1, "modified": 1004},
             {"path": "p2", "unit": UNITS[4], "length": 1, "modified": 1004}]  # fmt: skip
    fixed = [
        # nothing changed
        {"first": first, "second": first, "last_read": UNITS[5]},
        # a unit's file removed, nothing written: that unit
        {"first": first, "second": first[1:], "last_read": UNITS[5]},
        # a unit written again in the same millisecond as the listing's latest file, another one after the last
        # read: only the first
        {"first": first, "second": [first[0], dict(first[1], path="p3"), dict(first[2], modified=1005)],
         "last_read": UNITS[3]},
    ]  # fmt: skip
    histories = fixed + histories
    return histories, render(histories, tmp_path_factory.mktemp("listed-files-dbt"))


def test_fixed_histories(histories_and_results) -> None:
    _, results = histories_and_results
    assert [results[str(i)][1]["candidates"] for i in range(3)] == [[], [UNITS[0]], [UNITS[2]]]


def test_exactly_the_changed_units_are_candidates(histories_and_results) -> None:
    histories, results = histories_and_results
    assert len(results) == len(histories)
    outcomes = {"none": 0, "some": 0}
    for index, history in enumerate(histories):
        first, second = results[str(index)]
        assert first["candidates"] == "all", history  # no listing before the first: every unit is compared
        changed = changed_file_units(history["first"], history["second"], history["last_read"])
        assert second["candidates"] == sorted(changed), history
        outcomes["some" if changed else "none"] += 1
    # the draws reach both outcomes (a check that never sees one proves nothing about it)
    assert all(outcomes.values()), outcomes
