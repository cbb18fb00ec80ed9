{{ config(materialized='view') }}
-- One input row whose columns differ in type from typed_b's where a bad-input case needs it.
select 1 as k, date'2025-03-06' as RecDate, timestamp'2025-03-06 10:00:00' as ts, '2025-03-06' as text_day,
       5 as amount, 'x1' as key_text, date'2025-03-06' as key_day, map('a', 1) as key_map
