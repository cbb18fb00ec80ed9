{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['open_state']) }}
-- open_many's twin without the open state
{{ dbt_inc_join.inc_join_many(ref('stg_gen_a'), [
    {'relation': ref('stg_gen_b'), 'name': 'pay', 'join_cols': 'TrxId',
     'look_back_time': 1, 'max_waiting_time': var('open_state_many_mw', 2)},
    {'relation': ref('stg_renamed_b'), 'name': 'paid', 'join_cols': {'TrxId': 'PayTrx'},
     'inc_col': ['RecDate', 'PaidOn'], 'look_back_time': 0, 'max_waiting_time': 3,
     'partner_order_by': 'Status'},
], open_state=false) }}
