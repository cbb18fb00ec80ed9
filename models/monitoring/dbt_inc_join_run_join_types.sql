{#- One row per committed run and JoinType: the rows each run wrote of each code (spec §3). -#}
{#- enabled only where the project switches the ledger on; the pre-hook creates a missing ledger -#}
{{ config(materialized='view', enabled=var('inc_join_ledger', false),
          pre_hook="{{ dbt_inc_join._ledger_view_hook() }}") }}
select
  runs.model,
  split_part(runs.model, '.', 3) as model_name,
  runs.relation,
  runs.window_start,
  runs.window_end,
  runs.finished_at,
  counted.join_type,
  {{ dbt_inc_join._join_type_name_sql('counted.join_type') }} as join_type_name,
  counted.join_type_rows
from {{ ref('dbt_inc_join_runs') }} as runs
lateral view explode(runs.join_type_rows) counted as join_type, join_type_rows
