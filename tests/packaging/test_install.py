"""`pip install /path/to/inc_join` (not editable) writes nothing into the source tree: no build/, no *.egg-info
(issue 40; the setuptools build left both). The install runs on a copy of the repository's tracked files, the
tree a fresh clone has, and the copy is compared file by file before and after. No Spark; a few seconds."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def tracked_files() -> list[str]:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs a git checkout (the tracked files are the tree a fresh clone has)")
    done = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True)
    return [name for name in done.stdout.split("\0") if name and (REPO / name).is_file()]


def tree(root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for path in root.rglob("*")}


def test_a_path_install_leaves_the_source_tree_as_it_was_and_the_module_imports(tmp_path):
    checkout = tmp_path / "inc_join"
    for name in tracked_files():
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, checkout / name)
    before = tree(checkout)
    target = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", "-q"]
        + ["--target", str(target), str(checkout)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert tree(checkout) - before == set()  # no build/, no src/*.egg-info, nothing else
    assert tree(checkout) == before

    # the installed copy: the module dbt-core's scan of `dbt_*` modules finds, with its py.typed, importable alone
    assert (target / "dbt_inc_join" / "py.typed").is_file()
    # and the macros, the one source of the SQL text the core renders: the repository's files, each once
    macros = sorted(p.relative_to(REPO / "macros").as_posix() for p in (REPO / "macros").rglob("*.sql"))
    shipped = target / "dbt_inc_join" / "macros"
    assert sorted(p.relative_to(shipped).as_posix() for p in shipped.rglob("*.sql")) == macros
    code = (
        "import pkgutil, sys\n"
        f"sys.path.insert(0, {str(target)!r})\n"
        "import dbt_inc_join\n"
        "from dbt_inc_join.sql_text import macro_root, render\n"
        f"print(dbt_inc_join.__file__.startswith({str(target)!r}), dbt_inc_join.__version__)\n"
        f"print([m.name for m in pkgutil.iter_modules([{str(target)!r}])])\n"
        f"print(str(macro_root()).startswith({str(target)!r}), render('_quote', 'a`b'))\n"
    )
    environ = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    imported = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=environ
    )
    assert imported.returncode == 0, imported.stderr
    from dbt_inc_join.tables.shared_tables import VERSION

    assert imported.stdout.split("\n")[:3] == [f"True {VERSION}", "['dbt_inc_join']", "True `a``b`"]


@pytest.mark.spark
def test_the_core_runs_the_readme_example_where_dbt_is_not_installed(tmp_path):
    """Issue 41: the core needs pyspark and jinja2, not dbt. The installed package, beside only pyspark, py4j,
    jinja2 and markupsafe (links to this environment's copies), in a Python started without site-packages, runs
    the README's worked example and gets its seven rows; `import dbt` fails there."""
    import importlib

    from tests.test_readme_examples import SEVEN_ROWS, readme_python_example

    checkout = tmp_path / "inc_join"
    for name in tracked_files():
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, checkout / name)
    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", "-q"]
    done = subprocess.run(pip + ["--target", str(target), str(checkout)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    for module in ("pyspark", "py4j", "jinja2", "markupsafe"):
        (target / module).symlink_to(Path(importlib.import_module(module).__file__).parent)
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(target)!r})\n"
        "try:\n    import dbt\nexcept ModuleNotFoundError:\n    print('no dbt')\n"
        "from pyspark.sql import SparkSession\n"
        "spark = (SparkSession.builder.master('local[1]').config('spark.ui.enabled', 'false')\n"
        "         .config('spark.sql.shuffle.partitions', '2').getOrCreate())\n"
        + readme_python_example()
        + "\nprint(sorted((r.TrxId, str(r.RecDate), r.JoinType) for r in result.collect()))\n"
    )
    environ = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "SPARK_HOME")}
    ran = subprocess.run(  # -S: no site-packages, so nothing of this environment but the links above
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=environ
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    lines = ran.stdout.strip().splitlines()
    assert lines[0] == "no dbt"
    assert lines[-1] == str(sorted((trx, str(day), code) for trx, day, code, *_ in SEVEN_ROWS))


def test_the_installed_distribution_holds_the_macros_only_as_a_wheel():
    """The wheel ships macros/ inside the package (hatch_build.py asks for it in the standard wheel); an editable
    install (`pip install -e .`, make's venvs) finds the checkout's macros/ and installs no copy of them: no folder
    dbt_inc_join/macros without a module in site-packages, which a process hiding the package (tests/adapter's
    `without` run) would still find."""
    from importlib.metadata import distribution

    found = distribution("dbt-inc-join")
    direct_url = json.loads(found.read_text("direct_url.json") or "{}")
    macro_files = [str(name) for name in found.files or () if str(name).startswith("dbt_inc_join/macros/")]
    if direct_url.get("dir_info", {}).get("editable"):
        assert macro_files == []
        assert [str(name) for name in found.files or () if str(name).startswith("dbt_inc_join/")] == []
    else:
        assert "dbt_inc_join/macros/inc_join.sql" in macro_files
