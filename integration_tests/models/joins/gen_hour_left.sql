{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['daily']) }}
{{ dbt_inc_join.inc_join(ref('stg_gen_hour_a'), ref('stg_gen_hour_b'), join_cols='TrxId', how='left',
                     look_back_time=1, max_waiting_time=3, time_uom='hour') }}
