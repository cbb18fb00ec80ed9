{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['days(RecDate)'],
          file_format='parquet') }}
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId') }}
