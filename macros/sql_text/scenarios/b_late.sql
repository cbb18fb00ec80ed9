{#- JoinType b_late: partners where A came first (Δ > 0); placed at b, when the B row arrives. -#}

{% macro _scenario_b_late(ctx) %}
  {%- set a, b = dbt_inc_join._arrival_a(), dbt_inc_join._arrival_b() -%}
  {%- set join_type = dbt_inc_join._join_type('b_late') -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._a_row(ctx, dbt_inc_join._both() ~ ' AND ' ~ b ~ ' > ' ~ a),
      'arrival': dbt_inc_join._matched_arrival(ctx, b),
      'diff': dbt_inc_join._delta(ctx),
      'waiting': none,
  }) }}
{% endmacro %}
