{#- open_left with open_state at its default, 'auto': these days bring far fewer new rows of A than the threshold,
    so the runs keep no state and read as open_left_off does (spec §18). -#}
{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['open_state']) }}
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId', how='left',
                     look_back_time=1, max_waiting_time=var('open_state_mw', 2)) }}
