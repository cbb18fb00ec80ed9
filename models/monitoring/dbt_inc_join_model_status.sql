{#- One row per model that records its runs: its last committed run, how far its output lags behind the
    availability watermark, and how many units it still has to catch up (max_window_units). -#}
{#- enabled only where the project switches the ledger on; the pre-hook creates a missing ledger -#}
{{ config(materialized='view', enabled=var('inc_join_ledger', false),
          pre_hook="{{ dbt_inc_join._ledger_view_hook() }}") }}
with ranked as (
  select
    *,
    row_number() over (partition by relation order by finished_at desc) as recency
  from {{ ref('dbt_inc_join_runs') }}
),
committed as (
  select
    relation,
    max(window_end) as committed_end,
    -- the newest watermark a run saw (a run with nothing to do may see none)
    max(watermark) as watermark,
    count(*) as runs,
    sum(rows_total) as rows_total
  from {{ ref('dbt_inc_join_runs') }}
  where not empty
  group by relation
)
select
  last_run.model,
  split_part(last_run.model, '.', 3) as model_name,
  last_run.relation,
  last_run.time_uom,
  committed.committed_end,
  committed.watermark,
  case last_run.time_uom
    when 'day' then datediff(committed.watermark, committed.committed_end)
    when 'hour' then cast((unix_seconds(committed.watermark) - unix_seconds(committed.committed_end)) div 3600 as int)
    else cast((unix_seconds(committed.watermark) - unix_seconds(committed.committed_end)) div 60 as int)
  end as units_behind_watermark,
  last_run.units_behind as units_left_by_max_window_units,
  last_run.finished_at as last_run_finished_at,
  last_run.empty as last_run_empty,
  committed.runs as committed_runs,
  committed.rows_total
from ranked as last_run
left join committed
  on committed.relation = last_run.relation
where last_run.recency = 1
