{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['daily']) }}
-- spec §12: each transaction once, with its first payment (within 2 days before and 4 after) and the statuses of
-- the payments of the day before, the day itself and the day after, from the same payments named otherwise.
{{ dbt_inc_join.inc_join_many(ref('stg_gen_a'), [
    {'relation': ref('stg_gen_b'), 'name': 'pay', 'join_cols': 'TrxId',
     'look_back_time': 2, 'max_waiting_time': 4},
    {'relation': ref('stg_renamed_b'), 'name': 'near', 'join_cols': {'TrxId': 'PayTrx'},
     'inc_col': ['RecDate', 'PaidOn'], 'look_back_time': 1, 'max_waiting_time': 1,
     'aggregate': {'n_near': 'count(*)', 'near_statuses': 'sort_array(collect_set(Status))'}},
]) }}
