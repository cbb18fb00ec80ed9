"""The README's Delta Lake path, followed from a fresh virtual environment with no step outside the README and the
page it links for the format's profile lines (issue 71): the install line with the Delta row's pyspark, the jars
command, the README's profile plus docs/table-formats.md's Delta lines, packages.yml with a local path, the
README's SQL model with `file_format='delta'`, and `dbt build` / `dbt run` on the command line. Two runs (the
second with the vars the README names to declare the inputs complete) give the worked example's seven rows in a
Delta table. Costs a virtual environment (pip's cache) and three dbt processes: its own tier, `make test-install`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import unquote

import pyarrow.parquet as pq
import pytest
import yaml

from tests.test_readme_examples import SEVEN_ROWS

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
FORMATS_DOC = (REPO / "docs" / "table-formats.md").read_text(encoding="utf-8")

# starts Spark in processes of its own; the recipe's parts run in make test (test_install.py, test_format_jars.py,
# the Delta legs), the recipe end to end in make test-matrix
pytestmark = [pytest.mark.spark, pytest.mark.release]


def fenced_after(text: str, anchor: str, language: str) -> str:
    """The first ```language block after `anchor`."""
    match = re.search(rf"```{language}\n(.*?)\n```", text.split(anchor, 1)[1], re.S)
    assert match, (anchor, language)
    return match.group(1)


def install_line() -> list[str]:
    """README step 1's pip line with the pyspark of the install table's Delta row (Spark 4.1) and this checkout."""
    line = next(ln for ln in fenced_after(README, "### 1. Install", "bash").splitlines() if ln.startswith("pip "))
    row = next(ln for ln in README.splitlines() if ln.startswith("| Delta Lake | 4."))
    pyspark = row.split("|")[2].strip()
    words = [word.strip('"') for word in line.split()[2:]]
    words = [f"pyspark=={pyspark}" if word.startswith("pyspark==") else word for word in words]
    return [str(REPO) if word == "/path/to/inc_join" else word for word in words]


def delta_profile_lines() -> dict[str, str]:
    """docs/table-formats.md's Delta lines of a profile (its first yaml block after 'Delta Lake:')."""
    block = fenced_after(FORMATS_DOC.split("## The profile", 1)[1], "Delta Lake:", "yaml")
    return yaml.safe_load(textwrap.dedent(block))


def run(command: list[str], cwd: Path, env: dict[str, str], timeout: int = 900) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, (command, done.stdout[-4000:], done.stderr[-4000:])
    return done.stdout


def test_the_readme_delta_path_from_a_fresh_environment(tmp_path):
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp_path, dict(os.environ))
    python, dbt = str(venv / "bin" / "python"), str(venv / "bin" / "dbt")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SPARK_HOME", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}:{env['PATH']}"
    run([python, "-m", "pip", "install", "--quiet", *install_line()], tmp_path, env)

    # the jars command, run with the environment's Python: the installed pyspark's line
    jars_line = run([python, str(REPO / "scripts" / "format_jars.py"), "delta", "--dest", str(tmp_path / "jars")],
                    tmp_path, env)  # fmt: skip
    (jars,) = [yaml.safe_load(line)["spark.jars"] for line in jars_line.splitlines()]

    project = tmp_path / "project"
    (project / "models").mkdir(parents=True)
    (project / "seeds").mkdir()
    profile = yaml.safe_load(fenced_after(README, "### 3. A profile", "yaml"))
    (name,) = profile
    parameters = profile[name]["outputs"]["local"]["server_side_parameters"]
    parameters.update({**delta_profile_lines(), "spark.jars": jars})
    (project / "profiles.yml").write_text(yaml.safe_dump(profile))
    (project / "dbt_project.yml").write_text(
        yaml.safe_dump({"name": "readme_delta", "version": "1.0", "profile": name, "config-version": 2})
    )
    packages = yaml.safe_load(fenced_after(README, "### 1. Install", "yaml"))
    packages["packages"] = [{"local": str(REPO)}]  # the README's `- local: ../inc_join` form
    (project / "packages.yml").write_text(yaml.safe_dump(packages))
    model = fenced_after(README, "### 4. A SQL model", "sql")
    assert "file_format='parquet'" in model
    (project / "models" / "trx_matched.sql").write_text(model.replace("file_format='parquet'", "file_format='delta'"))
    days_a = [(1, 6), (2, 6), (3, 6), (4, 7), (5, 7), (6, 7), (7, 8)]  # the worked example's loads (README)
    days_b = [(1, 5), (2, 4), (3, 6), (4, 7), (5, 12), (6, 18), (7, 6)]
    for seed, days in (("trx_financial", days_a), ("trx_sepa", days_b)):
        lines = ["TrxId,RecDate"] + [f"{trx},2025-03-{day:02d}" for trx, day in days]
        (project / "seeds" / f"{seed}.csv").write_text("\n".join(lines) + "\n")
    (project / "seeds" / "seeds.yml").write_text(
        yaml.safe_dump(
            {
                "version": 2,
                "seeds": [
                    {"name": seed, "config": {"column_types": {"TrxId": "int", "RecDate": "date"}}}
                    for seed in ("trx_financial", "trx_sepa")
                ],
            }
        )  # fmt: skip
    )

    env.update(INC_JOIN_STATE_DIR=str(tmp_path / "state"), DBT_PROFILES_DIR=str(project))
    env.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
    run([dbt, "deps"], project, env)
    # `dbt build`: the seeds, then the model's first run, up to the watermark min(03-08, 03-18); one JVM
    run([dbt, "build", "--select", "+trx_matched"], project, env)
    # the README's var for an input that is complete: the rest of the period
    run([dbt, "run", "--select", "trx_matched", "--vars", '{inc_join_available_until: "2025-03-20"}'], project, env)

    # the table as its Delta log says: the files its commits added and did not remove, read without Spark
    table_dir = tmp_path / "state" / "warehouse" / "analytics.db" / "trx_matched"
    commits = sorted((table_dir / "_delta_log").glob("*.json"), key=lambda path: int(path.stem))
    assert len(commits) >= 2, list(table_dir.iterdir())  # a create, then the second run's commit
    live: dict[str, dict] = {}
    for commit in commits:
        for action in map(json.loads, commit.read_text().splitlines()):
            if "add" in action:
                live[action["add"]["path"]] = action["add"]["partitionValues"]
            elif "remove" in action:
                live.pop(action["remove"]["path"], None)
    found = []
    for path, partition in live.items():
        for row in pq.read_table(table_dir / unquote(path), columns=["TrxId", "JoinType"]).to_pylist():
            found.append((row["TrxId"], partition["RecDate"], row["JoinType"]))
    assert sorted(found) == sorted((trx, str(day), code) for trx, day, code, *_ in SEVEN_ROWS)
