"""The benchmark's command line without Spark: --format and the comma-separated --suite (bench/run.py)."""

from __future__ import annotations

import pytest

from bench.run import SUITES, parse_args


def test_format_runs_the_named_suites_in_the_format():
    config = parse_args(["--format", "delta", "--suite", "few-rows,commit", "--histories", "30,365"])
    assert config.table_format == "delta"
    assert config.suites == ("few-rows", "commit")
    assert config.histories == (30, 365)


def test_without_format_all_is_the_parquet_suites_and_commit_only_when_named():
    config = parse_args([])
    assert config.table_format is None
    assert config.suites == SUITES
    assert "commit" not in SUITES
    assert parse_args(["--suite", "commit"]).suites == ("commit",)


def test_the_restated_log_suite_runs_only_when_named_and_on_a_format():
    assert "restated-log" not in SUITES  # nor in the quick mode, which runs SUITES
    config = parse_args(["--format", "iceberg", "--suite", "restated-log", "--histories", "30,365"])
    assert (config.suites, config.table_format, config.histories) == (("restated-log",), "iceberg", (30, 365))
    # its own size of a day unless --rows-per-day is given (the few-rows suite's default is not its)
    from bench.restated_log import ROWS_PER_DAY, log_rows

    assert log_rows(config) == ROWS_PER_DAY
    assert log_rows(parse_args(["--format", "delta", "--suite", "restated-log", "--rows-per-day", "20000"])) == 20000


@pytest.mark.parametrize(
    "argv",
    [
        ["--format", "parquet"],  # parquet is the baseline, always measured
        ["--format", "iceberg"],  # all suites: enrich, many-rows ... have no format cells
        ["--format", "iceberg", "--suite", "ledger"],  # a run ledger is parquet or Delta
        ["--format", "delta", "--suite", "many-rows"],
        ["--suite", "few-rows,nonesuch"],
        ["--suite", "restated-log"],  # it reads a Delta or Iceberg input's log: --format is required
    ],
)
def test_refused(argv, capsys):
    with pytest.raises(SystemExit):
        parse_args(argv)
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("chosen", ["delta", "iceberg"])
def test_the_bench_profile_has_each_formats_session(chosen, tmp_path, monkeypatch):
    """bench/dbt/profiles.yml's delta and iceberg outputs (the SQL macro rendered with --format) are value for
    value the session harness/table_formats.py gives the benchmark (the jars: INC_JOIN_FORMAT_JARS)."""
    from tests.packaging.test_profiles import PROFILES, format_session, session_parameters

    session, environ = format_session(chosen, tmp_path, monkeypatch)
    assert session_parameters(PROFILES["bench/dbt/profiles.yml"], environ, output=chosen) == session


def test_the_ledger_suite_takes_a_delta_ledger():
    config = parse_args(["--format", "delta", "--suite", "ledger", "--histories", "30,365"])
    assert (config.suites, config.table_format) == (("ledger",), "delta")


def test_the_report_names_the_formats_of_the_tables_measured():
    from bench.run import tables_text

    assert tables_text("delta", True, ("ledger",)).endswith("a delta run ledger beside the parquet one")

    assert tables_text(None, True) == "parquet partitioned by RecDate"
    assert tables_text("delta", True).endswith("the same rows in delta tables partitioned by RecDate")
    assert tables_text("iceberg", False) == "iceberg tables partitioned by RecDate"  # restated-log: no parquet
