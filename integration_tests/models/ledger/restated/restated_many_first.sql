{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['restated']) }}
-- restated_many with both inputs taking their first partner: it keeps the open state (spec §18)
{{ dbt_inc_join.inc_join_many(source('restated', 'restated_a'), [
     {'relation': source('restated', 'restated_b'), 'name': 'pay', 'join_cols': 'TrxId', 'look_back_time': 2,
      'max_waiting_time': 4, 'partner': 'first', 'partner_order_by': 'PaymentId'},
     {'relation': source('restated', 'restated_c'), 'name': 'note', 'join_cols': 'TrxId', 'look_back_time': 1,
      'max_waiting_time': 3, 'partner': 'first'},
   ], open_state=true) }}
