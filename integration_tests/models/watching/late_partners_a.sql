{{ config(materialized='table', tags=['watching']) }}
-- Crafted A for missed_partners and input_lag: keys 1, 2, 3 and 5 time out on 2025-01-04 (lb 1, mw 2); key 1's
-- and key 5's partners come too late, key 2's too early, key 3's never; key 4 is matched. A's last load: 01-06.
select k, RecDate, id from values
  (1, DATE'2025-01-02', 101), (2, DATE'2025-01-02', 102), (3, DATE'2025-01-02', 103),
  (4, DATE'2025-01-03', 104), (5, DATE'2025-01-02', 105), (6, DATE'2025-01-06', 106)
  as t(k, RecDate, id)
