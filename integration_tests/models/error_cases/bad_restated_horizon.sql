{{ dbt_inc_join.inc_join(ref('typed_a'), ref('typed_b'), join_cols='k', restated_horizon=-24,
                     output_window_start='2025-03-01', output_window_end='2025-03-31') }}
