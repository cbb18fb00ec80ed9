"""What `make test-coverage` measures in every Python process of the suite (dbt's, Spark's workers, the fault
drivers): line coverage of the package (coverage.py, started by COVERAGE_PROCESS_START) and the package's Jinja
macros called (INC_JOIN_MACRO_TRACE: each process appends `name<TAB>calls<TAB>test` lines to a file of its own
there), both per test (test_context: coverage.py's context, and the trace's third column).

A .pth file in each test venv imports this module (the target writes it); it is never imported by the package.
jinja2's Macro._invoke runs for every macro call, dbt's (a MacroGenerator calls the compiled macro) and the core's
(sql_text.macros) alike; scripts/coverage_report.py keeps the names that macros/ defines."""

from __future__ import annotations

import atexit
import collections
import contextlib
import os
from typing import Any


def context_name(test_id: str, leg: str | None = None) -> str:
    """A test's name in the coverage data and the macro traces: `<leg> <test id>` (the leg: INC_JOIN_COVERAGE_LEG,
    which tests/conftest.py sets from the leg's JUnit XML, or `leg`)."""
    return f"{os.environ.get('INC_JOIN_COVERAGE_LEG', '') if leg is None else leg} {test_id}".strip()


def test_context() -> str:
    """The test this process works for: pytest names the running test in PYTEST_CURRENT_TEST, which a process the
    test starts inherits; '' outside a test."""
    current = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    return context_name(current) if current else ""


def _start_coverage() -> None:
    if os.environ.get("COVERAGE_PROCESS_START"):
        with contextlib.suppress(ImportError):  # a venv without coverage (the install tier's fresh ones)
            import coverage

            started = coverage.process_startup()
            if started is not None and test_context():  # a process a test started: its lines are that test's
                started.switch_context(test_context())


def _trace_macros(folder: str) -> None:
    import jinja2.runtime

    called: collections.Counter[tuple[str, str]] = collections.Counter()
    invoke = jinja2.runtime.Macro._invoke

    def counted(self: Any, arguments: Any, autoescape: Any) -> Any:
        # dbt and sql_text.macros compile each macro under this prefix
        called[((self.name or "").removeprefix("dbt_macro__"), test_context())] += 1  # a call block's has no name
        return invoke(self, arguments, autoescape)

    jinja2.runtime.Macro._invoke = counted  # type: ignore[method-assign]

    def write() -> None:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"macros-{os.getpid()}.tsv"), "a", encoding="utf-8") as out:
            out.writelines(f"{name}\t{n}\t{test}\n" for (name, test), n in called.items())

    atexit.register(write)


if __name__ != "harness.coverage_hook":  # run by the .pth file; imported (for context_name), it starts nothing
    _start_coverage()
    if os.environ.get("INC_JOIN_MACRO_TRACE"):
        with contextlib.suppress(ImportError):  # no jinja2 in this process's environment
            _trace_macros(os.environ["INC_JOIN_MACRO_TRACE"])
