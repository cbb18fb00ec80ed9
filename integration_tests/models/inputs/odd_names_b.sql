select PaymentId, TrxId as `trx id`, Country as `from`, Status as `select`, RecDate as `Rec Date` from {{ ref('gen_b') }}
