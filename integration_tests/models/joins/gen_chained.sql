{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['daily']) }}
-- A chain (spec §5): gen_left's table as A, read as it is. gen_left keeps its whole output and its JoinType tests;
-- here its own columns come out under A's suffix (JoinType_A, RecDate_A_A, RecDate_B_A, PaymentId_A, ...) next to
-- this join's RecDate_A (gen_left's output arrival) and JoinType.
{{ dbt_inc_join.inc_join(ref('gen_left'), ref('stg_gen_b'), join_cols='TrxId', how='full',
                     look_back_time=1, max_waiting_time=2) }}
