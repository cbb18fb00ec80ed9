{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate']) }}
-- spec §9 with how = full: the model of the unit tests whose B rows time out (unit_tests.yml).
{{ dbt_inc_join.inc_join(ref('stg_spec_a'), ref('stg_spec_b'), join_cols=['TrxId'], how='full',
                     look_back_time=2, max_waiting_time=10) }}
