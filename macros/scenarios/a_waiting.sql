{#- Scenario 5, a_waiting (SPEC §3): provisional: an A row of the last max_waiting_time units with no partner up to the window end; placed at the end.
    Returns the WHERE clause over the joined pairs and the row's output arrival. -#}

{% macro _scenario_a_waiting(ctx) %}
  {%- set arrival = ctx.end_sql -%}
  {%- set where = '_a_arrival IS NOT NULL AND _b_arrival IS NULL AND ' ~ dbt_inc_join._add_units_sql('_a_arrival', ctx.mw, ctx.time_uom) ~ ' > ' ~ ctx.end_sql -%}
  {{ return({'code': 5, 'name': 'a_waiting', 'where': where, 'arrival': arrival}) }}
{% endmacro %}
