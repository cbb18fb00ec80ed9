"""A committed window computed again as its run's inputs were (spec §17), for any inc_join table: the audit of
Python models, which `dbt show` does not run. The SQL twin is macros/orchestration/_audit.sql (`dbt show` with var
inc_join_audit), whose texts this module renders: the window, the ledger's record, the inputs as of the recorded
versions and the counts per JoinType, side by side (table, as of the run, now)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pyspark.sql import DataFrame

from ..plan.plan_choice import named_plan
from ..plan.window import OutputWindow
from ..sql_text import render, statement
from .join import prepare_join
from .many import ManyInput, prepare_many, render_many
from .render import render_join

#: the arguments of inc_join_model that change no row of a window: a call copied from the model is accepted
MODEL_ONLY = ("on_restated_input", "restated_horizon", "max_window_units")


def _fail(message: str) -> ValueError:
    return ValueError(f"inc_join: inc_join_audit: {message}")


def _check_table(table: object, ledger: object) -> tuple[str, str]:
    """The audited table and its ledger (default: dbt_inc_join_runs in the table's schema), checked before any
    data is read."""
    if not isinstance(table, str) or not table.strip():
        raise _fail(f"table must be the audited model's table name, e.g. 'analytics.orders_enriched' (got {table!r}).")
    if ledger is not None and (not isinstance(ledger, str) or not ledger.strip()):
        raise _fail(f"ledger must be the run ledger's table name, e.g. 'analytics.dbt_inc_join_runs' (got {ledger!r}).")
    schema = table.strip().rsplit(".", 1)[0] + "." if "." in table else ""
    return table.strip(), (ledger or f"{schema}dbt_inc_join_runs").strip()


def _model_arguments(arguments: Mapping[str, Any], accepted: Sequence[str] | None = None) -> dict[str, Any]:
    """The join's arguments out of a call copied from the model: output_window_start/end are refused (the audited
    window is ``window``), MODEL_ONLY dropped; ``accepted``: the only others taken (None: the join checks them)."""
    for name in ("output_window_start", "output_window_end"):
        if name in arguments:
            raise _fail(f"{name} is not an argument of the audit: its window is the argument window.")
    kept = {name: value for name, value in arguments.items() if name not in MODEL_ONLY}
    unknown = sorted(set(kept) - set(accepted)) if accepted is not None else []
    if unknown:
        raise TypeError(f"inc_join: inc_join_many_audit: unknown arguments {', '.join(unknown)}.")
    return kept


def _table_id(spark: Any, table: str) -> str | None:
    """The table's identity in the ledger (the table property inc_join.table_id), None when it has none."""
    if not spark.catalog.tableExists(table):
        raise _fail(f"table {table!r} was not found.")
    properties = {row[0]: row[1] for row in spark.sql(render("_show_properties_sql", table)).collect()}
    return properties.get("inc_join.table_id")


def recorded_versions(spark: Any, table: str, ledger: str, window: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{input: {'relation', 'version'}} of the last committed run whose window holds the audited one (the macro
    _audit_versions_of): one message when the table records no runs or no committed run holds the window."""
    table_id = _table_id(spark, table)
    if table_id is not None and not spark.catalog.tableExists(ledger):
        raise _fail(f"ledger {ledger!r} was not found; name the run ledger's table with ledger='<schema>.<table>'.")
    found = (
        [] if table_id is None else spark.sql(render("_audit_record_sql", ledger, table, table_id, window)).collect()
    )
    versions: dict[str, dict[str, Any]] = render("_audit_versions_of", table, ledger, table_id, window, found)
    return versions


def as_of(df: DataFrame, name: str, versions: Mapping[str, Mapping[str, Any]]) -> DataFrame:
    """An input as the audited run read it: its recorded table as of its recorded version (Delta VERSION AS OF,
    Iceberg snapshot), or ``df`` as it is (no version recorded: a view, a parquet table; the macro _audit_relation)."""
    recorded = versions.get(name)
    if recorded is None:
        return df
    return df.sparkSession.sql(render("_select_all_sql", render("_as_of", recorded["relation"], recorded["version"])))


def _counts(table: str, inc_col: str, window: dict[str, Any], as_of_rows: DataFrame, now_rows: DataFrame,
            columns: Sequence[str]) -> DataFrame:  # fmt: skip
    """The three counts per JoinType (or per JoinType_<input> tuple) side by side (the macro _audit_counts_sql)."""
    text = render(
        "_audit_counts_sql",
        render("_audit_table_sql", table, inc_col, window),
        render("_select_all_sql", statement.relation("as_of")),
        render("_select_all_sql", statement.relation("now")),
        list(columns),
    )
    return statement.run(text, {"as_of": as_of_rows, "now": now_rows})


def inc_join_audit(table: str, window: str, a: DataFrame, b: DataFrame, *, ledger: str | None = None,
                   **arguments: Any) -> DataFrame:  # fmt: skip
    """Rows per JoinType of a committed window of an inc_join table (a Python or SQL model that records its runs):
    ``table_rows`` (the table's rows in the window), ``as_of_rows`` (one run over the window with each Delta and
    Iceberg input as of the version the committed run whose window holds it recorded) and ``now_rows`` (one run
    over ``a`` and ``b`` as they are now). ``window``: one unit ('2025-03-05') or two ('2025-03-01..2025-03-05');
    ``ledger``: the run ledger's table (default: dbt_inc_join_runs in the table's schema); ``arguments``: the
    model's (join_cols, inc_col, how, ...). Lazy but for the ledger's record, read first."""
    table, ledger = _check_table(table, ledger)
    arguments = _model_arguments(arguments)
    prepared = prepare_join(a, b, **arguments)
    unit = prepared.params.time_uom.value
    audited = render("_audit_window", window, unit, "window")
    versions = recorded_versions(a.sparkSession, table, ledger, audited)
    output_window, choice = OutputWindow(audited["start"], audited["end"]), named_plan(False, "an audit")
    then = prepare_join(as_of(a, "a", versions), as_of(b, "b", versions), **arguments)
    as_of_rows = render_join(then, output_window, choice)
    now_rows = render_join(prepared, output_window, choice)
    return _counts(table, prepared.params.inc_col, audited, as_of_rows, now_rows, ["JoinType"])


def inc_join_many_audit(table: str, window: str, a: DataFrame, inputs: Sequence[Mapping[str, Any] | ManyInput], *,
                        ledger: str | None = None, time_uom: str = "day", include_waiting: bool = False,
                        output_select: Any = None, **model_only: Any) -> DataFrame:  # fmt: skip
    """inc_join_audit of an inc_join_many table: per combination of its JoinType_<input> columns. ``inputs`` as
    the model gives them (each with its ``df`` as it is now and its ``name``)."""
    table, ledger = _check_table(table, ledger)
    _model_arguments(model_only, accepted=())
    many = prepare_many(a, inputs, time_uom, output_select, include_waiting)
    audited = render("_audit_window", window, many.time_uom.value, "window")
    versions = recorded_versions(a.sparkSession, table, ledger, audited)
    then_inputs = [replace(item.spec, df=as_of(item.spec.df, item.spec.name, versions)) for item in many.inputs]
    then = prepare_many(as_of(a, "a", versions), then_inputs, time_uom, output_select, include_waiting)
    plans = [named_plan(False, "an audit")] * len(many.inputs)
    as_of_rows = render_many(then, audited["start"], audited["end"], plans)
    now_rows = render_many(many, audited["start"], audited["end"], plans)
    columns = [f"JoinType_{item.spec.name}" for item in many.inputs]
    return _counts(table, many.inc_col_a, audited, as_of_rows, now_rows, columns)


__all__ = ["inc_join_audit", "inc_join_many_audit"]
