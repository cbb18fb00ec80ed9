{{ config(materialized='table', tags=['matrix']) }}
-- One run of the macro with arguments taken from vars (macros/matrix_join.sql): a case materialised by dbt run.
{{ matrix_join(var('matrix', {})) }}
