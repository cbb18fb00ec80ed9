"""A project that installs the package gets none of its tables unless it switches the run ledger on (issue 28).

A small shop project of its own (generated under the test's temporary directory, schema inc_join_switch; the
package installed as README step 1 says, with step 2's dispatch entry) on the test session's Spark:

- switch off: `dbt ls` lists only the project's models, `dbt run` builds only them, and a model with the post-hook
  record_run fails with one message naming the switch;
- switch on (`vars: {inc_join_ledger: true}`): the ledger and its three monitoring views are built, the views give
  the model's name beside its node id, and every column of the four is documented in models/*.yml with the type
  the table really has;
- a monitoring view built when its ledger is missing creates the ledger instead of failing the run (in its
  pre-hook: compiling it creates nothing).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from harness.local_dbt import LocalDbtProject, failure_text

pytestmark = pytest.mark.dbt

REPO = Path(__file__).resolve().parents[2]
SCHEMA = "inc_join_switch"
SWITCH_ON = {"inc_join_ledger": True}
PACKAGE_MODELS = {
    "dbt_inc_join_runs",
    "dbt_inc_join_model_status",
    "dbt_inc_join_run_durations",
    "dbt_inc_join_run_join_types",
}
SHOP_MODELS = {"orders", "payments", "order_payments"}

PROJECT_YML = """name: inc_join_shop
version: "0.1.0"
config-version: 2
profile: inc_join_shop
model-paths: ["models"]
dispatch:
  - macro_namespace: dbt
    search_order: ["inc_join_shop", "dbt_inc_join", "dbt"]
models:
  inc_join_shop:
    +file_format: parquet
    recorded:
      +post-hook: "{{ dbt_inc_join.record_run() }}"
"""

ORDERS = """{{ config(materialized='view') }}
select cast(id as int) as TrxId, date_add(DATE'2025-01-01', cast(id div 2 as int)) as RecDate
from range(0, 8)
"""

PAYMENTS = """{{ config(materialized='view') }}
select cast(id as int) as TrxId, date_add(DATE'2025-01-01', cast(id div 2 as int) + 1) as RecDate
from range(0, 8)
where id <> 3
"""

ORDER_PAYMENTS = """{{ config(materialized='incremental', incremental_strategy='insert_overwrite',
          partition_by=['RecDate']) }}
{{ dbt_inc_join.inc_join(ref('orders'), ref('payments'), join_cols='TrxId', how='left',
                         look_back_time=1, max_waiting_time=2) }}
"""


def write_shop(root: Path) -> None:
    (root / "models" / "recorded").mkdir(parents=True)
    (root / "dbt_project.yml").write_text(PROJECT_YML)
    (root / "packages.yml").write_text(f"packages:\n  - local: {REPO}\n")
    # the integration project's profile (the embedded Spark of INC_JOIN_STATE_DIR), in a schema of its own
    profile = (REPO / "integration_tests" / "profiles.yml").read_text()
    profile = profile.replace("inc_join_integration_tests:", "inc_join_shop:").replace("inc_join_it", SCHEMA)
    (root / "profiles.yml").write_text(profile)
    (root / "models" / "orders.sql").write_text(ORDERS)
    (root / "models" / "payments.sql").write_text(PAYMENTS)
    (root / "models" / "recorded" / "order_payments.sql").write_text(ORDER_PAYMENTS)


@pytest.fixture(scope="module")
def shop(spark, tmp_path_factory) -> LocalDbtProject:
    root = tmp_path_factory.mktemp("switch") / "shop"
    write_shop(root)
    dbt = LocalDbtProject(root, Path(os.environ["INC_JOIN_STATE_DIR"]), write_json=False)
    dbt.target_path, dbt.log_path = root / "target", root / "logs"  # the integration project's stay as they are
    dbt.invoke("deps", "--quiet")
    return dbt


def empty_schema(spark) -> None:
    spark.sql(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")


def listed(dbt: LocalDbtProject, **kwargs) -> set[str]:
    return set(dbt.invoke("ls", "--resource-type", "model", "--output", "name", "--quiet", **kwargs).result)


def built(result) -> dict[str, str]:
    return {r.node.name: str(r.status) for r in result.result.results}


def tables(spark) -> set[str]:
    """The schema's tables and views (not the session's temporary views, which SHOW TABLES lists too)."""
    return {row.tableName for row in spark.sql(f"SHOW TABLES IN {SCHEMA}").collect() if not row.isTemporary}


def test_switch_off_the_project_lists_and_builds_only_its_own_models(shop, spark):
    empty_schema(spark)
    assert listed(shop) == SHOP_MODELS
    result = shop.invoke("run", "--exclude", "order_payments")
    assert built(result) == {"orders": "success", "payments": "success"}
    assert tables(spark) == {"orders", "payments"}


def test_switch_off_record_run_fails_naming_the_switch(shop, spark):
    empty_schema(spark)
    result = shop.invoke("run", "--select", "+order_payments", expect_success=False)
    assert built(result) == {"orders": "success", "payments": "success", "order_payments": "error"}
    text = failure_text(result)
    assert "inc_join: post-hook record_run: the run ledger is off in this project" in text, text
    assert "Switch it on in your dbt_project.yml with `vars: {inc_join_ledger: true}`" in text, text
    assert not PACKAGE_MODELS & tables(spark)


@pytest.fixture(scope="module")
def switched_on(shop, spark):
    """The shop's `dbt run` with the ledger switched on, from an empty schema."""
    empty_schema(spark)
    return shop.invoke("run", vars=SWITCH_ON)


def test_switch_on_builds_the_ledger_and_views_with_the_model_name(shop, spark, switched_on):
    assert listed(shop, vars=SWITCH_ON) == SHOP_MODELS | PACKAGE_MODELS
    assert built(switched_on) == dict.fromkeys(SHOP_MODELS | PACKAGE_MODELS, "success")
    node_id = "model.inc_join_shop.order_payments"
    [status] = spark.table(f"{SCHEMA}.dbt_inc_join_model_status").collect()
    assert (status.model, status.model_name, status.relation) == (node_id, "order_payments", f"{SCHEMA}.order_payments")
    for view in ("dbt_inc_join_run_durations", "dbt_inc_join_run_join_types"):
        names = {(r.model, r.model_name) for r in spark.table(f"{SCHEMA}.{view}").collect()}
        assert names == {(node_id, "order_payments")}, view


def test_switch_on_a_recording_model_depends_on_the_ledger_model(shop, switched_on):
    """run-ledger.md: a model with the post-hook record_run depends on the ledger's model, so `dbt run` builds the
    ledger before any model records in it (and `+model` selects it); the ledger's own model depends on nothing."""

    def ancestors(model: str) -> set[str]:
        found = shop.invoke("ls", "--select", f"+{model}", "--resource-type", "model", "--output", "name", "--quiet",
                            vars=SWITCH_ON).result  # fmt: skip
        return set(found)

    assert ancestors("order_payments") == {"orders", "payments", "order_payments", "dbt_inc_join_runs"}
    assert ancestors("dbt_inc_join_runs") == {"dbt_inc_join_runs"}
    finished = {r.node.name: max(t.completed_at for t in r.timing) for r in switched_on.result.results}
    started = {r.node.name: min(t.started_at for t in r.timing) for r in switched_on.result.results}
    assert finished["dbt_inc_join_runs"] <= started["order_payments"], (finished, started)


def documented_columns() -> dict[str, list[tuple[str, str, str]]]:
    """Each package model's columns as models/**/*.yml documents them: (name, data_type, description)."""
    found = {}
    for path in sorted((REPO / "models").rglob("*.yml")):
        for model in yaml.safe_load(path.read_text())["models"]:
            found[model["name"]] = [(c["name"], c["data_type"], c["description"].strip()) for c in model["columns"]]
    return found


def test_every_column_of_the_ledger_and_views_is_documented_with_its_type(spark, switched_on):
    documented = documented_columns()
    assert set(documented) == PACKAGE_MODELS == {path.stem for path in (REPO / "models").rglob("*.sql")}
    for model in sorted(PACKAGE_MODELS):
        table = spark.table(f"{SCHEMA}.{model}")
        assert [(name, data_type) for name, data_type, _ in documented[model]] == table.dtypes, model
        assert all(description for _, _, description in documented[model]), model


def test_a_view_built_without_its_ledger_creates_it_instead_of_failing(shop, spark):
    empty_schema(spark)  # e.g. a model of the project dropped the schema during the run, after the ledger was built
    views = ["dbt_inc_join_model_status", "dbt_inc_join_run_durations", "dbt_inc_join_run_join_types"]
    shop.invoke("compile", "--select", *views, vars=SWITCH_ON)
    assert not spark.catalog.tableExists(f"{SCHEMA}.dbt_inc_join_runs")  # their pre-hook, not their compile
    result = shop.invoke("run", "--select", *views, vars=SWITCH_ON)
    assert built(result) == dict.fromkeys(views, "success")
    assert tables(spark) == PACKAGE_MODELS
    assert spark.table(f"{SCHEMA}.dbt_inc_join_model_status").count() == 0
