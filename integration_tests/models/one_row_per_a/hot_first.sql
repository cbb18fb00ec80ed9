{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['daily']) }}
-- The first payment of each transaction (spec §11), ties between payments of the same day broken by PaymentId.
{{ dbt_inc_join.inc_join(ref('stg_hot_a'), ref('stg_hot_b'), join_cols='TrxId', look_back_time=2, max_waiting_time=4,
                         partner='first', partner_order_by='PaymentId') }}
