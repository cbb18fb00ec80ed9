{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['spec']) }}
-- spec §9: transactions of the financial system (A) joined with the payment engine (B).
{{ dbt_inc_join.inc_join(ref('stg_spec_a'), ref('stg_spec_b'), join_cols=['TrxId'],
                     look_back_time=2, max_waiting_time=10) }}
