-- gen_b with its key and arrival named otherwise than gen_a's (spec §12: join_cols as a mapping, inc_col as a pair)
select PaymentId, TrxId as PayTrx, Country, Status, RecDate as PaidOn
from {{ ref('gen_b') }}
