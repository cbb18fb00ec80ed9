-- gen_a with every join key NULL: nothing can match.
select cast(null as int) as TrxId, Account, Amount, RecDate from {{ ref('gen_a') }}
