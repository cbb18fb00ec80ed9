{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['restated']) }}
{{ dbt_inc_join.inc_join(source('restated', 'restated_a'), source('restated', 'restated_b'), join_cols='TrxId',
                         how='left', look_back_time=2, max_waiting_time=4, open_state=true) }}
