{{ config(materialized='table') }}
-- gen_a folded onto 7 keys: each key has many rows a day on each side (spec §11, one row per A).
select cast(TrxId % 7 as int) as TrxId, Account, Amount, RecDate, TrxId as Seq
from {{ ref('gen_a') }}
