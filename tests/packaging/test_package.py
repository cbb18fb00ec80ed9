"""The Python package as it ships: what the wheel holds, one version everywhere, a cheap ``import dbt_inc_join``
(dbt-core imports every installed ``dbt_*`` module), and the dbt submission helpers' shape. No Spark."""

from __future__ import annotations

import email
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import yaml

import dbt_inc_join

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src" / "dbt_inc_join"
# Local state and build output that a checkout may hold and a fresh clone does not (see .gitignore).
NOT_SOURCES = shutil.ignore_patterns(
    ".git",
    ".venv*",  # .venv and .venv-spark35
    ".bench-peer",
    ".pytest-tmp",  # the test legs' temporary directories, this copy among them
    ".mypy_cache",
    ".ruff_cache",
    ".thrift-server",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".spark-state",
    "spark-warehouse",
    "metastore_db",
    "target",
    "logs",
    "dbt_packages",
    ".cache",
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    """The wheel pip builds from a copy of the checkout's sources (without local state: venvs, Spark state)."""
    source = tmp_path_factory.mktemp("checkout") / "dbt_inc_join"
    shutil.copytree(REPO, source, ignore=NOT_SOURCES)
    out = tmp_path_factory.mktemp("wheel")
    began = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--disable-pip-version-check",
            "-q",
            "-w",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    print(f"wheel built in {time.monotonic() - began:.1f} s")
    [built] = out.glob("*.whl")
    with zipfile.ZipFile(built) as archive:
        yield archive


def test_the_wheel_holds_the_package_and_py_typed_and_no_harness(wheel):
    names = set(wheel.namelist())
    shipped = {name for name in names if not name.startswith("dbt_inc_join-")}
    expected = {path.relative_to(PACKAGE.parent).as_posix() for path in PACKAGE.rglob("*.py")} | {
        "dbt_inc_join/py.typed"
    }
    # and the macros, the one source of the SQL text the core renders (dbt_inc_join.sql_text), every file of them
    macros = PACKAGE.parents[1] / "macros"
    expected |= {
        f"dbt_inc_join/macros/{path.relative_to(macros).as_posix()}" for path in macros.rglob("*") if path.is_file()
    }
    assert shipped == expected
    assert "dbt_inc_join/orchestration/python_models/model.py" in shipped
    assert "dbt_inc_join/orchestration/python_models/__init__.py" in shipped
    assert not any("harness" in name or "local_spark" in name or "local_dbt" in name for name in names)
    dist_info = f"dbt_inc_join-{dbt_inc_join.__version__}.dist-info"
    assert f"{dist_info}/licenses/LICENSE" in names
    # one top-level module, the one dbt-core's scan of installed `dbt_*` modules imports
    assert {name.split("/")[0] for name in names} == {"dbt_inc_join", dist_info}


def test_the_wheel_metadata_is_complete(wheel):
    metadata = email.message_from_bytes(wheel.read(f"dbt_inc_join-{dbt_inc_join.__version__}.dist-info/METADATA"))
    assert metadata["Name"] == "dbt-inc-join"
    assert metadata["Version"] == dbt_inc_join.__version__  # pyproject reads it from the package
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata["Author"] == "inc_join contributors"
    assert metadata["Requires-Python"] == ">=3.10"
    assert {"dbt", "pyspark"} <= set(metadata["Keywords"].split(","))
    classifiers = metadata.get_all("Classifier")
    assert {
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.12",
        "Topic :: Database",
        "Typing :: Typed",
    } <= set(classifiers)
    assert any(url.startswith("Source, https://") for url in metadata.get_all("Project-URL"))


def dev_pins(name: str = "dev") -> dict[str, str]:
    """requirements/<name>.txt's pins, by project name (extras dropped): a toolchain the suite runs on."""
    pins = {}
    for line in (REPO / "requirements" / f"{name}.txt").read_text().splitlines():
        found = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==(\S+)", line.split("#")[0].strip())
        if found:
            pins[found.group(1).lower()] = found.group(2)
    return pins


def test_the_session_extra_keeps_pip_off_dbt_core_pre_releases(wheel):
    """dbt-spark's own bound (dbt-core>=1.8.0rc1) let pip take dbt-core 1.13.0b1 (issue 28): the session extra
    bounds dbt-core to released versions the dbt package accepts, the tested ones among them."""
    from packaging.requirements import Requirement

    metadata = email.message_from_bytes(wheel.read(f"dbt_inc_join-{dbt_inc_join.__version__}.dist-info/METADATA"))
    session = {}
    for text in metadata.get_all("Requires-Dist"):
        requirement = Requirement(text)
        if requirement.marker is not None and requirement.marker.evaluate({"extra": "session"}):
            session[requirement.name] = requirement.specifier
    assert set(session) == {"dbt-core", "dbt-spark", "pyspark"}
    dbt_core = session["dbt-core"]
    # even where another requirement lets pip consider pre-releases (prereleases=True), none of those is allowed
    for pre_release in ("1.13.0b1", "1.12.1rc1", "1.12.1b1", "2.0.0rc9"):
        assert not dbt_core.contains(pre_release, prereleases=True), (pre_release, str(dbt_core))
    assert not dbt_core.contains("1.12.1")  # not yet run by the suite
    assert not dbt_core.contains("1.8.10")  # the dbt package requires dbt 1.9 (require-dbt-version)
    # every toolchain the suite runs is admitted (dbt-core 1.12.0 by the table-format legs)
    for toolchain in ("dev", "spark35", "formats"):
        pins = dev_pins(toolchain)
        for name in ("dbt-core", "dbt-spark", "pyspark"):
            assert session[name].contains(pins[name]), (toolchain, name, pins[name], str(session[name]))


def test_the_readme_install_line_pins_the_tested_versions():
    """README step 1 installs exactly the toolchain of requirements/dev.txt."""
    pins = dev_pins()
    line = next(
        line for line in (REPO / "README.md").read_text().splitlines() if line.startswith('pip install "dbt-core==')
    )
    assert line.split()[2:5] == [
        f'"dbt-core=={pins["dbt-core"]}"',
        f'"dbt-spark[session]=={pins["dbt-spark"]}"',
        f'"pyspark=={pins["pyspark"]}"',
    ], line


def test_one_version_source():
    """``shared_tables.VERSION`` is the version: ``dbt_inc_join.__version__``, what pyproject reads, and (through
    `make generate`) dbt_project.yml's and the run ledger's (macros cannot read dbt_project.yml)."""
    from dbt_inc_join.tables import shared_tables

    assert re.fullmatch(r"\d+\.\d+\.\d+", dbt_inc_join.__version__)
    assert dbt_inc_join.__version__ == shared_tables.VERSION
    project = yaml.safe_load((REPO / "dbt_project.yml").read_text())
    assert str(project["version"]) == dbt_inc_join.__version__, (
        "dbt_project.yml `version:` must equal dbt_inc_join.__version__ (src/dbt_inc_join/tables/shared_tables.py): "
        "run `make generate`"
    )
    version_macro = (REPO / "macros" / "tables" / "generated" / "_package_version.sql").read_text()
    assert re.search(r"macro _package_version\(\) %}.*?return\('([^']+)'\)", version_macro, re.S).group(1) == (
        dbt_inc_join.__version__
    )
    tomllib = pytest.importorskip("tomllib")
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["hatch"]["version"] == {"path": "src/dbt_inc_join/tables/shared_tables.py"}


def test_import_registers_the_helpers_without_pyspark_and_inc_join_model_stays_lazy():
    code = (
        "import sys, dbt_inc_join\n"
        "from dbt.adapters.spark.impl import SparkAdapter\n"
        "print(sorted(SparkAdapter._inc_join_helpers), 'pyspark' in sys.modules)\n"
        "from dbt_inc_join import inc_join_model\n"
        "print(inc_join_model.__module__, 'pyspark' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == [
        "['session', 'spark_connect'] False",
        "dbt_inc_join.orchestration.python_models.model True",
    ]


def test_import_without_dbt_registers_nothing_and_works():
    """The core alone (no dbt installed, e.g. on a Spark platform): importing the package still works."""
    code = (
        "import sys\nsys.modules['dbt.adapters.base'] = None  # as if dbt were absent\n"
        "import dbt_inc_join\nfrom dbt_inc_join.orchestration.python_models import register\nprint(register())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_both_submission_helpers_share_one_base_class():
    from dbt.adapters.base import PythonJobHelper
    from dbt.adapters.spark.impl import SparkAdapter

    from dbt_inc_join.orchestration.python_models.connect import SparkConnectHelper
    from dbt_inc_join.orchestration.python_models.session import SessionHelper
    from dbt_inc_join.orchestration.python_models.submission import BaseInProcessHelper

    assert issubclass(BaseInProcessHelper, PythonJobHelper)
    for helper in (SessionHelper, SparkConnectHelper):
        assert helper.__bases__ == (BaseInProcessHelper,)
        assert "submit" not in vars(helper)  # only where the SparkSession comes from differs
        assert SparkAdapter._inc_join_helpers[helper.submission_method] is helper
    assert (SessionHelper.profile_method, SparkConnectHelper.profile_method) == ("session", "thrift")
    helper = SparkConnectHelper({"unique_id": "model.p.m", "config": {"spark_connect_url": "sc://h:1"}}, None)
    assert (helper.name, helper.url, helper.parsed_model["unique_id"]) == ("model.p.m", "sc://h:1", "model.p.m")
