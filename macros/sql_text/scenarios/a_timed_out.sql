{#- JoinType a_timed_out: an A row with no partner in its whole sliding window; placed at a + max_waiting_time.
    With the open state's keys (spec §18) B's slice starts after the window's, so an A row is also one that had
    no partner before it (_a_open). -#}

{% macro _scenario_a_timed_out(ctx) %}
  {%- set join_type = dbt_inc_join._join_type('a_timed_out') -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._a_row(ctx, dbt_inc_join._a_only() ~ (' AND _a_open' if ctx.get('open_flag') else '')),
      'arrival': dbt_inc_join._window_closes(ctx),
      'diff': none,
      'waiting': ctx.mw | string,
  }) }}
{% endmacro %}
