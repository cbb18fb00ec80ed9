{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='RecDate', batch_size='day',
          begin='2025-01-01', partition_by=['RecDate'], tags=['microbatch']) }}
-- The inputs have event_time too, so dbt would cut them to the batch: inc_join reads them unfiltered and
-- applies its own look-back and waiting bounds. The runs give their event-time bounds, one new batch each: the
-- batch reads the open state the run before left (spec §18).
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId', how='left',
                     look_back_time=2, max_waiting_time=4, open_state=true) }}
