"""A run-operation of the integration project that logs one JSON document, read back through dbtRunner's callbacks
(tests/core/test_renders_as_dbt.py and test_changed_files.py render the package's macros this way: no query, so
no Spark)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from harness.local_dbt import LocalDbtProject, failure_text

PROJECT = Path(__file__).resolve().parents[2] / "integration_tests"
_DBT_ENV = ("INC_JOIN_STATE_DIR", "INC_JOIN_TODAY", "DBT_TARGET_PATH", "DBT_LOG_PATH")


def logged_json(operation: str, arguments: dict[str, Any], state_dir: Path) -> Any:
    """`dbt run-operation <operation> --args <arguments>`; the JSON of its one log line '<operation> {...}'.

    The environment dbt needs is set for the invocation only: the other tests of the run keep theirs."""
    lines: list[str] = []
    errors: list[str] = []

    def capture(event: Any) -> None:
        if event.info.name in ("JinjaLogDebug", "JinjaLogInfo") and event.data.msg.startswith(f"{operation} "):
            lines.append(event.data.msg)
        elif event.info.level == "error":
            errors.append(event.info.msg)

    saved = {name: os.environ.get(name) for name in _DBT_ENV}
    try:
        project = LocalDbtProject(PROJECT, state_dir, write_json=False)
        if not (PROJECT / "dbt_packages" / "dbt_inc_join").exists():
            project.invoke("deps")
        result = project.invoke(
            "run-operation", operation, "--args", json.dumps(arguments), callbacks=[capture], expect_success=False
        )
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    if not result.success:
        pytest.fail(f"dbt run-operation {operation} failed: {failure_text(result)} {' '.join(errors)}")
    assert len(lines) == 1, f"{operation} logs one JSON document"
    return json.loads(lines[0].removeprefix(f"{operation} "))
