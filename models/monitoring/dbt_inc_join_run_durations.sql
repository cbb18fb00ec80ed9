{#- One row per committed run: how long it took (compile of the window to the recorded commit), how much it
    finalised, and how many rows it wrote. -#}
{{ config(materialized='view', enabled=var('inc_join_ledger', false)) }}
{#- the ledger is created here when missing (e.g. its schema was dropped since it was built): the view never
    fails the run for want of it -#}
{%- do dbt_inc_join._ensure_ledger(ref('dbt_inc_join_runs')) -%}
select
  model,
  split_part(model, '.', 3) as model_name,
  relation,
  invocation_id,
  window_start,
  window_end,
  empty,
  started_at,
  finished_at,
  cast(unix_millis(finished_at) - unix_millis(started_at) as double) / 1000 as duration_seconds,
  rows_total,
  units_behind
from {{ ref('dbt_inc_join_runs') }}
