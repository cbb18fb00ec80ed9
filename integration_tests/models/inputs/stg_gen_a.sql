{{ config(event_time='RecDate') }}
-- gen_a as it was on the simulated day: var('today'), else env var INC_JOIN_TODAY: only the loads up to that day.
select * from {{ ref('gen_a') }}
where RecDate <= DATE'{{ var('today', env_var('INC_JOIN_TODAY', '9999-12-31')) }}'
