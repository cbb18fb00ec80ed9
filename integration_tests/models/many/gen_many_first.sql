{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['daily']) }}
-- spec §12, §18: each transaction once, with its first payment (within 2 days before and 4 after) and the first
-- payment of the same day or up to 3 days after under other names, keeping the open state (every input takes
-- its first partner)
{{ dbt_inc_join.inc_join_many(ref('stg_gen_a'), [
    {'relation': ref('stg_gen_b'), 'name': 'pay', 'join_cols': 'TrxId',
     'look_back_time': 2, 'max_waiting_time': 4},
    {'relation': ref('stg_renamed_b'), 'name': 'paid', 'join_cols': {'TrxId': 'PayTrx'},
     'inc_col': ['RecDate', 'PaidOn'], 'look_back_time': 0, 'max_waiting_time': 3,
     'partner_order_by': 'Status'},
], open_state=true) }}
