{#- Scenario 6, b_timed_out (SPEC §3): how = full: a B row no A row can claim any more; placed at b + look_back_time.
    Returns the WHERE clause over the joined pairs and the row's output arrival. -#}

{% macro _scenario_b_timed_out(ctx) %}
  {%- set arrival = dbt_inc_join._add_units_sql('_b_arrival', ctx.lb, ctx.time_uom) -%}
  {%- set where = '_a_arrival IS NULL AND ' ~ dbt_inc_join._in_window_sql(arrival, ctx) -%}
  {{ return({'code': 6, 'name': 'b_timed_out', 'where': where, 'arrival': arrival}) }}
{% endmacro %}
