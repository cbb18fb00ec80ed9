{#- What the JoinType table (docs/spec.md §3: code, name, placement rule and which `how` emits each type)
    decides. Everything else in the package derives from it: the scenarios a run combines (macros/sql_text/scenarios, one
    macro per JoinType, named _scenario_<name>), the names in JoinTypeName, the JoinType tests. The table itself
    is the macro _join_types() of macros/tables/generated/_join_types.sql, written by `make generate` from
    src/dbt_inc_join/tables/shared_tables.py, the one source of both languages (its Python side is
    src/dbt_inc_join/tables/join_types.py); tests/packaging/test_generated.py fails when the copy is stale and
    tests/core/test_join_type_table.py checks both languages' scenarios against it. -#}

{% macro _join_type(name) %}
  {#- One row of the table, by name. -#}
  {{ return(dbt_inc_join._join_types() | selectattr('name', 'equalto', name) | first) }}
{% endmacro %}

{% macro _emitted_join_types(how, include_waiting, mode='all', late_match=false) %}
  {#- The JoinTypes a run emits, in code order: those of `how` and the row mode (spec §11), provisional ones
      only with include_waiting, late matches only with late_match_time > 0 (spec §10). -#}
  {%- set emitted = [] -%}
  {%- for join_type in dbt_inc_join._join_types() -%}
    {%- if how in join_type.hows and mode in join_type.modes and (include_waiting or not join_type.provisional) and (late_match or not join_type.late) -%}
      {%- do emitted.append(join_type) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(emitted) }}
{% endmacro %}

{% macro _matched_codes() %}
  {#- The codes of rows that pair an A row with its partner. -#}
  {{ return(dbt_inc_join._join_types() | selectattr('matched') | map(attribute='code') | list) }}
{% endmacro %}

{% macro _join_type_name_sql(code_sql) %}
  {#- The name of a JoinType code, in SQL (the monitoring models). -#}
  {%- set cases = [] -%}
  {%- for join_type in dbt_inc_join._join_types() -%}
    {%- do cases.append('WHEN ' ~ join_type.code ~ " THEN '" ~ join_type.name ~ "'") -%}
  {%- endfor -%}
  {{ return('CASE ' ~ code_sql ~ ' ' ~ cases | join(' ') ~ ' END') }}
{% endmacro %}
