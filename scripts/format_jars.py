"""Fetch one table format's jars for one Spark line with Maven, and print the profile line that gives them to Spark.

    python3 scripts/format_jars.py delta              # the installed pyspark's line, jars into .jars/delta-spark4.1/
    python3 scripts/format_jars.py iceberg --spark 3.5 --dest /opt/jars/iceberg

prints one line to paste into a dbt profile's ``server_side_parameters`` (docs/table-formats.md, "The profile"):

    spark.jars: "/abs/.jars/delta-spark4.1/delta-spark_4.1_2.13-4.4.0.jar,..."

The sets are the profiles of jars/pom.xml, the ones the tests run on (`make jars` fetches them all through this
script). Only the format's own artifacts are copied: Spark, Hadoop, Parquet and Scala come with pyspark. Needs
``mvn`` (Maven 3) on PATH; it fetches from Maven Central once, then from its local repository.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
POM = REPO / "jars" / "pom.xml"
# the groups whose jars a set keeps: each format's own, Hive's llap jar and Derby's network server
OWN_GROUPS = "io.delta,org.apache.iceberg,org.apache.hive,org.apache.derby"
FORMAT_SETS = {"delta": ("4.1", "3.5"), "iceberg": ("4.1", "3.5")}
MANIFEST = "format_jars.txt"  # in the destination: the jars this script put there, which its next call replaces


def set_name(table_format: str, spark: str) -> str:
    """The jars/pom.xml profile of a format on a Spark line, e.g. delta-spark4.1."""
    return f"{table_format}-spark{spark}"


def installed_spark_line() -> str | None:
    """The major.minor of the pyspark this Python imports, or None when it has none."""
    try:
        import pyspark
    except ImportError:
        return None
    return ".".join(pyspark.__version__.split(".")[:2])


def fetch(profile: str, dest: Path) -> list[Path]:
    """Copy one profile's jars into ``dest`` with Maven; return them, sorted. Nothing else in ``dest`` is touched
    but the jars an earlier call put there (listed in its MANIFEST), so a shared folder keeps its other files and
    an older version of the set does not stay beside the new one."""
    if shutil.which("mvn") is None:
        raise SystemExit("format_jars: Maven (mvn) is required to fetch the jars; install it (e.g. apt install maven).")
    with tempfile.TemporaryDirectory(prefix="format-jars-") as staging:
        command = ["mvn", "--quiet", "--batch-mode", "-Dstyle.color=never", "-f", str(POM), "-P", profile]
        command += ["dependency:copy-dependencies", f"-DincludeGroupIds={OWN_GROUPS}", f"-DoutputDirectory={staging}"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            output = done.stdout[-2000:] + done.stderr[-2000:]
            raise SystemExit(f"format_jars: Maven failed for profile {profile}:\n{output}")
        fetched = sorted(Path(staging).glob("*.jar"))
        if not fetched:
            raise SystemExit(f"format_jars: profile {profile} of {POM} copied no jar.")
        dest.mkdir(parents=True, exist_ok=True)
        names = [jar.name for jar in fetched]
        for name in _earlier_jars(dest):
            if name not in names:
                (dest / name).unlink(missing_ok=True)
        for jar in fetched:
            shutil.copy2(jar, dest / jar.name)
    (dest / MANIFEST).write_text("\n".join(names) + "\n", encoding="utf-8")
    return [dest / name for name in names]


def _earlier_jars(dest: Path) -> list[str]:
    """The jars an earlier call copied into ``dest`` (its MANIFEST; plain names only)."""
    manifest = dest / MANIFEST
    if not manifest.is_file():
        return []
    names = manifest.read_text(encoding="utf-8").split()
    return [name for name in names if name.endswith(".jar") and Path(name).name == name]


def profile_line(jars: list[Path]) -> str:
    """The dbt profile line (YAML) that puts the jars on Spark's class path."""
    return 'spark.jars: "' + ",".join(str(jar.resolve()) for jar in jars) + '"'


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("table_format", help="delta or iceberg (or another profile's name with --profile)")
    parser.add_argument("--spark", help="the Spark line, e.g. 4.1 or 3.5 (default: the installed pyspark's)")
    parser.add_argument("--dest", type=Path, help="where the jars go (default: .jars/<format>-spark<line>/)")
    parser.add_argument("--profile", action="store_true", help="table_format names a jars/pom.xml profile as is")
    args = parser.parse_args(argv)
    if args.profile:
        return args
    if args.table_format not in FORMAT_SETS:
        parser.error(f"table_format must be one of {', '.join(FORMAT_SETS)} (got {args.table_format!r})")
    args.spark = args.spark or installed_spark_line()
    lines = FORMAT_SETS[args.table_format]
    if args.spark not in lines:
        parser.error(f"--spark must be one of {', '.join(lines)} for {args.table_format} (got {args.spark!r})")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    profile = args.table_format if args.profile else set_name(args.table_format, args.spark)
    dest = args.dest or REPO / ".jars" / profile
    print(profile_line(fetch(profile, dest.resolve())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
