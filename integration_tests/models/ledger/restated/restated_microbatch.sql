{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='RecDate', batch_size='day',
          begin='2025-03-01', partition_by=['RecDate'], tags=['restated_microbatch']) }}
{#- restated_left as a microbatch model: each batch recorded, repaired by its batches run again -#}
{{ dbt_inc_join.inc_join(source('restated', 'restated_a'), source('restated', 'restated_b'), join_cols='TrxId',
                         how='left', look_back_time=2, max_waiting_time=4) }}
