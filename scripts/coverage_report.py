"""The report of `make test-coverage`: line coverage of src/dbt_inc_join (coverage.py's combined data) and the
package's macros called by the suite (harness/coverage_hook.py's traces), per macros/ folder, with the ones
never called listed.

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
_MACRO = re.compile(r"{%-?\s*macro\s+(\w+)\s*\(")


def defined_macros(root: Path) -> dict[str, str]:
    """name -> folder (relative to macros/) of every macro the package defines."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*.sql")):
        for name in _MACRO.findall(path.read_text(encoding="utf-8")):
            found[name] = str(path.parent.relative_to(root))
    return found


def called_macros(folder: Path) -> collections.Counter[str]:
    called: collections.Counter[str] = collections.Counter()
    for trace in folder.glob("macros-*.tsv"):
        for line in trace.read_text(encoding="utf-8").splitlines():
            name, _, count = line.partition("\t")
            called[name.removeprefix("dbt_macro__")] += int(count or 0)
    return called


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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
