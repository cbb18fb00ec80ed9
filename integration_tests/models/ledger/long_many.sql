{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate'],
          tags=['long']) }}
-- spec §12 with the run ledger (spec §13): a model of several inputs records its runs like any other (its rows per
-- JoinType stay NULL: it has one JoinType column per input)
{{ dbt_inc_join.inc_join_many(ref('long_a'), [
    {'relation': ref('long_b'), 'name': 'first_b', 'join_cols': 'TrxId', 'look_back_time': 2, 'max_waiting_time': 4},
    {'relation': ref('long_b'), 'name': 'all_b', 'join_cols': 'TrxId', 'look_back_time': 1, 'max_waiting_time': 6,
     'aggregate': {'n_b': 'count(*)', 'kinds': 'sort_array(collect_list(kind))'}},
]) }}
