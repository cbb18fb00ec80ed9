{#- JoinType late_match (late_match_time only, spec §10): a timed-out A row and a partner that came after its
    window closed, at most late_match_time later; placed at b. The A row's own a_timed_out row stays: this is an
    additional fact. -#}

{% macro _scenario_late_match(ctx) %}
  {%- set b = dbt_inc_join._arrival_b() -%}
  {%- set join_type = dbt_inc_join._join_type('late_match') -%}
  {{ return({
      'code': join_type.code,
      'name': join_type.name,
      'where': dbt_inc_join._both() ~ ' AND ' ~ dbt_inc_join._late_copy(),
      'arrival': b,
      'diff': dbt_inc_join._delta(ctx),
      'waiting': none,
  }) }}
{% endmacro %}
