{#- Scenario 2, a_late (SPEC §3): partners where B came first (Δ < 0); placed at a.
    Returns the WHERE clause over the joined pairs and the row's output arrival. -#}

{% macro _scenario_a_late(ctx) %}
  {%- set arrival = '_a_arrival' -%}
  {%- set where = '_a_arrival IS NOT NULL AND _b_arrival IS NOT NULL AND _b_arrival < _a_arrival AND ' ~ dbt_inc_join._in_window_sql(arrival, ctx) -%}
  {{ return({'code': 2, 'name': 'a_late', 'where': where, 'arrival': arrival}) }}
{% endmacro %}
