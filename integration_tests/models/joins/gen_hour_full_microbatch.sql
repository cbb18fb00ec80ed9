{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='RecDate', batch_size='hour',
          begin='2025-01-01', partition_by=['RecDate'], tags=['microbatch_hour']) }}
{{ dbt_inc_join.inc_join(ref('stg_gen_hour_a'), ref('stg_gen_hour_b'), join_cols='TrxId', how='full',
                     look_back_time=1, max_waiting_time=3, time_uom='hour') }}
