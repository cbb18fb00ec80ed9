{{ config(event_time='RecDate') }}
-- spec_a as it was on the simulated day var('today'): only the loads up to that day.
select * from {{ ref('spec_a') }}
where RecDate <= DATE'{{ var("today") }}'
