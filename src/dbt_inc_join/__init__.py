"""inc_join: join two incrementally loaded tables whose rows arrive late, in either order, or never.

``from dbt_inc_join import inc_join`` is the PySpark core; ``inc_join_model`` is its dbt Python-model entry.
The dbt package around it lives in the same repository (macros/). See the README.

Importing this module is cheap and needs no pyspark: dbt-core imports every installed ``dbt_*`` module when it
loads a project, and this one then only registers its dbt-spark submission helpers (session, spark_connect).
"""

from typing import Any

# The one version source is shared_tables.VERSION (plain data: pyproject reads it statically, `make generate`
# copies it into dbt_project.yml and the ledger's macro _package_version()).
from .tables import shared_tables as _shared_tables

__version__ = _shared_tables.VERSION

__all__ = [
    "inc_join",
    "inc_join_audit",
    "inc_join_many",
    "inc_join_many_audit",
    "inc_join_many_model",
    "inc_join_model",
    "JoinType",
    "ManyInput",
    "OUTPUT_SELECT_DEFAULT",
    "suggest_windows",
    "suggest_windows_many",
    "unit_fingerprints",
]

# dbt-core's plugin manager reads this list from every dbt_* module it imports.
plugins: list = []

_LAZY = {
    "inc_join": ("orchestration.join", "inc_join"),
    "inc_join_many": ("orchestration.many", "inc_join_many"),
    "inc_join_audit": ("orchestration.audit", "inc_join_audit"),
    "inc_join_many_audit": ("orchestration.audit", "inc_join_many_audit"),
    "ManyInput": ("orchestration.many", "ManyInput"),
    "JoinType": ("tables.join_types", "JoinType"),
    "OUTPUT_SELECT_DEFAULT": ("plan.validation", "OUTPUT_SELECT_DEFAULT"),
    "inc_join_model": ("orchestration.python_models.model", "inc_join_model"),
    "inc_join_many_model": ("orchestration.python_models.model", "inc_join_many_model"),
    "suggest_windows": ("sizing", "suggest_windows"),
    "suggest_windows_many": ("sizing", "suggest_windows_many"),
    "unit_fingerprints": ("plan.fingerprints", "unit_fingerprints"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        module, attribute = _LAZY[name]
        found = getattr(import_module(f"{__name__}.{module}"), attribute)
        if name.islower():
            # a public function: a keyword it does not take gets the package's message, as a SQL macro's call does
            from .plan.validation import known_keywords

            found = known_keywords(name, found)
        globals()[name] = found
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _register_dbt_submission_helpers() -> None:
    from .orchestration.python_models import register

    # method: session -> run Python models in dbt's own SparkSession;
    # method: thrift (or submission_method: spark_connect) -> through Spark Connect
    register()


_register_dbt_submission_helpers()
