"""The open state's benchmark report without Spark (bench/open_state.py): rows read over the day's new rows, and
the state's time over today's, as the report prints them."""

from __future__ import annotations

from bench.open_state import report


def test_the_report_divides_the_rows_read_by_the_new_rows_and_the_times():
    result = {
        "format": "parquet",
        "rows": 1000,
        "partner": "first",
        "new_rows": 2000,
        "scans": {"today": {"a": 22000, "b": 13000, "state": 0}, "state": {"a": 2000, "b": 3000, "state": 1000}},
        "times": {"today": 4.0, "state": 1.0, "output": 0.5},
        "load": (1.25, 2.0),
    }
    line = report([result], ["--rows", "1000"]).splitlines()[-1]
    assert (
        line
        == "| parquet | 1,000 | first | 17.50 | 3.00 (1.00 + 1.50 + 0.50) | 0.25 | 4.00 s | 1.00 s | 0.12 | 1.2–2.0 |"
    )


def test_the_dbt_report_divides_the_run_with_the_state_and_the_default_by_the_one_without():
    from bench.open_state_dbt import report as dbt_report

    state = [("CACHE LAZY TABLE", 0.25), ("INSERT INTO", 0.5)]
    result = {"rows": 1000, "format": "delta", "partner": "all", "load": (1.0, 1.5), "rounds": 5, "on": 3.0,
              "off": 2.0, "auto": 2.1, "auto_reads": False, "statements": (17, 10), "state": state,
              "state_seconds": 0.7}  # fmt: skip
    lines = dbt_report([result], ["--rows", "1000"]).splitlines()
    row = "| 1,000 | delta | all | 5 | 3.00 s | 2.00 s | 1.50 | 2.10 s (none) | 1.05 | 17 / 10 | 2 | 0.70 s | 1.0–1.5 |"
    assert row in lines
    assert lines[-1] == "- 1,000 A rows a day, delta, `all`: CACHE LAZY TABLE 0.25, INSERT INTO 0.50"


def test_the_dbt_benchmark_tells_the_states_statements_from_the_models():
    from bench.open_state_dbt import _label, _state_statement

    kept = "CACHE LAZY TABLE _inc_join_kept_0a1b AS with _inc_join_a as (select 1)"
    model = "create or replace temporary view m__dbt_tmp as select * from (select 1) _inc_join_kept"
    reads = "create or replace temporary view m__dbt_tmp as select * from s.m__inc_join_open"
    assert _state_statement("/* {} */ SHOW TBLPROPERTIES s.m__inc_join_open ('inc_join.open_state')")
    assert _state_statement(kept) and not _state_statement(model) and not _state_statement(reads)
    assert _label("/* {} */ ALTER TABLE s.m__inc_join_open DROP IF EXISTS PARTITION (x = '1')") == "ALTER TABLE DROP"
    assert _label("ALTER TABLE s.m__inc_join_open SET TBLPROPERTIES ('a' = 'b')") == "ALTER TABLE SET TBLPROPERTIES"
    assert [_label(kept), _label("INSERT INTO s.t PARTITION (x = '1') select 1")] == ["CACHE LAZY TABLE", "INSERT INTO"]


def test_the_dbt_benchmark_expects_the_default_to_keep_the_state_from_the_threshold_of_its_kind():
    from bench.open_state_dbt import _reads_state
    from dbt_inc_join.tables.shared_tables import OPEN_STATE

    for file_format, settings in OPEN_STATE.items():
        for kind, model in (("rows", "open_first_auto"), ("keys", "open_all_auto"), ("many", "open_many_auto")):
            least = settings[kind]
            if least is None:  # never kept by default on this format
                assert not _reads_state(model, 10**9, file_format), (file_format, kind)
            else:
                assert [_reads_state(model, n, file_format) for n in (least - 1, least)] == [False, True]
    assert _reads_state("open_all", 1) and not _reads_state("open_first_off", 10**9)


def test_the_dbt_benchmark_writes_the_inc_join_many_models_over_both_inputs(tmp_path):
    from bench.open_state_dbt import write_project

    models = write_project(tmp_path, "s.a", "s.b", "parquet", "sql", ["many"], "s.c")
    assert models == ["open_many", "open_many_off", "open_many_auto"]
    for name, state in zip(models, ("open_state=true", "open_state=false", None), strict=True):
        text = (tmp_path / "models" / f"{name}.sql").read_text()
        assert "dbt_inc_join.inc_join_many(source('bench', 'a')" in text and "source('bench', 'c')" in text
        assert (state in text) if state else "open_state" not in text
    assert "identifier: c" in (tmp_path / "models" / "sources.yml").read_text()


def test_the_dbt_benchmark_writes_python_models_with_the_sql_models_arguments(tmp_path):
    from bench.open_state_dbt import write_project

    models = write_project(tmp_path, "s.a", "s.b", "parquet", "python", ["first"])
    assert models == ["open_first", "open_first_off", "open_first_auto"]
    for name, state in zip(models, ("open_state=True", "open_state=False", None), strict=True):
        text = (tmp_path / "models" / f"{name}.py").read_text()
        compile(text, name, "exec")
        assert 'partner="first"' in text and "max_waiting_time=10" in text
        assert (state in text) if state else "open_state" not in text
    assert "dbt_inc_join" in (tmp_path / "dbt_project.yml").read_text()  # the dispatch entry of Python models
    assert not list((tmp_path / "models").glob("*.sql"))
