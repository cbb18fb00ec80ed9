{#- Scenario 4, a_timed_out (SPEC §3): an A row with no partner in its whole sliding window; placed at a + max_waiting_time.
    Returns the WHERE clause over the joined pairs and the row's output arrival. -#}

{% macro _scenario_a_timed_out(ctx) %}
  {%- set arrival = dbt_inc_join._add_units_sql('_a_arrival', ctx.mw, ctx.time_uom) -%}
  {%- set where = '_a_arrival IS NOT NULL AND _b_arrival IS NULL AND ' ~ dbt_inc_join._in_window_sql(arrival, ctx) -%}
  {{ return({'code': 4, 'name': 'a_timed_out', 'where': where, 'arrival': arrival}) }}
{% endmacro %}
