"""What `make test-coverage` measures in every Python process of the suite (dbt's, Spark's workers, the fault
drivers): line coverage of the package (coverage.py, started by COVERAGE_PROCESS_START) and the package's Jinja
macros called (INC_JOIN_MACRO_TRACE: each process appends `name<TAB>calls` lines to a file of its own there).

A .pth file in each test venv imports this module (the target writes it); it is never imported by the package.
jinja2's Macro._invoke runs for every macro call, dbt's (a MacroGenerator calls the compiled macro) and the core's
(sql_text.macros) alike; scripts/coverage_report.py keeps the names that macros/ defines."""

from __future__ import annotations

import atexit
import collections
import contextlib
import os
from typing import Any


def _start_coverage() -> None:
    if os.environ.get("COVERAGE_PROCESS_START"):
        with contextlib.suppress(ImportError):  # a venv without coverage (the install tier's fresh ones)
            import coverage

            coverage.process_startup()


def _trace_macros(folder: str) -> None:
    import jinja2.runtime

    called: collections.Counter[str] = collections.Counter()
    invoke = jinja2.runtime.Macro._invoke

    def counted(self: Any, arguments: Any, autoescape: Any) -> Any:
        # dbt and sql_text.macros compile each macro under this prefix
        called[(self.name or "").removeprefix("dbt_macro__")] += 1  # a call block's macro has no name
        return invoke(self, arguments, autoescape)

    jinja2.runtime.Macro._invoke = counted  # type: ignore[method-assign]

    def write() -> None:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"macros-{os.getpid()}.tsv"), "a", encoding="utf-8") as out:
            out.writelines(f"{name}\t{n}\n" for name, n in called.items())

    atexit.register(write)


_start_coverage()
if os.environ.get("INC_JOIN_MACRO_TRACE"):
    with contextlib.suppress(ImportError):  # no jinja2 in this process's environment
        _trace_macros(os.environ["INC_JOIN_MACRO_TRACE"])
