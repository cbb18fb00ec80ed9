{#- Scenario 3, b_late (SPEC §3): partners where A came first (Δ > 0); placed at b.
    Returns the WHERE clause over the joined pairs and the row's output arrival. -#}

{% macro _scenario_b_late(ctx) %}
  {%- set arrival = '_b_arrival' -%}
  {%- set where = '_a_arrival IS NOT NULL AND _b_arrival IS NOT NULL AND _b_arrival > _a_arrival AND ' ~ dbt_inc_join._in_window_sql(arrival, ctx) -%}
  {{ return({'code': 3, 'name': 'b_late', 'where': where, 'arrival': arrival}) }}
{% endmacro %}
