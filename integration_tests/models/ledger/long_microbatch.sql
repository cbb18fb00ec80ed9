{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='RecDate', batch_size='day',
          begin='2025-01-01', partition_by=['RecDate'], tags=['long_microbatch']) }}
-- long_left as a microbatch model that records its runs: one record per batch (spec §13).
{{ dbt_inc_join.inc_join(ref('long_a'), ref('long_b'), join_cols='TrxId', how='left',
                     look_back_time=2, max_waiting_time=4) }}
