{#- Scenario 1, same_time (SPEC §3): partners that arrived in the same unit; placed at a.
    Returns the WHERE clause over the joined pairs and the row's output arrival. -#}

{% macro _scenario_same_time(ctx) %}
  {%- set arrival = '_a_arrival' -%}
  {%- set where = '_a_arrival IS NOT NULL AND _b_arrival IS NOT NULL AND _b_arrival = _a_arrival AND ' ~ dbt_inc_join._in_window_sql(arrival, ctx) -%}
  {{ return({'code': 1, 'name': 'same_time', 'where': where, 'arrival': arrival}) }}
{% endmacro %}
