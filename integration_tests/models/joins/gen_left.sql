{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['daily']) }}
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId', how='left',
                     look_back_time=2, max_waiting_time=4, open_state=true) }}
