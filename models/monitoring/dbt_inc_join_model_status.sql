{#- One row per model that records its runs: its last committed run, how far its output lags behind the
    availability watermark, how many units it still has to catch up (max_window_units), and the restated units
    its runs found that no later run redid (spec §14; the table property inc_join.outstanding, as recorded). -#}
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
  -- the runs of the table as it is: a full refresh makes a new one (another table_id) and starts the count again
  select
    runs.relation,
    max(runs.window_end) as committed_end,
    -- the newest watermark a run saw (a run with nothing to do may see none)
    max(runs.watermark) as watermark,
    count(*) as runs,
    sum(runs.rows_total) as rows_total
  from {{ ref('dbt_inc_join_runs') }} as runs
  join ranked as current_table
    on current_table.relation = runs.relation
    and current_table.recency = 1
    and current_table.table_id <=> runs.table_id
  where not runs.empty
  group by runs.relation
),
found as (
  -- every restated unit a run recorded (the ledger's restated column)
  select relation, table_id, time_uom, finished_at, inline(restated)
  from {{ ref('dbt_inc_join_runs') }}
),
outstanding as (
  -- those that no committed run redid since: none of the same table, finished then or later, whose window starts
  -- at or before the unit (a redo, or a first run); a full refresh (another table_id) redoes every unit
  select
    found.relation,
    sort_array(collect_set(concat(found.input, ' ', date_format(found.unit,
      case found.time_uom when 'day' then 'yyyy-MM-dd' else 'yyyy-MM-dd HH:mm:ss' end)))) as outstanding_units
  from found
  left anti join {{ ref('dbt_inc_join_runs') }} as later
    on later.relation = found.relation
    and not later.empty
    and later.finished_at >= found.finished_at
    and (later.table_id != found.table_id or later.window_start is null or later.window_start <= found.unit)
  group by found.relation
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
  committed.rows_total,
  coalesce(outstanding.outstanding_units, cast(array() as array<string>)) as outstanding_units
from ranked as last_run
left join committed
  on committed.relation = last_run.relation
left join outstanding
  on outstanding.relation = last_run.relation
where last_run.recency = 1
