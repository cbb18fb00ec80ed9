{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate']) }}
-- spec_left over sources instead of refs: a unit test's given rows of a source stand for the source's own table.
{{ dbt_inc_join.inc_join(source('staged', 'stg_spec_a'), source('staged', 'stg_spec_b'), join_cols=['TrxId'],
                     look_back_time=2, max_waiting_time=10) }}
