{#- JoinType b_late: partners where A came first (Δ > 0); placed at b, when the B row arrives.
    (scenarios.py: b_late) -#}

{% macro _scenario_b_late(ctx) %}
  {%- set join_type = dbt_inc_join._join_type('b_late') -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._a_row(ctx, '_a_arrival IS NOT NULL AND _b_arrival IS NOT NULL AND _b_arrival > _a_arrival'),
      'arrival': dbt_inc_join._matched_arrival(ctx, '_b_arrival'),
      'diff': dbt_inc_join._diff_units_sql('_b_arrival', '_a_arrival', ctx.time_uom),
      'waiting': none,
  }) }}
{% endmacro %}
