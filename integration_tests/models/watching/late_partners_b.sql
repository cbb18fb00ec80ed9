{{ config(materialized='table', tags=['watching']) }}
-- Crafted B (see late_partners_a): key 1 four days after its A row, key 5 three, key 2 three days before, key 4
-- the same day. B's last load: 01-06, as A's.
select k, RecDate, id from values
  (1, DATE'2025-01-06', 201), (5, DATE'2025-01-05', 205), (2, DATE'2024-12-30', 202), (4, DATE'2025-01-03', 204)
  as t(k, RecDate, id)
