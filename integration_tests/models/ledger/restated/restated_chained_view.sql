{#- restated_chained, reading restated_many through a view: dbt's graph leads to the redone table -#}
{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['restated']) }}
{{ dbt_inc_join.inc_join(ref('restated_many_view'), source('restated', 'restated_c'), join_cols='TrxId',
                         how='left', look_back_time=1, max_waiting_time=2, suffixes=['_M', '_C']) }}
