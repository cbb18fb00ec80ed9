{{ config(materialized='table', tags=['edge']) }}
{{ dbt_inc_join.inc_join(ref('gen_a'), ref('gen_b'), join_cols='TrxId', how='full', look_back_time=2, max_waiting_time=4, output_window_start='2025-01-06', output_window_end='2025-01-05') }}
