{{ dbt_inc_join.inc_join_many(ref('typed_a'), [
    {'relation': ref('typed_b'), 'name': 'pay', 'join_cols': 'k', 'look_back_time': 1, 'max_waiting_time': 2,
     'partner_order_by': 'nope'},
], output_window_start='2025-03-01', output_window_end='2025-03-31') }}
