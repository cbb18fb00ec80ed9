{#- a misspelled arrival column in the model the README recommends: named as inc_col's, not as partition_by's -#}
{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by=['RecDate']) }}
{{ dbt_inc_join.inc_join(ref('typed_a'), ref('typed_b'), join_cols='k', inc_col='RecDt') }}
