{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['long']) }}
{{ dbt_inc_join.inc_join(ref('long_a'), ref('long_b'), join_cols='TrxId', how='inner',
                     look_back_time=2, max_waiting_time=4, late_match_time=3) }}
