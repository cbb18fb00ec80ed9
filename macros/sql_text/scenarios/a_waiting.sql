{#- JoinType a_waiting (provisional, include_waiting only): an A row whose window is still open at the output
    window end, with no partner up to it; placed at the end. With partner = last or aggregate every such A row,
    with its partners so far. -#}

{% macro _scenario_a_waiting(ctx) %}
  {%- set a = dbt_inc_join._arrival_a() -%}
  {%- set join_type = dbt_inc_join._join_type('a_waiting') -%}
  {%- set open_rows = dbt_inc_join._a_only() if ctx.mode in ['all', 'first'] else a ~ ' IS NOT NULL' -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._a_row(ctx, open_rows ~ ' AND ' ~ dbt_inc_join._window_closes(ctx) ~ ' > ' ~ ctx.end_sql),
      'arrival': ctx.end_sql,
      'diff': none,
      'waiting': dbt_inc_join._diff_units_sql(ctx.end_sql, a, ctx.time_uom),
  }) }}
{% endmacro %}
