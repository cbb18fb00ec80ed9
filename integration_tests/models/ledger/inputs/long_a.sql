{{ config(materialized='view') }}
-- 120 days of A rows, 12 a day, generated (no seed): the run ledger's long pipelines. Only the loads up to the
-- simulated day (env var INC_JOIN_TODAY) are visible.
select
  cast(id as int) as TrxId,
  cast(pmod(id * 37, 1000) as decimal(10,2)) as Amount,
  date_add(DATE'2025-01-01', cast(id div 12 as int)) as RecDate
from range(0, 1440)
where date_add(DATE'2025-01-01', cast(id div 12 as int)) <= DATE'{{ env_var('INC_JOIN_TODAY', '9999-12-31') }}'
