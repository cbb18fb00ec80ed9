{{ config(materialized='incremental', incremental_strategy='append', tags=['daily']) }}
-- append works because each run starts after the last output arrival already in the table; a re-run of a
-- past window would append its rows again, which is why insert_overwrite is the recommended strategy.
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId', how='left',
                     look_back_time=2, max_waiting_time=4) }}
