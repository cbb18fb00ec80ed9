{{ config(materialized='view', tags=['waiting']) }}
-- What is still waiting for its partner right now. Waiting rows are provisional (a later run emits the same
-- A rows as matched or timed out), so this is a view, never an incremental table. They are all placed at the
-- window end, so the view only needs the run [end, end].
{%- set window = dbt_inc_join.output_window(ref('stg_gen_a'), ref('stg_gen_b')) %}
select * from (
  {{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId', how='left',
                       look_back_time=2, max_waiting_time=4, include_waiting=true,
                       output_window_start=window.end, output_window_end=window.end) }}
) where JoinType = 5
