{#- The run ledger (spec §13): one row per committed run of every model with the post-hook
    dbt_inc_join.record_run(). Written by those post-hooks, never by this model, which only creates it. -#}
{#- enabled only where the project switches the ledger on (vars: {inc_join_ledger: true}) -#}
{{ config(materialized='inc_join_ledger', full_refresh=false, enabled=var('inc_join_ledger', false)) }}
{#- dbt reads the model's code for its lineage only; the materialization creates the table (_create_ledger_sql) -#}
select 1 as inc_join_ledger
