{{ dbt_inc_join.inc_join(ref('derived_clash_a'), ref('typed_b'), join_cols='k', output_window_end='2025-03-31') }}
