{{ config(event_time='RecDate') }}
-- spec_b as it was on the simulated day var('today'): only the loads up to that day.
select * from {{ ref('spec_b') }}
where RecDate <= DATE'{{ var("today") }}'
