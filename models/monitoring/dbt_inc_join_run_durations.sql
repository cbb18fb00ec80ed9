{#- One row per committed run: how long it took (compile of the window to the recorded commit), how much it
    finalised, how many rows it read and wrote. -#}
{#- enabled only where the project switches the ledger on; the pre-hook creates a missing ledger -#}
{{ config(materialized='view', enabled=var('inc_join_ledger', false),
          pre_hook="{{ dbt_inc_join._ledger_view_hook() }}") }}
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
  rows_read,
  units_behind
from {{ ref('dbt_inc_join_runs') }}
