"""The statement of a run, rendered by the package's macros and run by Spark over the caller's DataFrames.

The macros name each input by a relation; here each is a placeholder that ``spark.sql`` binds to a DataFrame
(pyspark >= 3.4 classic, and Spark Connect from pyspark 4). The result is lazy, as a DataFrame built by calls
would be: classic Spark analyses the statement (no job), Spark Connect not even that. Spark Connect on
pyspark 3.5 binds no DataFrame to a statement, so there each input becomes a temporary view of its own name.
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


def _binds_dataframes(spark: Any) -> bool:
    """Whether this session's ``sql`` takes DataFrames as keyword arguments (not Spark Connect on pyspark 3.5)."""
    return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(spark.sql).parameters.values())
