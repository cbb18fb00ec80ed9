"""The README's Python example runs as printed and gives the worked example's seven rows (docs/spec.md §9).

The code is taken from README.md itself: the fenced ```python block right after the marker comment
``<!-- readme-example: python -->``, executed on the suite's SparkSession as ``spark``. The table printed
under it in the README is checked against the same rows, so neither can drift from the other.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
MARKER = "<!-- readme-example: python -->"

COLUMNS = ["TrxId", "RecDate", "JoinType", "JoinTypeName", "DiffArrivalTime", "WaitingTime"]
SEVEN_ROWS = [
    (1, date(2025, 3, 6), 2, "a_late", -1, None),
    (2, date(2025, 3, 6), 2, "a_late", -2, None),
    (3, date(2025, 3, 6), 1, "same_time", 0, None),
    (4, date(2025, 3, 7), 1, "same_time", 0, None),
    (7, date(2025, 3, 8), 2, "a_late", -2, None),
    (5, date(2025, 3, 12), 3, "b_late", 5, None),
    (6, date(2025, 3, 17), 4, "a_timed_out", None, 10),
]


def _after_marker() -> str:
    text = README.read_text(encoding="utf-8")
    assert text.count(MARKER) == 1, f"README.md must contain the marker {MARKER!r} exactly once"
    return text.split(MARKER, 1)[1]


def readme_python_example() -> str:
    match = re.match(r"\s*```python\n(.*?)\n```", _after_marker(), re.S)
    assert match, f"no ```python block directly after {MARKER!r} in README.md"
    return match.group(1)


def readme_output_table() -> list:
    """The rows of the first Markdown table after the example, as Python values."""
    rest = _after_marker().split("\n```", 2)[-1]  # skip the code block
    lines = [line for line in rest.splitlines() if line.startswith("|")]
    table = []
    for line in lines[2:]:  # header and separator first
        cells = [c.strip().replace("\u2212", "-") for c in line.strip("|").split("|")]
        if not cells[0].isdigit():
            break
        trx, day, code, name, diff, waiting = cells
        value = lambda cell: None if cell == "null" else int(cell)  # noqa: E731
        table.append((int(trx), date.fromisoformat(day), int(code), name, value(diff), value(waiting)))
        if len(table) == len(SEVEN_ROWS):
            break
    return table


def test_readme_python_example_gives_the_worked_example(spark, capsys):
    namespace = {"spark": spark, "__name__": "readme_example"}
    exec(compile(readme_python_example(), "README.md (python example)", "exec"), namespace)
    result = namespace["result"]

    assert result.columns == COLUMNS
    assert [tuple(row) for row in result.orderBy("RecDate", "TrxId").collect()] == SEVEN_ROWS
    shown = capsys.readouterr().out
    assert "a_timed_out" in shown and "2025-03-17" in shown, "the example's show() printed something else"


def test_readme_output_table_is_the_worked_example():
    assert readme_output_table() == SEVEN_ROWS
