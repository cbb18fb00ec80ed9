-- gen_b with column names that need quoting, one of them with a backtick.
select PaymentId, TrxId as `trx id`, Country as `from`, Status as `st``atus`, RecDate as `Rec Date`
from {{ ref('gen_b') }}
