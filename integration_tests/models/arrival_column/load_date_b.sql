{{ config(materialized='view') }}
-- gen_b with its arrival column named load_date instead of RecDate
select PaymentId, TrxId, Country, Status, RecDate as load_date from {{ ref('gen_b') }}
