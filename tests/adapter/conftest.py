"""dbt's own adapter test suite (dbt-tests-adapter) on dbt-spark `method: session`, run once in projects without
this package and once with it installed as the README's steps 1 and 2 say (issue 28): installing inc_join must
change nothing a project did not ask for.

`INC_JOIN_ADAPTER_PACKAGE` = `without` | `with` chooses the mode (the Makefile's leg runs both). With the package,
every test project gets `packages.yml` with `local:` this repository, the package linked into `dbt_packages/`
as `dbt deps` links a local package (dbt-tests-adapter runs no `deps`), and README step 2's `dispatch` entry.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest
import yaml
from dbt.tests.fixtures.project import *  # noqa: F403  (dbt-tests-adapter's fixtures: project, run_dbt's set-up)
from dbt.tests.util import write_file

from harness.local_spark import local_spark_settings

REPO = Path(__file__).resolve().parents[2]
MODES = ("without", "with")


def package_mode() -> str:
    mode = os.environ.get("INC_JOIN_ADAPTER_PACKAGE", "without")
    if mode not in MODES:
        raise pytest.UsageError(f"INC_JOIN_ADAPTER_PACKAGE must be one of {MODES} (got {mode!r}).")
    return mode


def with_package() -> bool:
    return package_mode() == "with"


def _hide_the_python_package() -> None:
    """Without the package means without its Python module too: dbt-core imports every installed `dbt_*` module,
    and this repository's venv has `dbt_inc_join` installed editable (a path entry for src/). Dropping that entry
    before dbt is imported makes the process see a machine where only dbt-spark is installed."""
    source = (REPO / "src").resolve()
    sys.path[:] = [entry for entry in sys.path if not entry or Path(entry).resolve() != source]
    # the editable install puts nothing else into site-packages (hatch_build.py: the macros' copy is the wheel's
    # only; tests/packaging/test_install.py), so nothing named dbt_inc_join is left to import
    if importlib.util.find_spec("dbt_inc_join") is not None:
        raise pytest.UsageError("dbt_inc_join is still importable: the `without` run needs it absent.")


if not with_package():
    _hide_the_python_package()


@pytest.fixture(scope="session")
def adapter_state(tmp_path_factory) -> Path:
    """The warehouse and Derby metastore of this process's one SparkSession (dbt-spark's session method)."""
    return tmp_path_factory.mktemp("adapter-spark-state")


@pytest.fixture(scope="class")
def dbt_profile_target(adapter_state):
    """A `method: session` profile whose settings are the embedded Spark's of the tests (harness/local_spark.py)."""
    settings = local_spark_settings(adapter_state)
    return {"type": "spark", "method": "session", "host": "localhost", "threads": 1, "server_side_parameters": settings}


@pytest.fixture(scope="class")
def dbt_project_yml(project_root, project_config_update):
    """dbt-tests-adapter's project file, plus, with the package, README step 2's dispatch entry; and the
    package itself as README step 1 installs it (packages.yml, linked into dbt_packages/ as `dbt deps` does)."""
    config = {"name": "test", "profile": "test", "flags": {"send_anonymous_usage_stats": False}}
    update = project_config_update
    if isinstance(update, str):
        update = yaml.safe_load(update)
    config.update(update or {})
    if with_package():
        name = config["name"]
        config["dispatch"] = [{"macro_namespace": "dbt", "search_order": [name, "dbt_inc_join", "dbt"]}]
        write_file(yaml.safe_dump({"packages": [{"local": str(REPO)}]}), project_root, "packages.yml")
        packages = Path(str(project_root)) / "dbt_packages"
        packages.mkdir(exist_ok=True)
        link = packages / "dbt_inc_join"
        if not link.exists():
            link.symlink_to(REPO, target_is_directory=True)
    write_file(yaml.safe_dump(config), project_root, "dbt_project.yml")
    return config
