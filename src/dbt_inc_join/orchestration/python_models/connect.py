"""Python models on a Spark cluster reached through Spark Connect (dbt-spark ``method: thrift`` and others).

dbt-spark 1.11 only ships Databricks submission helpers. Importing ``dbt_inc_join`` registers
:class:`SparkConnectHelper` (``python_models.register``) as dbt-spark's ``spark_connect`` helper, the default
for ``method: thrift`` profiles: the compiled model code runs in this process against a Spark Connect session
(``SparkSession.builder.remote(url)``) of the cluster, so its DataFrames are computed by the cluster.

The Connect URL (``sc://host:port``, Spark's default port is 15002) comes from, in this order:

1. the model's ``meta`` entry ``spark_connect_url`` (``models: {<project>: {+meta: {spark_connect_url:
   "sc://..."}}}`` in dbt_project.yml, or ``dbt.config(meta={"spark_connect_url": ...})`` in the model). dbt
   1.10+ wants custom settings under ``meta``;
2. the same name as a top-level model config (``+spark_connect_url``), which works but makes dbt print
   CustomKeyInConfigDeprecation;
3. the environment variable ``SPARK_REMOTE`` (pyspark's own).

Another profile method can opt in per model with ``submission_method: spark_connect``.

pyspark keeps one mode per process: a process that runs a classic (JVM) SparkSession cannot open a Connect
session next to it, so run dbt with this helper in a process of its own (as the ``dbt`` command does).

Each model run opens a Connect session of its own and releases it after: a server-side session caches the file
listings of the tables it read, so a session kept for the life of a process (dbtRunner in a scheduler's worker)
would not see rows another session loaded since, and would stop at an old watermark; a new one also survives a
restart of the server. dbt's SQL statements get a new thrift session per connection the same way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .submission import BaseInProcessHelper

SUBMISSION_METHOD = "spark_connect"
CONFIG_KEY = "spark_connect_url"
ENV_VAR = "SPARK_REMOTE"


def connect_url(
    config: dict[str, Any], model_name: str = "this model", environ: Mapping[str, str] | None = None
) -> str:
    """The Spark Connect URL for one model: ``meta.spark_connect_url``, else the config ``spark_connect_url``,
    else ``$SPARK_REMOTE`` (the first that is set and not blank)."""
    variables: Mapping[str, str] = os.environ if environ is None else environ
    meta = config.get("meta") or {}
    candidates = (
        meta.get(CONFIG_KEY) if isinstance(meta, dict) else None,
        config.get(CONFIG_KEY),
        variables.get(ENV_VAR),
    )
    url = next((text for text in (str(c or "").strip() for c in candidates) if text), "")
    if not url:
        raise ValueError(
            f"inc_join: Python model {model_name} runs through Spark Connect (submission_method "
            f"'{SUBMISSION_METHOD}'), but no Connect URL is set. Set meta {CONFIG_KEY} in the model config, e.g. "
            f'`models: {{<your project>: {{+meta: {{{CONFIG_KEY}: "sc://<spark host>:15002"}}}}}}` in '
            f"dbt_project.yml, or the environment variable {ENV_VAR}."
        )
    if not url.startswith("sc://"):
        raise ValueError(
            f"inc_join: {CONFIG_KEY} must be a Spark Connect URL 'sc://host:port[/;param=value]' "
            f"(got {url!r}) for Python model {model_name}."
        )
    return url


def connect_session(url: str):
    """A new Spark Connect session of ``url``, for one model run (the caller stops it)."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    # create() skips the check getOrCreate makes (SESSION_ALREADY_EXIST), and would switch pyspark to Connect
    # mode under a classic session
    if SparkContext._active_spark_context is not None or SparkSession._instantiatedSession is not None:
        raise RuntimeError(
            "inc_join: this process already runs a classic (JVM) SparkSession, and pyspark cannot open a "
            f"Spark Connect session ({url}) next to it. Run dbt with this profile in a process of its own."
        )
    return SparkSession.builder.remote(url).create()


class SparkConnectHelper(BaseInProcessHelper):
    """exec() the compiled model code against a Spark Connect session of the cluster."""

    submission_method = SUBMISSION_METHOD
    profile_method = "thrift"
    session_per_run = True  # stopping it releases the server's session and its cached listings

    def __init__(self, parsed_model: dict, credentials: Any) -> None:
        super().__init__(parsed_model, credentials)
        try:  # fail before any work when the URL is missing
            self.url = connect_url(parsed_model.get("config") or {}, self.name)
        except ValueError as error:
            from dbt_common.exceptions import DbtRuntimeError

            raise DbtRuntimeError(str(error)) from None

    def spark_session(self) -> Any:
        from dbt_common.exceptions import DbtRuntimeError

        try:
            return connect_session(self.url)
        except Exception as error:
            raise DbtRuntimeError(
                f"Python model {self.name}: no Spark Connect session at {self.url}: {error}"
            ) from error
