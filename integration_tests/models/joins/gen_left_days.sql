-- partitioned by Iceberg's days() transform of the arrival column (the Iceberg leg builds it)
{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['days(RecDate)']) }}
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId', how='left',
                     look_back_time=2, max_waiting_time=4) }}
