{{ config(materialized='table') }}
-- An inc_join output whose arrival column is load_date: the JoinType tests must be told (argument or var).
{{ dbt_inc_join.inc_join(ref('load_date_a'), ref('load_date_b'), join_cols='TrxId', inc_col='load_date', how='left',
                         look_back_time=2, max_waiting_time=4) }}
