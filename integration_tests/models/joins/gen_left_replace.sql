{#- gen_left on Delta or Iceberg, not partitioned: each run replaces its window with one MERGE
    (incremental_strategy='merge', the package's replace-by-predicate). Only the format legs build it. -#}
{{ config(materialized='incremental', incremental_strategy='merge', tags=['daily'],
          enabled=env_var('INC_JOIN_TABLE_FORMAT', 'parquet') in ['delta', 'iceberg']) }}
{{ dbt_inc_join.inc_join(ref('stg_gen_a'), ref('stg_gen_b'), join_cols='TrxId', how='left',
                     look_back_time=2, max_waiting_time=4, open_state=true) }}
