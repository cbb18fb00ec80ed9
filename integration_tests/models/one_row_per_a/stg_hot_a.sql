-- stg_gen_a folded onto 7 keys (many rows per key and day), with the A row's own id as Seq.
select cast(TrxId % 7 as int) as TrxId, Account, Amount, RecDate, TrxId as Seq
from {{ ref('stg_gen_a') }}
