"""The layers hold (docs/architecture.md#the-layers, issue 73): tables -> sql_text -> plan -> io -> orchestration,
bottom up; a layer uses only those below it, and sizing/ and pictures.py, beside them, use any. In Python every
import of src/dbt_inc_join/ (at the top, inside a function, or for type checking only) is read with ``ast``;
in the macros, every call ``dbt_inc_join._x(...)`` from the folder of the caller to the folder that defines
``_x``. No Spark."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.one_engine  # reads files only: `make test` runs it on Spark 4 only

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src" / "dbt_inc_join"
MACROS = REPO / "macros"
LAYERS = ("tables", "sql_text", "plan", "io", "orchestration")
# beside the layers, above all of them: they may use any layer, no layer uses them
BESIDE = {"src": ("sizing", "pictures", "__init__"), "macros": ("sizing", "generic_tests")}


def rank(layer: str, side: str) -> int:
    if layer in LAYERS:
        return LAYERS.index(layer)
    assert layer in BESIDE[side], f"{side}: {layer} is neither a layer nor beside them: add it to docs and here"
    return len(LAYERS)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(module: str) -> bool:
    return (PACKAGE.parent / module.replace(".", "/") / "__init__.py").exists()


def is_module(module: str) -> bool:
    return is_package(module) or (PACKAGE.parent / f"{module.replace('.', '/')}.py").exists()


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of each import of the package's own modules in one file; ``from .x import y`` names the
    module ``x.y`` when y is a module, else ``x``."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("dbt_inc_join"):
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not source.startswith("dbt_inc_join"):
                continue
            for alias in node.names:
                child = f"{source}.{alias.name}"
                yield node.lineno, child if is_module(child) else source


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        graph[module_name(path)] = {module for _, module in imported_modules(path)} - {module_name(path)}
    return graph


def upward_imports() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = module_name(path)
        for line, module in sorted(set(imported_modules(path))):
            if rank(layer_of(module), "src") > rank(layer_of(here), "src"):
                found.append(f"{path.relative_to(REPO)}:{line}: {layer_of(here)} imports {module}")
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), or of one that imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_module_is_in_a_layer_or_beside():
    graph = import_graph()
    assert len(graph) > 30
    assert {layer_of(module) for module in graph} == set(LAYERS) | set(BESIDE["src"])


def test_no_import_runs_up_the_layers():
    found = upward_imports()
    assert not found, "imports against tables -> sql_text -> plan -> io -> orchestration:\n" + "\n".join(found)


def test_no_circle_between_modules():
    assert cycles(import_graph()) == []


def test_the_checks_see_an_upward_import_and_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    # a relative import of a module, of a name in a module, and of a package's name (sql_text's render)
    modules = {module for _, module in imported_modules(PACKAGE / "orchestration" / "render.py")}
    expected = {"dbt_inc_join.plan.arguments", "dbt_inc_join.plan.plan_choice", "dbt_inc_join.sql_text.statement"}
    assert expected <= modules
    assert {module for _, module in imported_modules(PACKAGE / "plan" / "window.py")} == {
        "dbt_inc_join.sql_text",
        "dbt_inc_join.sql_text.time_units",
        "dbt_inc_join.plan.validation",
    }
    assert rank(layer_of("dbt_inc_join.orchestration.join"), "src") > rank(layer_of("dbt_inc_join.io.redo"), "src")
    assert rank(layer_of("dbt_inc_join.pictures"), "src") > rank(layer_of("dbt_inc_join.orchestration"), "src")


MACRO = re.compile(r"\{%-?\s*(?:macro|test|materialization)\s+(\w+)")
CALL = re.compile(r"\bdbt_inc_join\.(\w+)")
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.S)


def macro_folders() -> dict[str, str]:
    """Each macro's name and the folder (layer) of the file that defines it."""
    folders = {}
    for path in sorted(MACROS.rglob("*.sql")):
        for found in MACRO.finditer(path.read_text()):
            folders[found.group(1)] = path.relative_to(MACROS).parts[0]
    return folders


def macro_calls() -> Iterator[tuple[str, int, str, str, str]]:
    """(file, line, caller's folder, callee's folder, callee) of each call of a package macro, comments left out."""
    folders = macro_folders()
    for path in sorted(MACROS.rglob("*.sql")):
        caller = path.relative_to(MACROS).parts[0]
        code = JINJA_COMMENT.sub(lambda comment: "\n" * comment.group().count("\n"), path.read_text())
        for call in CALL.finditer(code):
            if call.group(1) in folders:
                line = code.count("\n", 0, call.start()) + 1
                yield str(path.relative_to(REPO)), line, caller, folders[call.group(1)], call.group(1)


def upward_macro_calls() -> list[str]:
    return [
        f"{name}:{line}: {caller} calls {callee}'s {macro}"
        for name, line, caller, callee, macro in macro_calls()
        if rank(callee, "macros") > rank(caller, "macros")
    ]


def test_the_macros_are_in_layers_and_their_calls_are_found():
    folders = macro_folders()
    assert len(folders) > 200
    assert set(folders.values()) == set(LAYERS) | set(BESIDE["macros"])
    calls = {(caller, callee, macro) for _, _, caller, callee, macro in macro_calls()}
    assert len(calls) > 300
    assert ("orchestration", "sql_text", "_render_join") in calls


def test_no_macro_call_runs_up_the_layers():
    found = upward_macro_calls()
    assert not found, f"{len(found)} macro calls against the layers:\n" + "\n".join(found)


def test_the_macro_check_sees_an_upward_call(tmp_path, monkeypatch):
    """A plan macro that calls an io macro is found (the check can fail)."""
    (tmp_path / "plan").mkdir()
    (tmp_path / "io").mkdir()
    (tmp_path / "io" / "_x.sql").write_text("{% macro _reader() %}{% endmacro %}\n")
    (tmp_path / "plan" / "_y.sql").write_text("{% macro _rule() %}{{ dbt_inc_join._reader() }}{% endmacro %}\n")
    monkeypatch.setattr(f"{__name__}.MACROS", tmp_path)
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    assert upward_macro_calls() == ["plan/_y.sql:1: plan calls io's _reader"]
