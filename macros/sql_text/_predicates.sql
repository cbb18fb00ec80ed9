{#- SQL names and text literals, and predicates written on the raw arrival column in the shape Spark pushes into scans. -#}

{% macro _quote(name) %}
  {{- return('`' ~ name | replace('`', '``') ~ '`') -}}
{% endmacro %}

{% macro _text_literal(value) %}
  {#- A Spark SQL string literal (backslash escapes are on by default), or NULL. -#}
  {%- if value is none -%}{{ return('NULL') }}{%- endif -%}
  {{ return("'" ~ (value | string).replace('\\', '\\\\').replace("'", "\\'") ~ "'") }}
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

{% macro _read_ranges(start, end, how, look_back_time, max_waiting_time, time_uom, late_match_time=0, state=none) %}
  {#- The arrivals (inclusive, in the unit) that a run over [start, end] reads of A and of B: docs/spec.md §4.
      A lower bound of none reads from the beginning. An A row is placed at most max_waiting_time after it
      arrived; a B partner arrives at most look_back_time before its A row. With how = full a B row placed at
      b + look_back_time can still be claimed by an A row up to max_waiting_time before b, so A needs the
      same reach as B. Late matches (spec §10) reach late_match_time further, and with how = full B one more
      look_back_time, for the window of the A row whose late partner a B row may be. Given the open state as of
      start - 1 (state: its kind, spec §18), B only from start - look_back_time, A from start (rows: the open
      rows come from the state) or start - max_waiting_time (keys). (window.py: read_ranges) -#}
  {%- set full = how == 'full' -%}
  {%- set a_reach = max_waiting_time + late_match_time + (look_back_time if full else 0) -%}
  {%- set b_reach = max_waiting_time + look_back_time + late_match_time + (look_back_time if full and late_match_time else 0) -%}
  {%- set a_lower = none if start is none else dbt_inc_join._shift_value(start, -a_reach, time_uom) -%}
  {%- set b_lower = none if start is none else dbt_inc_join._shift_value(start, -b_reach, time_uom) -%}
  {%- if state is not none and start is not none -%}
    {%- set a_lower = start if state == 'rows' else dbt_inc_join._shift_value(start, -max_waiting_time, time_uom) -%}
    {%- set b_lower = dbt_inc_join._shift_value(start, -look_back_time, time_uom) -%}
  {%- endif -%}
  {{ return([(a_lower, end), (b_lower, end)]) }}
{% endmacro %}
