"""Issue 71 item 3: a second process on the embedded profile's state directory (the README's profile, `method:
session`, a Derby metastore in INC_JOIN_STATE_DIR) stops in seconds with one line that names the directory and
points to docs/table-formats.md, instead of Derby's XSDB6 after minutes of Hive's retries. Two real processes: one
holds the metastore open (a SparkSession with the profile's settings, as a running `dbt run` does), the other runs
`dbt run` in a project of one model."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dbt_inc_join.orchestration.python_models.metastore import SECTION

pytestmark = pytest.mark.dbt

REPO = Path(__file__).resolve().parents[2]


def readme_profile() -> str:
    """The README's profile (step 3), as a user copies it."""
    text = (REPO / "README.md").read_text()
    return next(block for block in re.findall(r"```yaml\n(.*?)```", text, re.S) if "method: session" in block)


# the first process: the metastore booted and held, as during a dbt run
HOLDER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from harness.local_spark import local_spark_session
    spark = local_spark_session(Path(sys.argv[1]))
    spark.sql("SHOW DATABASES").collect()
    print("booted", flush=True)
    sys.stdin.read()
""")


def dbt_project(root: Path) -> Path:
    (root / "models").mkdir(parents=True)
    (root / "models" / "one.sql").write_text("select 1 as x\n")
    profile = readme_profile()
    name = profile.split(":", 1)[0].strip()
    (root / "dbt_project.yml").write_text(f"name: two_processes\nversion: '1.0'\nconfig-version: 2\nprofile: {name}\n")
    (root / "profiles.yml").write_text(profile)
    return root


def test_a_second_process_on_the_state_directory_stops_in_seconds_with_one_line(tmp_path):
    state = tmp_path / "state"
    project = dbt_project(tmp_path / "project")
    env = {**os.environ, "INC_JOIN_STATE_DIR": str(state), "SPARK_LOCAL_IP": "127.0.0.1",
           "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}  # fmt: skip
    env.pop("INC_JOIN_METASTORE_URL", None)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(state)], cwd=REPO, env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None
        said = []
        for line in iter(holder.stdout.readline, ""):  # until "booted", or the process's end
            if line.startswith("booted"):
                break
            said.append(line)
        assert holder.poll() is None, said
        started = time.monotonic()
        second = subprocess.run(
            [str(Path(sys.executable).parent / "dbt"), "run", "--project-dir", str(project), "--profiles-dir",
             str(project), "--target-path", str(tmp_path / "target"), "--log-path", str(tmp_path / "logs")],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        elapsed = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    output = second.stdout + second.stderr
    print(f"the second process stopped after {elapsed:.1f} s")
    assert second.returncode != 0, output
    lines = [line for line in output.splitlines() if "is in use by another process" in line]
    assert len(lines) == 1, output
    assert f"Hive metastore in {state} (metastore_db" in lines[0] and SECTION in lines[0], lines
    assert "Traceback" not in output and "XSDB6" not in output, output
    assert elapsed < 60, (elapsed, output)

    # once the first process has ended, the same command runs on the same state directory
    again = subprocess.run(
        [str(Path(sys.executable).parent / "dbt"), "run", "--project-dir", str(project), "--profiles-dir",
         str(project), "--target-path", str(tmp_path / "target"), "--log-path", str(tmp_path / "logs")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
