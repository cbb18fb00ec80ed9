{#- JoinType same_time: partners that arrived in the same unit; placed at a (partner = last: at
    a + max_waiting_time). -#}

{% macro _scenario_same_time(ctx) %}
  {%- set a, b = dbt_inc_join._arrival_a(), dbt_inc_join._arrival_b() -%}
  {%- set join_type = dbt_inc_join._join_type('same_time') -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._a_row(ctx, dbt_inc_join._both() ~ ' AND ' ~ b ~ ' = ' ~ a),
      'arrival': dbt_inc_join._matched_arrival(ctx, a),
      'diff': dbt_inc_join._delta(ctx),
      'waiting': none,
  }) }}
{% endmacro %}
