{{ config(materialized='view') }}
-- typed_a's columns, but ts is a STRING, text_day an INT, key_text an INT and key_day a TIMESTAMP.
select 1 as k, date'2025-03-06' as RecDate, '2025-03-06 10:00:00' as ts, 20250306 as text_day, 'x' as status,
       1 as key_text, timestamp'2025-03-06 00:00:00' as key_day, map('a', 1) as key_map
