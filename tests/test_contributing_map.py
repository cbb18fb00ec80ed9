"""CONTRIBUTING.md's map is true: every file of the package (src/dbt_inc_join/ and macros/) is named there by its
path relative to its root, in backticks, so a newcomer finds each file and what it is for."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ROOTS = ("src/dbt_inc_join", "macros")


def package_files() -> list[tuple[str, str]]:
    files = []
    for root in ROOTS:
        base = REPO / root
        for path in sorted(base.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files.append((root, path.relative_to(base).as_posix()))
    return files


def test_the_package_has_files():
    assert len(package_files()) > 50


@pytest.mark.parametrize("root, name", package_files(), ids=lambda value: value)
def test_every_package_file_is_on_the_map(root, name):
    assert f"`{name}`" in (REPO / "CONTRIBUTING.md").read_text(), f"{root}/{name} is not named in CONTRIBUTING.md"
