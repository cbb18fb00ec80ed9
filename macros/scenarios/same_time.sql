{#- JoinType same_time: partners that arrived in the same unit; placed at a (partner = last: at
    a + max_waiting_time). (scenarios.py: same_time) -#}

{% macro _scenario_same_time(ctx) %}
  {%- set join_type = dbt_inc_join._join_type('same_time') -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._a_row(ctx, '_a_arrival IS NOT NULL AND _b_arrival IS NOT NULL AND _b_arrival = _a_arrival'),
      'arrival': dbt_inc_join._matched_arrival(ctx, '_a_arrival'),
      'diff': dbt_inc_join._diff_units_sql('_b_arrival', '_a_arrival', ctx.time_uom),
      'waiting': none,
  }) }}
{% endmacro %}
