{{ config(materialized='table', tags=['watching']) }}
{{ dbt_inc_join.inc_join(ref('late_partners_a'), ref('late_partners_b'), join_cols='k', how='left',
                     look_back_time=1, max_waiting_time=2,
                     output_window_start='2024-12-25', output_window_end='2025-01-10') }}
