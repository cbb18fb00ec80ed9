{{ config(materialized='view', tags=['watching']) }}
-- late_partners_b as if it had stopped loading after 2025-01-03, three days before A's last load
select * from {{ ref('late_partners_b') }} where RecDate <= DATE'2025-01-03'
