{{ config(materialized='view') }}
-- A chained input that still carries the JoinType column of an earlier inc_join.
select 1 as k, date'2025-03-06' as RecDate, 3 as JoinType
