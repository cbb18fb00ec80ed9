{{ dbt_inc_join.inc_join(ref('typed_a'), ref('typed_b'), join_cols='k', aggregate={'JoinType': 'count(*)'},
                     output_window_end='2025-03-31') }}
