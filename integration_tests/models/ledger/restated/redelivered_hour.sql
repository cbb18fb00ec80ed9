{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['restated']) }}
{#- hourly units over views, a day of B re-delivered (test_restated.py): restated_horizon compares two more days
    than the read range, so the early hours of that day, before the read range, are compared too -#}
{{ dbt_inc_join.inc_join(ref('restated_hour_a'), ref('restated_hour_b'), join_cols='TrxId', how='left',
                         look_back_time=1, max_waiting_time=30, time_uom='hour', restated_horizon=48) }}
