{{ config(event_time='RecDate') }}
-- gen_hour_a as it was at the end of the simulated day: var('today'), else env var INC_JOIN_TODAY.
select * from {{ ref('gen_hour_a') }}
where RecDate < date_add(DATE'{{ var('today', env_var('INC_JOIN_TODAY', '9999-12-31')) }}', 1)
