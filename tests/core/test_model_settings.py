"""The model-level checks of an incremental model's strategy (_check_strategy, rendered as a Python model runs them):
a strategy must replace exactly the run's output window, before anything is read or written."""

from __future__ import annotations

import re

import pytest

from dbt_inc_join.orchestration.python_models.model import check_model_config

BASE = {"materialized": "incremental", "incremental_strategy": "insert_overwrite", "partition_by": ["RecDate"]}


def check(time_uom: str = "day", **settings: object) -> None:
    check_model_config({**BASE, **settings}, False, time_uom, "RecDate")


@pytest.mark.parametrize("partition_by", [["RecDate"], "RecDate", ["recdate"], ["Country", "RecDate"], ["`RecDate`"]])
def test_insert_overwrite_over_partitions_of_the_arrival_column_is_admitted(partition_by):
    check(partition_by=partition_by)
    check(incremental_strategy="microbatch", partition_by=partition_by)


@pytest.mark.parametrize("partition_by", [["days(RecDate)"], ["hours(RecDate)"], ["Country", "days( `RecDate` )"]])
def test_iceberg_transforms_of_the_arrival_column_are_admitted_on_iceberg_only(partition_by):
    check(partition_by=partition_by, file_format="iceberg")
    check(incremental_strategy="microbatch", partition_by=partition_by, file_format="iceberg")
    transform = next(entry for entry in partition_by if "(" in entry)
    for file_format in (None, "parquet", "delta"):
        message = (
            f"inc_join: partition_by={partition_by!r} has a partition transform ({transform}), which only Iceberg "
            f"tables take (file_format={file_format or 'parquet'!r}). Use incremental_strategy='insert_overwrite' "
            "with partition_by=['RecDate']."
        )
        with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
            check(partition_by=partition_by, file_format=file_format)


@pytest.mark.parametrize("partition_by", [None, [], ["k"], ["months(RecDate)"], ["RecDate_A"], ["bucket(4, RecDate)"]])
def test_insert_overwrite_over_other_partitions_is_refused(partition_by):
    message = (
        "incremental_strategy='insert_overwrite' needs partition_by=['RecDate'] (the output's arrival column; got "
        f"{partition_by!r}): Spark's INSERT OVERWRITE replaces every partition the window writes"
    )
    with pytest.raises(
        ValueError,
        match="^inc_join: " + message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]"),
    ):
        check(partition_by=partition_by)


def test_an_hourly_model_needs_hourly_partitions_at_most():
    check("hour", partition_by=["hours(RecDate)"], file_format="iceberg")
    with pytest.raises(ValueError, match="needs partition_by=\\['RecDate'\\]"):
        check("hour", partition_by=["days(RecDate)"], file_format="iceberg")


def test_merge_replaces_the_window_on_delta_and_iceberg_only():
    for file_format in ("delta", "iceberg"):
        check(incremental_strategy="merge", partition_by=None, file_format=file_format)
    for file_format in (None, "parquet", "hudi"):
        with pytest.raises(
            ValueError,
            match="'merge' replaces the output window by a predicate on RecDate on Delta and Iceberg tables only",
        ):
            check(incremental_strategy="merge", file_format=file_format)


def test_append_in_a_model_that_records_its_runs_is_refused_on_delta_and_iceberg():
    for file_format in ("delta", "iceberg"):
        check(incremental_strategy="append", file_format=file_format)  # without the ledger: each commit is atomic
        with pytest.raises(
            ValueError, match=f"incremental_strategy='append' in a model that records its runs on {file_format}: "
        ):
            check(incremental_strategy="append", file_format=file_format, records_runs=True)
    check(incremental_strategy="append", records_runs=True)  # parquet: documented (a re-done window appends twice)
    check(incremental_strategy=None, file_format="delta")  # dbt-spark's default is append


def test_a_table_model_takes_any_strategy():
    check(materialized="table", incremental_strategy="merge", partition_by=None)


def test_merge_without_the_dispatch_entry_is_refused():
    """A SQL model's merge reaches the package's MERGE only through the README's dispatch entry (probed at compile
    time, _dispatch_reaches_package): without it, dbt-spark's MERGE without a unique_key would insert a re-run window's
    rows again, so the model is refused, naming the entry and the other strategy. (The probe itself is true in every
    format leg, whose project has the entry: the merge models of the daily pipeline run there.)"""
    from dbt_inc_join.sql_text import render

    settings = {
        **BASE,
        "incremental_strategy": "merge",
        "partition_by": None,
        "file_format": "delta",
        "include_waiting": False,
        "time_uom": "day",
        "arrival_column": "RecDate",
        "records_runs": False,
    }
    render("_check_model_settings", {**settings, "merge_replaces_window": True}, "true")
    message = (
        r"^inc_join: incremental_strategy='merge' needs the dispatch entry of the README's step 2 \(search_order: "
        r"\[<your project>, 'dbt_inc_join', 'dbt'\]\).*use incremental_strategy='insert_overwrite' with "
        r"partition_by=\['RecDate'\]\.$"
    )
    with pytest.raises(ValueError, match=message):
        render("_check_model_settings", {**settings, "merge_replaces_window": False}, "true")


def test_an_iceberg_transform_partition_without_the_dispatch_entry_is_refused():
    """dbt-spark names the partition in its INSERT OVERWRITE unless its listing says Provider: iceberg, which
    Iceberg's SparkSessionCatalog on a Hive metastore does not: `partition (days(RecDate))` does not parse. The
    package's spark__partition_cols leaves it out, reached only through the dispatch entry (probed at compile time,
    _dispatch_reaches_package; the Iceberg leg's gen_left_days runs with it)."""
    from dbt_inc_join.sql_text import render

    settings = {
        **BASE,
        "partition_by": ["days(RecDate)"],
        "file_format": "iceberg",
        "include_waiting": False,
        "time_uom": "day",
        "arrival_column": "RecDate",
        "records_runs": False,
        "merge_replaces_window": False,
    }
    render("_check_model_settings", {**settings, "partition_clause_by_package": True}, "true")
    render("_check_model_settings", {**settings, "partition_by": ["RecDate"], "partition_clause_by_package": False},
           "true")  # fmt: skip
    message = (
        "inc_join: incremental_strategy='insert_overwrite' with partition_by=['days(RecDate)'] needs the dispatch "
        "entry of the README's step 2 (search_order: [<your project>, 'dbt_inc_join', 'dbt']): dbt-spark's INSERT "
        "OVERWRITE would name the partition days(RecDate), which Spark cannot parse when the table is listed as a "
        "Hive table (Iceberg's SparkSessionCatalog). Add the entry, or use partition_by=['RecDate']."
    )
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        render("_check_model_settings", {**settings, "partition_clause_by_package": False}, "true")


def test_a_model_without_file_format_is_read_in_its_adapters_default_format():
    """A model's format is the one its adapter writes (_file_format): dbt-databricks writes Delta when the model names
    none, so there `merge` is admitted, the open state is a Delta table with Delta's threshold, and a redo deletes
    by predicate; dbt-spark's models without one are parquet. No Databricks workspace runs here: the macros are
    rendered with the two adapters' `type()` and a config without file_format."""
    from types import SimpleNamespace

    from dbt_inc_join.sql_text.macros import port

    def macros(adapter_type: str | None, file_format: str | None = None):
        settings = {"file_format": file_format}
        config = SimpleNamespace(get=lambda key, default=None: settings.get(key, default) or default)
        adapter = SimpleNamespace(type=lambda: adapter_type) if adapter_type else SimpleNamespace()
        return port(lambda text: None, {"config": config, "adapter": adapter})

    assert macros("databricks")("_file_format") == "delta"
    assert macros("spark")("_file_format") == macros(None)("_file_format") == "parquet"
    assert macros("databricks", "parquet")("_file_format") == "parquet"
    assert macros("spark", "iceberg")("_file_format") == "iceberg"
    assert macros("databricks")("_open_state_format") == "delta"
    assert macros("databricks")("_deletes_rows", macros("databricks")("_file_format")) is True
    # the threshold of open_state='auto' is the format's: 100,000 new A rows a day keep a parquet state, not a Delta one
    day = {"rows": 100_000, "units": 1}

    def pays(adapter_type: str) -> list:
        found = macros(adapter_type)
        return found("_open_state_pays", "rows", day, "day", found("_open_state_format"))

    assert pays("spark") == ["rows", None]
    assert pays("databricks") == [None, "open_state='auto': 100,000 new rows of A a day, below 150,000 on delta"]


def test_the_ledger_format_var_takes_parquet_or_delta_only():
    """var inc_join_ledger_format (docs/run-ledger.md): 'parquet' or 'delta'; anything else is refused naming the
    var, in the model-level checks a model that records its runs makes before it reads anything."""
    from types import SimpleNamespace

    from dbt_inc_join.sql_text.macros import MacroError, port

    def named(value):
        return port(lambda text: None, {"var": lambda name, default=None: value if name == "inc_join_ledger_format"
                                        else default, "adapter": SimpleNamespace()})("_ledger_format_var")  # fmt: skip

    assert named(None) is None and named("delta") == "delta" and named("parquet") == "parquet"
    refused = "^inc_join: var inc_join_ledger_format must be 'parquet' or 'delta', not 'orc'.$"
    with pytest.raises(MacroError, match=refused):
        named("orc")
