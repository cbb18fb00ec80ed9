"""Issue 71 item 3: docs/table-formats.md's "Two processes on one metastore" as a user follows it. The README's
profile with the section's lines for a Derby network server (its URL, the client driver, the client jar on the
driver's class path) in place of the embedded ConnectionURL; two `dbt run` processes at the same time, each building
a table of its own, both succeed, and a third process reads both tables. A release check (`make test-matrix`, on the
Delta leg: the Derby network jars come with `make jars`; the tables are the README profile's parquet): `make test`
runs the section's lines in tests/formats/test_concurrent_runs.py, whose two dbt processes share the server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ..integration.test_state_dir_in_use import readme_profile
from .test_concurrent_runs import metastore, network_jars, shared_metastore_block  # noqa: F401  (metastore: a fixture)

# the README's parquet profile: the same on either format leg, so the Delta leg runs it (three dbt processes)
pytestmark = [pytest.mark.dbt, pytest.mark.one_format("delta"), pytest.mark.release]


def shared_profile(url: str, client_jar: str) -> str:
    """The README's profile with the section's yaml lines instead of its ConnectionURL line."""
    lines = (
        shared_metastore_block()
        .replace("jdbc:derby://127.0.0.1:1527/", url)
        .replace("/opt/jars/derbyclient-10.16.1.1.jar", client_jar)
    )
    profile = readme_profile()
    embedded = next(line for line in profile.splitlines() if "javax.jdo.option.ConnectionURL" in line)
    indent = re.match(r"\s*", embedded).group(0)
    shared = "\n".join(indent + line.strip() for line in lines.strip().splitlines())
    return profile.replace(embedded, shared)


def test_two_dbt_processes_at_once_share_a_derby_network_metastore(metastore, tmp_path):  # noqa: F811
    project = tmp_path / "project"
    (project / "models").mkdir(parents=True)
    for name in ("first", "second"):
        (project / "models" / f"{name}.sql").write_text(
            f"{{{{ config(materialized='table') }}}}\nselect '{name}' as x\n"
        )
    [client] = [jar for jar in network_jars() if "derbyclient" in jar]
    profile = shared_profile(metastore, client)
    name = profile.split(":", 1)[0].strip()
    (project / "dbt_project.yml").write_text(f"name: shared\nversion: '1.0'\nconfig-version: 2\nprofile: {name}\n")
    (project / "profiles.yml").write_text(profile)
    env = {**os.environ, "INC_JOIN_STATE_DIR": str(tmp_path / "state"), "SPARK_LOCAL_IP": "127.0.0.1",
           "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}  # fmt: skip
    dbt = str(Path(sys.executable).parent / "dbt")

    def command(*args: str, target: str) -> list[str]:
        return [dbt, *args, "--project-dir", str(project), "--profiles-dir", str(project),
                "--target-path", str(tmp_path / target), "--log-path", str(tmp_path / f"logs-{target}")]  # fmt: skip

    running = {
        model: subprocess.Popen(
            command("run", "--select", model, target=model),
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        for model in ("first", "second")
    }
    said = {model: process.communicate(timeout=900)[0] for model, process in running.items()}
    for model, process in running.items():
        assert process.returncode == 0, said[model][-4000:]
    both = subprocess.run(
        command("show", "--inline", "select x from analytics.first union all select x from analytics.second",
                target="show"),
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert both.returncode == 0, both.stdout[-4000:] + both.stderr[-4000:]
    assert "first" in both.stdout and "second" in both.stdout, both.stdout
