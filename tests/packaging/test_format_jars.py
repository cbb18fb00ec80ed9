"""The README's install table and its jars command (issue 71, items 1 and 2): each format row's Maven coordinate is
the jars/pom.xml profile the tests run on, and scripts/format_jars.py fetches that set and prints one `spark.jars`
line of it. Maven, no Spark."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "format_jars.py"
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def readme_format_rows() -> list[tuple[str, str, str]]:
    """(format, pyspark, coordinate) of each row of the README's install table that names jars."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text.split("| tables | `pyspark==` |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        coordinate = re.fullmatch(r"`([\w.-]+:[\w.-]+:[\w.-]+)`", cells[3])
        if coordinate:
            rows.append((cells[0], cells[1], coordinate.group(1)))
    return rows


def pom_coordinate(profile: str) -> str:
    """The one dependency of a jars/pom.xml profile, as group:artifact:version (properties substituted)."""
    root = ET.parse(REPO / "jars" / "pom.xml").getroot()
    properties = {p.tag.split("}", 1)[1]: p.text for p in root.find("m:properties", POM_NS)}
    for found in root.iterfind("m:profiles/m:profile", POM_NS):
        if found.findtext("m:id", namespaces=POM_NS) == profile:
            (dependency,) = found.iterfind("m:dependencies/m:dependency", POM_NS)
            parts = [dependency.findtext(f"m:{tag}", namespaces=POM_NS) for tag in ("groupId", "artifactId", "version")]
            return ":".join(re.sub(r"\$\{([\w.]+)\}", lambda m: properties[m.group(1)], part) for part in parts)
    raise AssertionError(f"no profile {profile} in jars/pom.xml")


def run_script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)


def test_each_format_row_of_the_readme_is_a_tested_jar_set():
    rows = readme_format_rows()
    assert {(fmt, pyspark) for fmt, pyspark, _ in rows} == {
        ("Delta Lake", "4.1.4"),
        ("Delta Lake", "3.5.x"),
        ("Iceberg", "4.1.4"),
    }
    for fmt, pyspark, coordinate in rows:
        profile = f"{'delta' if fmt == 'Delta Lake' else 'iceberg'}-spark{pyspark[:3]}"
        assert coordinate == pom_coordinate(profile), (fmt, pyspark)
    # the pyspark of the format legs (requirements/formats.txt) is the table's 4.1 line
    pins = dict(
        line.split("==") for line in (REPO / "requirements" / "formats.txt").read_text().splitlines() if "==" in line
    )
    assert pins["pyspark"] == "4.1.4"


def test_the_command_prints_one_spark_jars_line_of_the_set_it_fetched(tmp_path):
    dest = tmp_path / "jars"
    done = run_script("delta", "--spark", "4.1", "--dest", str(dest))
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    match = re.fullmatch(r'spark\.jars: "(.+)"', line)
    assert match, line
    listed = [Path(path) for path in match.group(1).split(",")]
    assert listed == sorted(dest.resolve().glob("*.jar")) and all(path.is_absolute() for path in listed)
    _, artifact, version = pom_coordinate("delta-spark4.1").split(":")
    names = {path.name for path in listed}
    assert f"{artifact}-{version}.jar" in names and f"delta-storage-{version}.jar" in names
    assert all(name.startswith("delta-") for name in names)  # the format's own jars, not Spark's or Hadoop's


def test_a_shared_destination_keeps_its_other_files_and_loses_the_older_set(tmp_path):
    """--dest on a shared folder: the user's own files stay; the jars of the script's earlier call (its manifest)
    that the new set does not hold are removed, so no older version stays beside the new one."""
    dest = tmp_path / "shared"
    dest.mkdir()
    (dest / "my-other-lib.jar").write_text("mine")
    (dest / "notes.txt").write_text("mine")
    (dest / "delta-spark_4.1_2.13-0.0.1.jar").write_text("an older set")
    (dest / "format_jars.txt").write_text("delta-spark_4.1_2.13-0.0.1.jar\n")
    done = run_script("delta", "--spark", "4.1", "--dest", str(dest))
    assert done.returncode == 0, done.stderr
    listed = re.fullmatch(r'spark\.jars: "(.+)"', done.stdout.strip()).group(1).split(",")
    assert all(Path(path).name.startswith("delta-") and Path(path).is_file() for path in listed)
    assert (dest / "my-other-lib.jar").read_text() == "mine" and (dest / "notes.txt").read_text() == "mine"
    assert not (dest / "delta-spark_4.1_2.13-0.0.1.jar").exists()
    kept = sorted(path.name for path in dest.glob("*.jar"))
    assert kept == sorted([Path(path).name for path in listed] + ["my-other-lib.jar"])


def test_a_wrong_format_or_spark_line_is_refused_naming_the_parameter():
    done = run_script("hudi", "--spark", "4.1")
    assert done.returncode == 2 and "table_format must be one of delta, iceberg (got 'hudi')" in done.stderr
    done = run_script("iceberg", "--spark", "4.3")
    assert done.returncode == 2 and "--spark must be one of 4.1, 3.5 for iceberg (got '4.3')" in done.stderr
