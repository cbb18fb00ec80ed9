{{ config(materialized='view') }}
-- The partners of long_a: one in ten never comes; the others arrive from 3 days before to 7 days after their A
-- row (beyond max_waiting_time = 4 for some, so every JoinType occurs), plus a second partner for one in seven.
with partners as (
  select
    id as TrxId,
    date_add(DATE'2025-01-01', cast(id div 12 as int) + cast(pmod(id * 7919, 11) as int) - 3) as RecDate,
    'first' as kind
  from range(0, 1440)
  where pmod(id, 10) <> 3
  union all
  select
    id as TrxId,
    date_add(DATE'2025-01-01', cast(id div 12 as int) + cast(pmod(id * 104729, 5) as int)) as RecDate,
    'second' as kind
  from range(0, 1440)
  where pmod(id, 7) = 0
)
select TrxId, kind, RecDate
from partners
where RecDate <= DATE'{{ env_var('INC_JOIN_TODAY', '9999-12-31') }}'
