{{ config(materialized='view') }}
-- restated_b with hours, as restated_hour_a
select PaymentId, TrxId, CAST(RecDate AS TIMESTAMP) + make_dt_interval(0, (TrxId % 6) * 4) AS RecDate
from {{ source('restated', 'restated_b') }}
