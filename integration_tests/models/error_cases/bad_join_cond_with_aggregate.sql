{{ dbt_inc_join.inc_join(ref('typed_a'), ref('typed_b'), join_cols='k', join_cond='a.amount > 1',
                     aggregate={'n': 'count(*)'},
                     output_window_start='2025-03-01', output_window_end='2025-03-31') }}
