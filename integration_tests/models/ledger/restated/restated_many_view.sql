{{ config(materialized='view') }}
-- restated_many's table through a view: a redo of restated_many restates restated_chained_view's input
select * from {{ ref('restated_many') }}
