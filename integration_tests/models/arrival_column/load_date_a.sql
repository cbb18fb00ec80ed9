{{ config(materialized='view') }}
-- gen_a with its arrival column named load_date instead of RecDate
select TrxId, Account, Amount, RecDate as load_date from {{ ref('gen_a') }}
