{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['daily']) }}
-- Per transaction, its payments within the window (spec §11): how many, from how many countries, the last status.
{{ dbt_inc_join.inc_join(ref('stg_hot_a'), ref('stg_hot_b'), join_cols='TrxId', look_back_time=2, max_waiting_time=4,
                         aggregate={'n_payments': 'count(*)', 'countries': 'count(distinct Country)',
                                    'last_status': 'max_by(Status, PaymentId)'},
                         null_fill={'last_status': 'none'}) }}
