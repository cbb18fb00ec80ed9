{{ config(event_time='RecDate') }}
-- gen_b as it was on the simulated day var('today'): only the loads up to that day.
select * from {{ ref('gen_b') }}
where RecDate <= DATE'{{ var("today") }}'
