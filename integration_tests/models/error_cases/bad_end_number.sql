{{ dbt_inc_join.inc_join(ref('typed_a'), ref('typed_b'), join_cols='k', output_window_end=20250306) }}
