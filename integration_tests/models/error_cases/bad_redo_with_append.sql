{{ config(materialized='incremental', incremental_strategy='append') }}
{{ dbt_inc_join.inc_join(ref('typed_a'), ref('typed_b'), join_cols='k', on_restated_input='redo') }}
