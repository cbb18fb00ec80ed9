"""The repository's dbt profiles for `method: session` say what the embedded session (harness/local_spark.py) has,
value for value. dbt-spark passes `server_side_parameters` to `SparkSession.builder` before every statement, and
Spark logs "Using an existing Spark session; only runtime SQL configurations will take effect." for each
statement whenever one of them differs from the running session's (issue 28). No Spark: the real runs are
checked in tests/integration/test_dbt_pipeline.py and test_faults.py."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
import yaml

from bench.protocol import full_jvm_flags, render
from bench.run import Config
from harness.local_spark import DEFAULT_JVM_FLAGS, local_spark_settings

REPO = Path(__file__).resolve().parents[2]
PROFILES = {
    "integration_tests/profiles.yml": (REPO / "integration_tests" / "profiles.yml").read_text(),
    "bench/dbt/profiles.yml": (REPO / "bench" / "dbt" / "profiles.yml").read_text(),
    "bench/templates/ledger/profiles.yml": render("templates/ledger/profiles.yml", project="p", schema="s"),
}


def session_parameters(text: str, environ: dict[str, str], output: str = "session") -> dict[str, str]:
    """An output's server_side_parameters, rendered as dbt renders a profile's env_var()."""
    (profile,) = yaml.safe_load(text).values()
    parameters = profile["outputs"][output]["server_side_parameters"]

    def env_var(name: str, default: str | None = None) -> str:
        value = environ.get(name, default)
        assert value is not None, name
        return value

    return {key: jinja2.Template(str(value)).render(env_var=env_var) for key, value in parameters.items()}


# (profile, INC_JOIN_JVM_FLAGS): the benchmark's profiles also with the full benchmark's JVM flags
CASES = [(name, None) for name in sorted(PROFILES)] + [
    (name, full_jvm_flags(Config().driver_memory)) for name in sorted(PROFILES) if name.startswith("bench/")
]


@pytest.mark.parametrize(("name", "jvm_flags"), CASES)
def test_every_session_parameter_of_a_profile_is_the_embedded_sessions(name, jvm_flags, tmp_path, monkeypatch):
    environ = {"INC_JOIN_STATE_DIR": str(tmp_path.resolve())}
    if jvm_flags is None:
        monkeypatch.delenv("INC_JOIN_JVM_FLAGS", raising=False)
    else:
        monkeypatch.setenv("INC_JOIN_JVM_FLAGS", jvm_flags)
        environ["INC_JOIN_JVM_FLAGS"] = jvm_flags
    profile = session_parameters(PROFILES[name], environ)
    session = local_spark_settings(tmp_path)
    assert {key: (value, session.get(key)) for key, value in profile.items() if session.get(key) != value} == {}


def test_the_warehouse_is_written_as_spark_keeps_it(tmp_path, monkeypatch):
    """Spark qualifies spark.sql.warehouse.dir to a `file:` URI; a plain path differs from it on every statement."""
    monkeypatch.delenv("INC_JOIN_JVM_FLAGS", raising=False)
    settings = local_spark_settings(tmp_path)
    assert settings["spark.sql.warehouse.dir"] == f"file:{tmp_path.resolve()}/warehouse"
    assert settings["spark.driver.extraJavaOptions"] == f"-Dderby.system.home={tmp_path.resolve()} {DEFAULT_JVM_FLAGS}"


def test_the_readme_profile_writes_the_warehouse_as_a_file_uri():
    """The profile users copy (README step 3) starts its session through dbt, so only Spark's own rewriting of a
    value can differ: the warehouse's."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### 3. A profile") : text.index("### 4. A SQL model")]
    block = section[section.index("```yaml\n") + len("```yaml\n") :]
    profile = session_parameters(block[: block.index("```")], {"INC_JOIN_STATE_DIR": "/state"}, output="local")
    assert profile["spark.sql.warehouse.dir"] == "file:/state/warehouse"


def test_the_readme_profile_keeps_sparks_warnings_out_of_a_daily_runs_log():
    """At Spark's default level (WARN) Hive's metastore logs two lines for every partition a run writes (issue 40:
    about 150 of a daily run's 200 lines with hourly partitions); `spark.log.level` ERROR leaves Spark's errors."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### 3. A profile") : text.index("### 4. A SQL model")]
    block = section[section.index("```yaml\n") + len("```yaml\n") :]
    profile = session_parameters(block[: block.index("```")], {"INC_JOIN_STATE_DIR": "/state"}, output="local")
    assert profile["spark.log.level"] == "ERROR"
    assert profile["spark.ui.showConsoleProgress"] == "false"


def format_session(chosen: str, tmp_path, monkeypatch) -> tuple[dict, dict]:
    """The embedded session harness/table_formats.py gives a format leg (over a fake jars folder, one jar per Spark
    line), and the environment a profile renders it from."""
    from harness import table_formats

    jars = tmp_path / "jars"
    for line in ("3.5", "4.0", "4.1", "4.2", "4.3"):
        (jars / f"{chosen}-spark{line}").mkdir(parents=True)
        (jars / f"{chosen}-spark{line}" / f"{chosen}-one.jar").write_bytes(b"")
    monkeypatch.setattr(table_formats, "JARS", jars)
    monkeypatch.delenv("INC_JOIN_JVM_FLAGS", raising=False)
    monkeypatch.setenv("INC_JOIN_TABLE_FORMAT", chosen)
    session = local_spark_settings(tmp_path)
    environ = {"INC_JOIN_STATE_DIR": str(tmp_path.resolve()), "INC_JOIN_FORMAT_JARS": session["spark.jars"]}
    return session, environ


@pytest.mark.parametrize("chosen", ["delta", "iceberg"])
def test_a_format_output_is_the_embedded_session_with_that_format(chosen, tmp_path, monkeypatch):
    """integration_tests/profiles.yml's delta and iceberg outputs are the session output plus the format's lines,
    value for value what harness/table_formats.py gives the embedded session (the jars: INC_JOIN_FORMAT_JARS)."""
    from harness import table_formats

    session, environ = format_session(chosen, tmp_path, monkeypatch)
    profile = session_parameters(PROFILES["integration_tests/profiles.yml"], environ, output=chosen)
    assert profile == session
    assert (
        profile["spark.sql.catalog.spark_catalog"]
        == table_formats.SESSION_SETTINGS[chosen]["spark.sql.catalog.spark_catalog"]
    )


def test_the_evaluation_mode_is_compiled_unless_interpreted_is_asked_and_a_wrong_value_is_named(monkeypatch):
    """INC_JOIN_CODEGEN (the Makefile's spark4-core and spark4-dbt legs): no setting by default, Spark's two
    interpreted settings when asked, and a message naming the variable otherwise; none of them is a profile's (the
    profiles' settings stay equal to local_spark_settings)."""
    from harness.local_spark import evaluation_settings

    monkeypatch.delenv("INC_JOIN_CODEGEN", raising=False)
    assert evaluation_settings() == {}
    monkeypatch.setenv("INC_JOIN_CODEGEN", "interpreted")
    interpreted = evaluation_settings()
    assert interpreted == {"spark.sql.codegen.wholeStage": "false", "spark.sql.codegen.factoryMode": "NO_CODEGEN"}
    assert not set(interpreted) & set(local_spark_settings(REPO / ".spark-state"))
    monkeypatch.setenv("INC_JOIN_CODEGEN", "off")
    with pytest.raises(ValueError, match="INC_JOIN_CODEGEN must be 'compiled' or 'interpreted', not 'off'"):
        evaluation_settings()
