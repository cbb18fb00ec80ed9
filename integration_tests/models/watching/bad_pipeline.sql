{{ config(materialized='table', tags=['watching']) }}
-- Crafted bad output of an inc_join pipeline, for the tests that must fail: 8 days of 20 rows, one a_timed_out
-- per day (5 %) until the last day, where half the rows time out; an A row both matched and timed out; a
-- duplicated output row; an A row timed out, then late matched (spec §10: fine), and one matched in its window
-- and late matched (not fine).
with ids as (select explode(sequence(0, 159)) as id),
days as (select id, date_add(DATE'2025-01-01', CAST(id DIV 20 AS INT)) as RecDate, id % 20 as slot from ids)
select id as TrxId, RecDate, RecDate as RecDate_A,
       case when slot = 0 then 4
            when RecDate = DATE'2025-01-08' and slot < 10 then 4
            when slot % 3 = 0 then 2
            else 1 end as JoinType
from days
union all select 1000, DATE'2025-01-02', DATE'2025-01-01', 2
union all select 1000, DATE'2025-01-05', DATE'2025-01-01', 4
union all select 1001, DATE'2025-01-03', DATE'2025-01-03', 1
union all select 1001, DATE'2025-01-03', DATE'2025-01-03', 1
union all select 1002, DATE'2025-01-03', DATE'2025-01-01', 4
union all select 1002, DATE'2025-01-04', DATE'2025-01-01', 7
union all select 1003, DATE'2025-01-02', DATE'2025-01-02', 1
union all select 1003, DATE'2025-01-04', DATE'2025-01-02', 7
