{#- Shared by the JoinType tests: codes from codes or names, periods, recent-rows filters. -#}

{% macro _join_type_names() %}
  {#- code -> name, from the JoinType table (macros/tables/join_types.sql) -#}
  {%- set names = {} -%}
  {%- for join_type in dbt_inc_join._join_types() -%}
    {%- do names.update({join_type.code: join_type.name}) -%}
  {%- endfor -%}
  {{ return(names) }}
{% endmacro %}

{% macro _join_type_codes_text() %}
  {#- 'a code (1, 2, 3, 4, 5, 6, 8)', from the table -#}
  {%- set codes = dbt_inc_join._join_type_names().keys() | list -%}
  {{ return('a code (' ~ codes | join(', ') ~ ')') }}
{% endmacro %}

{% macro _join_type_code(value, parameter) %}
  {%- set names = dbt_inc_join._join_type_names() -%}
  {%- for code, name in names.items() -%}
    {%- if value == code or (value is string and (value | lower == name or value | trim == code | string)) -%}
      {{ return(code) }}
    {%- endif -%}
  {%- endfor -%}
  {{ dbt_inc_join._fail(parameter ~ ' has ' ~ dbt_inc_join._repr(value) ~ ', which is not a JoinType; use ' ~ dbt_inc_join._join_type_codes_text() ~ ' or a name: ' ~ names.values() | join(', ') ~ '.') }}
{% endmacro %}

{% macro _join_type_codes(values, parameter) %}
  {%- if values is string or values is number -%}{%- set values = [values] -%}{%- endif -%}
  {%- if values is none or values | length == 0 -%}
    {{ dbt_inc_join._fail(parameter ~ ' must list at least one JoinType (' ~ dbt_inc_join._join_type_codes_text() ~ ' or a name such as a_timed_out).') }}
  {%- endif -%}
  {%- set codes = [] -%}
  {%- for value in values -%}{%- do codes.append(dbt_inc_join._join_type_code(value, parameter)) -%}{%- endfor -%}
  {{ return(codes | unique | list) }}
{% endmacro %}

{% macro _share_bound(parameter, value) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- if value is not number or value is boolean or value < 0 or value > 1 -%}
    {{ dbt_inc_join._fail(parameter ~ ' must be a share between 0 and 1, e.g. 0.01 (got ' ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _positive_count(parameter, value, allow_none=true) %}
  {%- if value is none and allow_none -%}{{ return(none) }}{%- endif -%}
  {%- if value is not integer or value < 1 -%}
    {{ dbt_inc_join._fail(parameter ~ ' must be a whole number of at least 1 (got ' ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _period_sql(column, period) %}
  {%- set period = dbt_inc_join._choice('period', period, ['day', 'hour']) -%}
  {{ return(dbt_inc_join._truncate_sql(column, period)) }}
{% endmacro %}

{% macro _recent_sql(column_sql, relation, last_n, unit) %}
  {#- The rows whose value of column_sql (a day or hour) lies in the last last_n units of the table. -#}
  {%- if last_n is none -%}{{ return('true') }}{%- endif -%}
  {{ return(column_sql ~ ' >= (SELECT ' ~ dbt_inc_join._add_units_sql('max(' ~ column_sql ~ ')', 1 - last_n, unit) ~ ' FROM ' ~ relation ~ ')') }}
{% endmacro %}

{% macro _bounds_values(codes_with_bounds) %}
  {#- A VALUES list (join_type, join_type_name, min_share, max_share). -#}
  {%- set names = dbt_inc_join._join_type_names() -%}
  {%- set rows = [] -%}
  {%- for code, low, high in codes_with_bounds -%}
    {%- do rows.append('(' ~ code ~ ", '" ~ names[code] ~ "', CAST(" ~ (low if low is not none else 'NULL') ~ ' AS DOUBLE), CAST(' ~ (high if high is not none else 'NULL') ~ ' AS DOUBLE))') -%}
  {%- endfor -%}
  {{ return('SELECT * FROM VALUES ' ~ rows | join(', ') ~ ' AS bounds(join_type, join_type_name, min_share, max_share)') }}
{% endmacro %}
