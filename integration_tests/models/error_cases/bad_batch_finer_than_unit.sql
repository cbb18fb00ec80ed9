{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='RecDate', batch_size='hour',
          begin='2025-01-01', partition_by=['RecDate']) }}
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId', time_uom='day') }}
