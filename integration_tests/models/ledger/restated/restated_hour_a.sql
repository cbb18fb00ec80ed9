{{ config(materialized='view') }}
-- restated_a with hours: every A row at hour 0, 4, .. 20 of its day (so a restated A row restates that hour)
select TrxId, Amount, CAST(RecDate AS TIMESTAMP) + make_dt_interval(0, (TrxId % 6) * 4) AS RecDate
from {{ source('restated', 'restated_a') }}
