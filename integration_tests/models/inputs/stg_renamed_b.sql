-- stg_gen_b (the loads up to the simulated day) with its key and arrival named otherwise than gen_a's
select PaymentId, TrxId as PayTrx, Country, Status, RecDate as PaidOn
from {{ ref('stg_gen_b') }}
