"""The pytest example of docs/testing.md (Python models: the same with pytest) runs as printed and passes.

The code is the fenced ```python block right after the marker comment ``<!-- docs-example: testing -->``; each of
its ``test_*`` functions is called with the suite's SparkSession, as pytest would call it with the doc's fixture.
"""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "testing.md"
MARKER = "<!-- docs-example: testing -->"


def docs_example() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert text.count(MARKER) == 1, f"docs/testing.md must contain the marker {MARKER!r} exactly once"
    match = re.match(r"\s*```python\n(.*?)\n```", text.split(MARKER, 1)[1], re.S)
    assert match, f"no ```python block directly after {MARKER!r} in docs/testing.md"
    return match.group(1)


def test_the_pytest_example_for_python_models_passes(spark):
    namespace: dict = {}
    exec(compile(docs_example(), str(DOC), "exec"), namespace)
    tests = sorted(name for name in namespace if name.startswith("test_"))
    assert tests == ["test_first_run_ends_at_the_watermark", "test_next_run_after_the_inputs_are_loaded_up_to_03_20"]
    for name in tests:
        namespace[name](spark)
