{#- JoinType a_timed_out: an A row with no partner in its whole sliding window; placed at a + max_waiting_time. -#}

{% macro _scenario_a_timed_out(ctx) %}
  {%- set join_type = dbt_inc_join._join_type('a_timed_out') -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._a_row(ctx, dbt_inc_join._a_only()),
      'arrival': dbt_inc_join._window_closes(ctx),
      'diff': none,
      'waiting': ctx.mw | string,
  }) }}
{% endmacro %}
