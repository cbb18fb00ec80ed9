{#- file_format delta: the check runs at compile time, before anything of Delta is needed -#}
{{ config(materialized='incremental', incremental_strategy='append', file_format='delta',
          post_hook="{{ dbt_inc_join.record_run() }}") }}
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId') }}
