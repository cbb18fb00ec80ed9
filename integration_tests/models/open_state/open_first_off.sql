{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['open_state']) }}
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId', how='left', partner='first',
                     look_back_time=1, max_waiting_time=var('open_state_first_mw', 2), open_state=false) }}
