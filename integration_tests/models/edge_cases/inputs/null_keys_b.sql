-- gen_b with every join key NULL: nothing can match.
select PaymentId, cast(null as int) as TrxId, Country, Status, RecDate from {{ ref('gen_b') }}
