{{ config(event_time='RecDate') }}
-- gen_hour_a as it was at the end of the simulated day var('today').
select * from {{ ref('gen_hour_a') }}
where RecDate < date_add(DATE'{{ var("today") }}', 1)
