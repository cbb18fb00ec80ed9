{#- reads the table of restated_many as its A input: a redo of restated_many restates its units here -#}
{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['restated']) }}
{{ dbt_inc_join.inc_join(ref('restated_many'), source('restated', 'restated_c'), join_cols='TrxId',
                         how='left', look_back_time=1, max_waiting_time=2, suffixes=['_M', '_C'], open_state=true) }}
