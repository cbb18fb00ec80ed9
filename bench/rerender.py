"""Targets and Markdown of a few-rows run again, from its JSON: after a fix to a check or to the report, without
measuring again (the times, rows and scans are the run's own).

    python -m bench.rerender bench/results/d365-r20000.json   # rewrites d365-r20000.md and the JSON's targets
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from datetime import date
from pathlib import Path

from .few import FewRows
from .metrics import PlanSummary, Scan
from .protocol import Cell, Check, Run, report
from .variants import Case


def cell_from_json(row: dict) -> Cell:
    """One measured cell as the run held it."""
    fields = dict(
        row["case"], start=date.fromisoformat(row["case"]["start"]), end=date.fromisoformat(row["case"]["end"])
    )
    cell = Cell(Case(**fields), row["variant"], len(row["seconds"]))
    built = row.get("build_seconds") or [0.0] * len(row["seconds"])  # runs measured before it was recorded
    cell.runs = [Run(seconds, row["rows"], build=before) for seconds, before in zip(row["seconds"], built, strict=True)]
    cell.check = Check(row["rows"], row["types"], row["fingerprint"])
    cell.plan = PlanSummary([Scan(**scan) for scan in row["scans"]], Counter(row["nodes"]))
    return cell


def rerender(path: Path) -> str:
    result = json.loads(path.read_text())
    if "ledger" in result or any(row.get("suite", "few-rows") != "few-rows" for row in result["cells"]):
        raise SystemExit("bench.rerender: only a few-rows run can be rendered again (--suite few-rows)")
    rendered = "again from the run's JSON by python -m bench.rerender (the times are the run's own)"
    result["context"]["rendered"] = rendered
    suite = FewRows()
    cells = [cell_from_json(row) for row in result["cells"]]
    found, agreed = suite.targets(cells), suite.agreement(cells)
    text = report(result["context"], found, suite.sections(cells, agreed, None))
    path.with_suffix(".md").write_text(text)
    result["targets"] = [asdict(t) for t in found]
    path.write_text(json.dumps(result, indent=1, default=str) + "\n")
    return text


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        raise SystemExit(__doc__)
    print(rerender(Path(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
