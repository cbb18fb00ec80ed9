{{ config(materialized='table') }}
-- gen_b folded onto the same 7 keys; a third of the rows duplicated exactly (a B row delivered twice).
select PaymentId, cast(TrxId % 7 as int) as TrxId, Country, Status, RecDate
from {{ ref('gen_b') }}
union all
select PaymentId, cast(TrxId % 7 as int) as TrxId, Country, Status, RecDate
from {{ ref('gen_b') }}
where PaymentId % 3 = 0
