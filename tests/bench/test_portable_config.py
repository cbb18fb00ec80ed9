"""A benchmark's JSON result keeps no path of the machine that ran it (bench/run.py's _portable)."""

from __future__ import annotations

from pathlib import Path

from bench.run import BENCH, OUTSIDE, _portable


def test_paths_inside_the_repository_are_relative_and_others_are_not_named():
    assert _portable(BENCH / "results") == "bench/results"
    assert _portable(BENCH.parent.parent / "bench-out") == OUTSIDE  # beside the repository
    assert _portable(Path("/")) == OUTSIDE
    assert _portable((1, 2)) == [1, 2] and _portable(3) == 3
