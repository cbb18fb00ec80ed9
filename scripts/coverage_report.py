"""The report of `make test-coverage`: line coverage of src/dbt_inc_join (coverage.py's combined data) and the
package's macros called by the suite (harness/coverage_hook.py's traces), per macros/ folder, with the ones
never called listed; then the longest tests (the legs' JUnit XML) with the src lines and macros that no other
test of the suite reaches: a long test that reaches none only repeats what others run.

    python scripts/coverage_report.py DATA_DIR
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # harness/ (repository only, not installed)
_MACRO = re.compile(r"{%-?\s*macro\s+(\w+)\s*\(")


def defined_macros(root: Path) -> dict[str, str]:
    """name -> folder (relative to macros/) of every macro the package defines."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*.sql")):
        for name in _MACRO.findall(path.read_text(encoding="utf-8")):
            found[name] = str(path.parent.relative_to(root))
    return found


def macro_calls(folder: Path) -> list[tuple[str, int, str]]:
    """(macro, calls, test) of every trace line (test: '' outside a test)."""
    found = []
    for trace in folder.glob("macros-*.tsv"):
        for line in trace.read_text(encoding="utf-8").splitlines():
            name, count, test = (line.split("\t") + ["", ""])[:3]
            found.append((name.removeprefix("dbt_macro__"), int(count or 0), test))
    return found


def called_macros(folder: Path) -> collections.Counter[str]:
    called: collections.Counter[str] = collections.Counter()
    for name, count, _ in macro_calls(folder):
        called[name] += count
    return called


def only_reached_by(reached: dict[object, set[str]]) -> collections.Counter[str]:
    """test -> how many of the items (lines, macros) it alone reaches; `reached`: item -> the tests that reach it."""
    alone: collections.Counter[str] = collections.Counter()
    for tests in reached.values():
        if len(tests) == 1:
            alone[next(iter(tests))] += 1
    return alone


def test_times(junit: Path) -> dict[str, float]:
    """'<leg> <test id>' -> seconds, from every leg's JUnit XML (tests/conftest.py names the leg after it)."""
    import xml.etree.ElementTree as ElementTree

    from harness.coverage_hook import context_name

    times = {}
    for path in junit.glob("*.xml"):
        for case in ElementTree.parse(path).getroot().iter("testcase"):
            parts = case.get("classname", "").split(".")
            classes = [part for part in parts if part[:1].isupper()]  # a test class: module::Class::name
            module = "/".join(parts[: len(parts) - len(classes)])
            test = "::".join([f"{module}.py", *classes, case.get("name", "")])
            times[context_name(test, leg=path.stem)] = float(case.get("time", 0))
    return times


def unique_table(data_file: Path, traces: Path, junit: Path, longest: int = 25) -> list[str]:
    """The longest tests, each with the src lines and the package macros that no other test reaches."""
    from coverage import CoverageData

    data = CoverageData(basename=str(data_file))
    data.read()
    src = str(ROOT / "src" / "dbt_inc_join")
    lines: dict[object, set[str]] = {}
    for path in data.measured_files():
        if path.startswith(src):
            for number, contexts in data.contexts_by_lineno(path).items():
                lines[(path, number)] = set(contexts)
    defined = defined_macros(ROOT / "macros")
    macros: dict[object, set[str]] = collections.defaultdict(set)
    for name, _, test in macro_calls(traces):
        if name in defined:  # the package's, not dbt's own
            macros[name].add(test)
    own_lines, own_macros = only_reached_by(lines), only_reached_by(macros)
    rows = ["| test (leg) | s | src lines only it runs | macros only it calls |", "|---|---:|---:|---:|"]
    for test, seconds in sorted(test_times(junit).items(), key=lambda item: -item[1])[:longest]:
        rows.append(f"| {test} | {seconds:.0f} | {own_lines[test]} | {own_macros[test]} |")
    return rows


def macro_table(defined: dict[str, str], called: collections.Counter[str]) -> list[str]:
    per_folder: dict[str, list[str]] = collections.defaultdict(list)
    for name, folder in defined.items():
        per_folder[folder].append(name)
    lines = ["| macros/ folder | defined | called | never called |", "|---|---:|---:|---|"]
    for folder in sorted(per_folder):
        names = per_folder[folder]
        missed = sorted(name for name in names if not called[name])
        lines.append(f"| {folder} | {len(names)} | {len(names) - len(missed)} | {', '.join(missed)} |")
    total = len(defined)
    hit = sum(1 for name in defined if called[name])
    lines.append(f"| all | {total} | {hit} ({100 * hit / total:.1f} %) | |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="the folder of the coverage data and macro traces")
    data = parser.parse_args().data.resolve()
    rc = data / "coveragerc"
    coverage = [sys.executable, "-m", "coverage"]
    if any(data.glob(".coverage.*")):  # each process's file, merged into .coverage once
        subprocess.run([*coverage, "combine", f"--rcfile={rc}", "-q"], check=True, cwd=data)
    # the repository's src/ only: an install test's copies of the package are measured too, under other paths
    only_src = f"--include={ROOT / 'src' / 'dbt_inc_join'}/*"
    subprocess.run([*coverage, "report", f"--rcfile={rc}", only_src, "--sort=cover"], check=True, cwd=data)
    print("\n".join(macro_table(defined_macros(ROOT / "macros"), called_macros(data / "macros"))))
    print("\n".join(unique_table(data / ".coverage", data / "macros", ROOT / ".pytest-tmp" / "junit")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
