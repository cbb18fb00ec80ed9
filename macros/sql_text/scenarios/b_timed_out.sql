{#- JoinType b_timed_out (how = full): a B row that no A row can claim any more; placed at b + look_back_time. -#}

{% macro _scenario_b_timed_out(ctx) %}
  {%- set b = dbt_inc_join._arrival_b() -%}
  {%- set join_type = dbt_inc_join._join_type('b_timed_out') -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._b_only(),
      'arrival': dbt_inc_join._add_units_sql(b, ctx.lb, ctx.time_uom),
      'diff': none,
      'waiting': ctx.lb | string,
  }) }}
{% endmacro %}
