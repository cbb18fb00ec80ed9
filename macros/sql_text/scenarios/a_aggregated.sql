{#- JoinType a_aggregated (aggregate only): an A row with at least one partner, its partners aggregated; placed at
    a + max_waiting_time, when its window closes. -#}

{% macro _scenario_a_aggregated(ctx) %}
  {%- set join_type = dbt_inc_join._join_type('a_aggregated') -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._both(),
      'arrival': dbt_inc_join._window_closes(ctx),
      'diff': none,
      'waiting': none,
  }) }}
{% endmacro %}
