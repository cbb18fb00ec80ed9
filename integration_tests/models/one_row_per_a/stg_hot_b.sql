-- stg_gen_b folded onto the same 7 keys; every third payment delivered twice.
select PaymentId, cast(TrxId % 7 as int) as TrxId, Country, Status, RecDate
from {{ ref('stg_gen_b') }}
union all
select PaymentId, cast(TrxId % 7 as int) as TrxId, Country, Status, RecDate
from {{ ref('stg_gen_b') }}
where PaymentId % 3 = 0
