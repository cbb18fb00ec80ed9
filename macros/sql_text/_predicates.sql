{#- SQL predicates written on the raw arrival column, in the shape Spark pushes into scans. -#}

{% macro _quote(name) %}
  {{- return('`' ~ name | replace('`', '``') ~ '`') -}}
{% endmacro %}

{% macro _arrival_range_sql(column, raw_type, lower, upper, time_uom) %}
  {#- lower <= trunc(column) <= upper on the raw column against literals of its own type, so that Spark
      prunes partitions of a table partitioned by it. Either bound may be none. -#}
  {%- set raw = dbt_inc_join._quote(column) -%}
  {%- set tests = [raw ~ ' IS NOT NULL'] -%}
  {%- if lower is not none -%}
    {%- do tests.append(raw ~ ' >= ' ~ dbt_inc_join._sql_literal(lower, raw_type)) -%}
  {%- endif -%}
  {%- if upper is not none -%}
    {%- if raw_type == 'date' -%}
      {%- do tests.append(raw ~ ' <= ' ~ dbt_inc_join._sql_literal(upper, 'date')) -%}
    {%- else -%}
      {%- do tests.append(raw ~ ' < ' ~ dbt_inc_join._sql_literal(dbt_inc_join._shift_value(upper, 1, time_uom), raw_type)) -%}
    {%- endif -%}
  {%- endif -%}
  {{ return(tests | join(' AND ')) }}
{% endmacro %}

{% macro _raw_type_name(type_name) %}
  {#- The SQL type of a raw arrival column, from its type name: date, timestamp or timestamp_ntz. -#}
  {{ return('date' if type_name == 'date' else ('timestamp_ntz' if type_name == 'timestamp_ntz' else 'timestamp')) }}
{% endmacro %}
