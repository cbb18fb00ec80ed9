{{ config(event_time='RecDate') }}
-- gen_hour_b as it was at the end of the simulated day var('today').
select * from {{ ref('gen_hour_b') }}
where RecDate < date_add(DATE'{{ var("today") }}', 1)
