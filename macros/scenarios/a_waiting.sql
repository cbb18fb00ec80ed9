{#- JoinType a_waiting (provisional, include_waiting only): an A row whose window is still open at the output
    window end, with no partner up to it; placed at the end. (scenarios.py: a_waiting) -#}

{% macro _scenario_a_waiting(ctx) %}
  {%- set join_type = dbt_inc_join._join_type('a_waiting') -%}
  {%- set timed_out_at = dbt_inc_join._add_units_sql('_a_arrival', ctx.mw, ctx.time_uom) -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': '_a_arrival IS NOT NULL AND _b_arrival IS NULL AND ' ~ timed_out_at ~ ' > ' ~ ctx.end_sql,
      'arrival': ctx.end_sql,
      'diff': none,
      'waiting': dbt_inc_join._diff_units_sql(ctx.end_sql, '_a_arrival', ctx.time_uom),
  }) }}
{% endmacro %}
