{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['restated']) }}
{#- restated_left in hours: a restated unit is named by its hour -#}
{{ dbt_inc_join.inc_join(ref('restated_hour_a'), ref('restated_hour_b'), join_cols='TrxId', how='left',
                         look_back_time=48, max_waiting_time=96, time_uom='hour') }}
