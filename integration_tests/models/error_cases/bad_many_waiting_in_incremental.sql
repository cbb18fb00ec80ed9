{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate']) }}
{{ dbt_inc_join.inc_join_many(ref('stg_gen_a'), [
    {'relation': ref('stg_gen_b'), 'name': 'pay', 'join_cols': 'TrxId', 'look_back_time': 1, 'max_waiting_time': 2},
], include_waiting=true) }}
