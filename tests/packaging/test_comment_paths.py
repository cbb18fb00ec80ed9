"""Every repository path that a comment names exists (issue 73): 17 comments in the macros named Python files
removed long before, and sent a reader nowhere. Read here: Python comments and docstrings, Jinja and SQL comments,
the text of the docs (docs/*.md, macros/*.yml, CONTRIBUTING.md). A path is a name with the extension .py, .sql,
.md or .yml, with or without folders; it must be a file of the repository or the tail of one (`plan/window.py`
stands for src/dbt_inc_join/plan/window.py, `_render.sql` for macros/sql_text/_render.sql). No Spark."""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("macros", "src", "tests", "docs")
# CONTRIBUTING.md too; not the README and the CHANGELOG, which name a user's own files and files of the past
ALSO = ("CONTRIBUTING.md",)
# local state a checkout may hold beside its files (see .gitignore): never a file a comment may name
NOT_SOURCES = {"target", "logs", "dbt_packages", "build", "dist", "__pycache__", "spark-warehouse", "metastore_db"}
PATH = re.compile(r"(?<![\w./<>*{}-])((?:\.\.?/)*[\w-][\w.-]*(?:/[\w.-]+)*\.(?:py|sql|md|yml))(?![\w/*-])")
URL = re.compile(r"\w+://\S+")
# pyspark.sql, org.apache.spark.sql, io.delta.sql and the method spark.sql are packages and a call, not files
SPARK_NAME = re.compile(r"(?:^|\.)(?:py)?spark\.sql$|\.delta\.sql$")
# the user's own project that docs/testing.md writes tests for: its files are not this repository's
EXAMPLES = {
    ("docs/testing.md", "models/trx_matched.yml"),
    ("docs/testing.md", "models/trx_matched_py.py"),
    ("docs/testing.md", "tests/test_trx_matched_py.py"),
}


def repository_files() -> set[str]:
    files = set()
    for folder, folders, names in os.walk(REPO):
        folders[:] = [f for f in folders if not f.startswith(".") and f not in NOT_SOURCES]  # not walked into
        base = Path(folder).relative_to(REPO)
        files |= {(base / name).as_posix() for name in names if not name.startswith(".")}
    return files


def python_comments(text: str) -> Iterator[tuple[int, str]]:
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            docstring = ast.get_docstring(node, clean=False)
            if docstring:
                yield node.body[0].lineno, docstring


READ = (".py", ".sql", ".md", ".yml")
SQL_COMMENT = re.compile(r"\{#.*?#\}|/\*.*?\*/|--[^\n]*", re.S)


def comments(name: str, text: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each comment of a file; a document's lines are all its text."""
    if name.endswith(".py"):
        yield from python_comments(text)
    elif name.endswith(".sql"):
        for found in SQL_COMMENT.finditer(text):
            yield text.count("\n", 0, found.start()) + 1, found.group()
    elif name.endswith((".md", ".yml")):
        yield from enumerate(text.splitlines(), start=1)


def named_paths(name: str, text: str) -> Iterator[tuple[int, str]]:
    for line, comment in comments(name, text):
        for found in PATH.finditer(URL.sub("", comment)):
            if not SPARK_NAME.search(found.group(1)):
                yield line, found.group(1)


def tails(files: set[str]) -> set[str]:
    """Every file's path and each tail of it that starts at a folder or at its name."""
    found = set()
    for file in files:
        parts = file.split("/")
        found |= {"/".join(parts[i:]) for i in range(len(parts))}
    return found


def is_file(path: str, known: set[str]) -> bool:
    while path.startswith(("./", "../")):
        path = path.split("/", 1)[1]
    return path in known


def missing_paths() -> list[str]:
    files = repository_files()
    known = tails(files)
    missing = []
    read = [f for f in files if (f.startswith(tuple(f"{root}/" for root in ROOTS)) or f in ALSO) and f.endswith(READ)]
    for name in sorted(read):
        text = (REPO / name).read_text(encoding="utf-8")
        for line, path in named_paths(name, text):
            if not is_file(path, known) and (name, path) not in EXAMPLES:
                missing.append(f"{name}:{line}: {path}")
    return missing


def test_every_path_a_comment_names_exists():
    missing = missing_paths()
    assert not missing, "comments name paths that do not exist:\n" + "\n".join(missing)


@pytest.mark.parametrize(
    "comment, expected",
    [
        ("# the rule of placement.py", ["placement.py"]),
        (
            "# see plan/window.py and `sql_text/_render.sql`, (docs/spec.md#2-terms)",
            ["plan/window.py", "sql_text/_render.sql", "docs/spec.md"],
        ),
        ("# [the spec](../docs/spec.md).", ["../docs/spec.md"]),
        ("# spark.sql runs it; pyspark.sql.DataFrame; org.apache.spark.sql.delta", []),
        ("# every tables/generated/*.sql, _render*.sql, scenarios/<name>.sql, test_sizing_*.py", []),
        ("# https://example.org/a/README.md", []),
    ],
)
def test_what_counts_as_a_path(comment, expected):
    assert [path for _, path in named_paths("x.py", comment)] == expected


def test_a_missing_path_is_found():
    files = tails({"src/dbt_inc_join/plan/window.py", "docs/spec.md"})
    assert is_file("plan/window.py", files) and is_file("../docs/spec.md", files) and is_file("window.py", files)
    assert not is_file("io/window.py", files) and not is_file("indow.py", files) and not is_file("placement.py", files)
