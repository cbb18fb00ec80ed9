"""The statement of a run, rendered by the package's macros and run by Spark over the caller's DataFrames.

The macros name each input by a relation; here each is a placeholder bound to a DataFrame. The result is lazy,
as a DataFrame built by calls would be: classic Spark analyses the statement (no job), Spark Connect not even that.
- Classic Spark: each input becomes a temporary view of its own name for the statement's analysis, then the view
  is dropped from the session's catalog only. ``spark.sql(text, a=df)`` drops its views through
  ``spark.catalog.dropTempView``, which also uncaches a view's plan: the caller's cached input would lose its
  cache (measured on pyspark 3.5.9 and 4.3.0), and every later action would read it again.
- Spark Connect from pyspark 4: ``spark.sql`` binds each DataFrame as a relation of the statement (no view).
- Spark Connect on pyspark 3.5 binds no DataFrame to a statement: each input becomes a temporary view of its own
  name, which stays (a Connect client cannot drop a view without uncaching it).
"""

from __future__ import annotations

import inspect
import uuid
from collections.abc import Mapping
from typing import Any

from pyspark.sql import DataFrame

from .macros import render

# a name no SQL text of the package spells, so that only the inputs' places are replaced
_SENTINEL = "__inc_join_input_{}__"


def relation(name: str) -> str:
    """The placeholder the macros get for the input ``name``: ``run`` puts the DataFrame in its place."""
    return _SENTINEL.format(name)


def rendered(macro: str, *args: Any) -> str:
    """The text of a statement macro (it renders its statement rather than returning a value)."""
    return str(render(macro, *args))


def run(text: str, inputs: Mapping[str, DataFrame]) -> DataFrame:
    """The statement ``text`` over ``inputs`` (by the names given to ``relation``), as a lazy DataFrame."""
    spark = next(iter(inputs.values())).sparkSession
    if hasattr(spark, "_jsparkSession"):
        return _run_classic(spark, text, inputs)
    if _binds_dataframes(spark):
        # spark.sql formats the text like str.format: braces of the statement itself are doubled first
        text = text.replace("{", "{{").replace("}", "}}")
        for name in inputs:
            text = text.replace(relation(name), "{" + name + "}")
        return spark.sql(text, **dict(inputs))  # type: ignore[arg-type]
    for name, df in inputs.items():
        view = f"_inc_join_{name}_{uuid.uuid4().hex}"
        df.createOrReplaceTempView(view)
        text = text.replace(relation(name), view)
    return spark.sql(text)


def _run_classic(spark: Any, text: str, inputs: Mapping[str, DataFrame]) -> DataFrame:
    """``run`` in classic Spark: the statement is analysed while the views exist, so they can go right after."""
    views = {name: f"_inc_join_{name}_{uuid.uuid4().hex}" for name in inputs}
    for name, df in inputs.items():
        df.createOrReplaceTempView(views[name])
        text = text.replace(relation(name), views[name])
    try:
        return spark.sql(text)
    finally:
        catalog = spark._jsparkSession.sessionState().catalog()
        for view in views.values():
            catalog.dropTempView(view)  # the session catalog's drop: the cache manager keeps the inputs' caches


def _binds_dataframes(spark: Any) -> bool:
    """Whether this session's ``sql`` takes DataFrames as keyword arguments (not Spark Connect on pyspark 3.5)."""
    return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(spark.sql).parameters.values())
