{{ dbt_inc_join.inc_join(ref('typed_a'), ref('typed_b'), join_cols='k', output_window_start='2025-02-30') }}
