"""The ANSI mode of the run (INC_JOIN_ANSI, tests/conftest.py) reaches the statements dbt runs: the SQL of a
model and the code of a Python model, each probed inside the model itself."""

from __future__ import annotations

import pytest

from ..conftest import ansi_setting

pytestmark = pytest.mark.dbt


def test_ansi_mode_reaches_dbt_sql_and_python_models(project):
    project.invoke("run", "--select", "engine_probe", "engine_probe_py")
    ansi = ansi_setting() or "false"  # unset: dbt-spark 1.11's own setting
    for name in ("engine_probe", "engine_probe_py"):
        row = project.table(name).first()
        assert (row.ansi_conf, row.size_of_null) == (ansi, None if ansi == "true" else -1), name
