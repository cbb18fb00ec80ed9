"""A dbt Python model's port to the macros that read dbt's state: the macros SQL models run (the output window,
the restated check, the redo), rendered with what inc_join's Python writer handed the model (``dbt.inc_join_context``,
macros/io/_py_writer.sql) in place of dbt's context, and ``run_query`` running on the model's session with its input
DataFrames bound where the macros name their relations."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from pyspark.sql import DataFrame

from ...plan.prepared import PreparedJoin
from ...sql_text.macros import port
from ...sql_text.statement import relation, run

#: the vars the macros read, by the writer's names for them
_VARS = ("output_window_start", "output_window_end", "available_until", "max_window_units", "redo_from",
         "on_restated_input", "restated_horizon")  # fmt: skip


@dataclass(frozen=True)
class _Relation:
    """A table as the macros see dbt's relations: its schema and identifier, written as dbt rendered it (``text``)
    or schema.identifier."""

    schema: str
    identifier: str
    database: None = None
    text: str | None = None

    @classmethod
    def named(cls, name: str) -> _Relation:
        schema, _, identifier = name.rpartition(".")
        return cls(schema, identifier, text=name)

    @classmethod
    def of(cls, this: Any) -> _Relation:
        """dbt.this of a Python model: its unquoted parts, and the name dbt renders."""
        schema, identifier = getattr(this, "schema", None), getattr(this, "identifier", None)
        if schema is None or identifier is None:
            return cls.named(str(this))
        return cls(str(schema), str(identifier), text=str(this))

    def __str__(self) -> str:
        if self.text is not None:
            return self.text
        return f"{self.schema}.{self.identifier}" if self.schema else self.identifier


def dbt_context(dbt: Any) -> dict[str, Any]:
    """What inc_join's Python writer injected into the model's ``dbt`` object."""
    context = getattr(dbt, "inc_join_context", None)
    if context is None:
        raise ValueError(
            "inc_join: this Python model was not written by inc_join's writer, so its window cannot be resolved. "
            "Add to dbt_project.yml: dispatch: "
            "[{macro_namespace: dbt, search_order: [<your project>, dbt_inc_join, dbt]}]; "
            "if the model reaches inc_join_model through a module of its own, also set "
            "dbt.config(meta={'inc_join_writer': True}) in it."
        )
    return context


def columns(df: DataFrame) -> list[SimpleNamespace]:
    """A DataFrame's schema as dbt's columns of a relation: name and type name."""
    return [SimpleNamespace(name=f.name, dtype=f.dataType.simpleString()) for f in df.schema.fields]


def _setting(settings: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """A model setting as dbt's ``config.get`` gives it: the default only where it is not set (a 0 stays 0)."""
    value = settings.get(key)
    return default if value is None else value


def model_port(dbt: Any, frames: Mapping[str, DataFrame], warn: Any, log: Any) -> Any:
    """The port of this model's run: ``frames`` bound where the macros name ``relation(name)``, the macros' warnings
    and log lines going to ``warn`` and ``log``. What dbt read before the model's code ran stands for the macros
    that read it: the ledger's state of the table (_ledger_state), the upstream tables' markers (_upstream_state);
    the relations the macros then ask dbt's adapter about (the ledger, the open state's table) are looked up in
    Spark's catalog, and the only format (_table_facts) is the model's own table's."""
    context = dbt_context(dbt)
    spark = next(iter(frames.values())).sparkSession
    this = _Relation.of(dbt.this)
    ledger_name: str | None = context.get("ledger_relation") if context.get("records_runs") else None
    ledger = None if ledger_name is None else _Relation.named(ledger_name)
    own_format = context.get("file_format") if context.get("file_format") in ("delta", "iceberg") else None
    batch = None
    if context.get("batch_start"):
        batch = SimpleNamespace(event_time_start=datetime.fromisoformat(context["batch_start"]),
                                event_time_end=datetime.fromisoformat(context["batch_end"]))  # fmt: skip
    keys = ("materialized", "incremental_strategy", "file_format", "lookback", "concurrent_batches")
    settings = {key: context.get(key) for key in keys}

    def run_sql(text: str) -> DataFrame:
        bound = {name: df for name, df in frames.items() if relation(name) in text}
        return run(text, bound) if bound else spark.sql(text)

    def var(name: str, default: Any = None) -> Any:
        value = context.get(name.removeprefix("inc_join_")) if name.removeprefix("inc_join_") in _VARS else None
        return default if value is None else value

    def get_relation(database: Any = None, schema: Any = None, identifier: Any = None) -> _Relation | None:
        found = _Relation(str(schema), str(identifier))
        return found if spark.catalog.tableExists(str(found)) else None

    def create_relation(type: Any = None, **parts: Any) -> _Relation:
        return _Relation(str(parts["schema"]), str(parts["identifier"]))

    names = {
        "this": this,
        "is_incremental": lambda: bool(dbt.is_incremental),
        "var": var,
        "config": SimpleNamespace(get=lambda key, default=None: _setting(settings, key, default)),
        "model": SimpleNamespace(
            batch=batch,
            name=this.identifier,
            unique_id=context.get("unique_id"),
            resource_type="model",
            language="python",
        ),  # fmt: skip
        "adapter": SimpleNamespace(get_relation=get_relation),
        "api": SimpleNamespace(Relation=SimpleNamespace(create=create_relation)),
        "local_md5": lambda text: hashlib.md5(str(text).encode("utf-8")).hexdigest(),
        "execute": True,
        "log": lambda message, info=False: log(message),
        "invocation_id": context.get("invocation_id"),
        "flags": SimpleNamespace(WHICH="run", FULL_REFRESH=False),
    }
    macros: dict[str, Any] = {
        "_ledger_for_this_model": lambda: ledger,
        "_ledger_state": lambda ledger, relation: dict(context["ledger"]),
        "_table_facts": lambda found: {"format": own_format if str(found) == str(this) else None, "location": None},
        "_upstream_state": lambda node=None: {
            "redone": context.get("upstream_redos") or {},
            "outstanding": context.get("upstream_outstanding") or {},
        },
    }
    return port(run_sql, names, macros, warn)


def resolve_dbt_window(
    port: Any,
    prepared: PreparedJoin,
    output_window_start: object = None,
    output_window_end: object = None,
    max_window_units: int | None = None,
    more_inputs: Sequence[PreparedJoin] = (),
    names: Sequence[str] | None = None,
    redo: Mapping[str, Any] | None = None,
    reaches: Mapping[str, int] | None = None,
    state_table: Any = None,
    count_a: bool = False,
) -> dict[str, Any]:
    """The output window of spec §6 for a dbt run, and what decided each bound: the macro _resolve_window's dict,
    through the model's port (its inputs bound as 'a', 'b', then 'b1', 'b2', ... for inc_join_many's
    ``more_inputs``); ``state_table`` and ``count_a``: the open state's counts (spec §18)."""
    more = [
        {"relation": relation(f"b{index}"), "columns": columns(other.df_b), "inc_col": list(other.params.inc_cols)}
        for index, other in enumerate(more_inputs, start=1)
    ]
    found = port(
        "_resolve_window", relation("a"), relation("b"), columns(prepared.df_a), columns(prepared.df_b),
        list(prepared.params.inc_cols), prepared.params.time_uom.value, prepared.params.how, output_window_start,
        output_window_end, max_window_units, more, None if names is None else list(names),
        None if redo is None else dict(redo), None if reaches is None else dict(reaches), state_table, count_a,
    )  # fmt: skip
    return dict(found)
