{#- The JoinType table (docs/spec.md §3): code, name, placement rule and which `how` emits each type.
    Everything else in the package derives from it: the scenarios a run combines (macros/scenarios, one macro
    per JoinType, named _scenario_<name>), the names in JoinTypeName, the JoinType tests. Its Python twin is
    src/dbt_inc_join/join_types.py; tests/core/test_join_types.py keeps the two equal. -#}

{% macro _join_types() %}
  {%- set match_hows = ['inner', 'left', 'full'] -%}
  {%- set a_only_hows = ['left', 'full', 'left_anti'] -%}
  {#- modes: the row modes of spec §11 (partner values, or 'aggregate') that emit the type. placed_at is the rule
      of partner = all; partner = last places codes 1-3 at a + max_waiting_time. -#}
  {%- set pair_modes = ['all', 'first', 'last'] -%}
  {%- set every_mode = ['all', 'first', 'last', 'aggregate'] -%}
  {{ return([
      {'code': 1, 'name': 'same_time', 'placed_at': 'a', 'hows': match_hows, 'matched': true, 'modes': pair_modes, 'provisional': false, 'late': false},
      {'code': 2, 'name': 'a_late', 'placed_at': 'a', 'hows': match_hows, 'matched': true, 'modes': pair_modes, 'provisional': false, 'late': false},
      {'code': 3, 'name': 'b_late', 'placed_at': 'b', 'hows': match_hows, 'matched': true, 'modes': pair_modes, 'provisional': false, 'late': false},
      {'code': 4, 'name': 'a_timed_out', 'placed_at': 'a + max_waiting_time', 'hows': a_only_hows, 'matched': false, 'modes': every_mode, 'provisional': false, 'late': false},
      {'code': 5, 'name': 'a_waiting', 'placed_at': 'e', 'hows': a_only_hows, 'matched': false, 'modes': every_mode, 'provisional': true, 'late': false},
      {'code': 6, 'name': 'b_timed_out', 'placed_at': 'b + look_back_time', 'hows': ['full'], 'matched': false, 'modes': pair_modes, 'provisional': false, 'late': false},
      {'code': 7, 'name': 'late_match', 'placed_at': 'b', 'hows': match_hows, 'matched': true, 'modes': ['all'], 'provisional': false, 'late': true},
      {'code': 8, 'name': 'a_aggregated', 'placed_at': 'a + max_waiting_time', 'hows': ['inner', 'left'], 'matched': true, 'modes': ['aggregate'], 'provisional': false, 'late': false},
  ]) }}
{% endmacro %}

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
