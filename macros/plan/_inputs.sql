{#- The inputs of one call resolved against their columns (spec §7): each side's spelling of the keys, the
    arrival column and partner_order_by, with their type checks. Columns only (dbt's, or the core's DataFrame
    schemas as {'name', 'data_type'}), no data is read. Names fold case unless case_sensitive (the core follows
    Spark's spark.sql.caseSensitive). -#}

{% macro _find_column(columns, name, case_sensitive=false) %}
  {%- for column in columns -%}{%- if column.name == name -%}{{ return(column) }}{%- endif -%}{%- endfor -%}
  {%- if not case_sensitive -%}
    {%- for column in columns -%}{%- if column.name | lower == name | lower -%}{{ return(column) }}{%- endif -%}{%- endfor -%}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro _require_column(columns, name, parameter, side, spelling='sql', case_sensitive=false) %}
  {%- set found = dbt_inc_join._find_column(columns, name, case_sensitive) -%}
  {%- if found is none -%}
    {{ dbt_inc_join._fail(parameter ~ ' column ' ~ dbt_inc_join._q(name, spelling) ~ ' is missing from ' ~ dbt_inc_join._word(side, spelling) ~ '; its columns are ' ~ dbt_inc_join._quoted_list(columns | map(attribute='name'), spelling) ~ '.'
                          ~ dbt_inc_join._missing_column_hint(columns, name, parameter, spelling), 'missing_column', spelling) }}
  {%- endif -%}
  {{ return(found) }}
{% endmacro %}

{% macro _missing_column_hint(columns, name, parameter, spelling) %}
  {#- What a missing column's message adds: the column named alike but for case and underscores, or else the one
      nearest to a typo of it (at most two letters added, left out or changed, in a name of four or more); else,
      for the arrival column left at its default, that inc_col names it (and a date or timestamp column there is). -#}
  {%- set folded = name | lower | replace('_', '') -%}
  {%- for column in columns if column.name | lower | replace('_', '') == folded -%}
    {{ return(' Did you mean ' ~ dbt_inc_join._q(column.name, spelling) ~ '?') }}
  {%- endfor -%}
  {%- set nearest = namespace(name=none, distance=3) -%}
  {%- for column in columns if folded | length >= 4 -%}
    {%- set distance = dbt_inc_join._edit_distance(folded, column.name | lower | replace('_', '')) -%}
    {%- if distance < nearest.distance -%}
      {%- set nearest.name = column.name -%}
      {%- set nearest.distance = distance -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if nearest.name is not none -%}
    {{ return(' Did you mean ' ~ dbt_inc_join._q(nearest.name, spelling) ~ '?') }}
  {%- endif -%}
  {%- if parameter == 'inc_col' and name == 'RecDate' -%}
    {%- set dated = [] -%}
    {%- for column in columns if dbt_inc_join._type_name(column) in ['date', 'timestamp', 'timestamp_ntz'] -%}
      {%- do dated.append(column.name) -%}
    {%- endfor -%}
    {{ return(" inc_col names the arrival column, 'RecDate' unless given"
              ~ (': e.g. inc_col=' ~ dbt_inc_join._q(dated[0], spelling) if dated else '') ~ '.') }}
  {%- endif -%}
  {{ return('') }}
{% endmacro %}

{% macro _edit_distance(left, right) %}
  {#- The letters added, left out or changed that make `left` into `right` (Levenshtein), row by row. -#}
  {%- set row = namespace(previous=range(right | length + 1) | list) -%}
  {%- for i in range(1, left | length + 1) -%}
    {%- set current = [i] -%}
    {%- for j in range(1, right | length + 1) -%}
      {%- do current.append([row.previous[j] + 1, current[j - 1] + 1,
                             row.previous[j - 1] + (0 if left[i - 1] == right[j - 1] else 1)] | min) -%}
    {%- endfor -%}
    {%- set row.previous = current -%}
  {%- endfor -%}
  {{ return(row.previous[-1]) }}
{% endmacro %}

{% macro _type_name(column) %}
  {{- return((column.dtype or column.data_type) | lower | trim) -}}
{% endmacro %}

{% macro _is_numeric_type(type_name) %}
  {%- set base = type_name.split('(')[0] -%}
  {{ return(base in ['tinyint', 'byte', 'smallint', 'short', 'int', 'integer', 'bigint', 'long', 'float', 'real', 'double', 'decimal', 'numeric', 'dec']) }}
{% endmacro %}

{% macro _is_orderable_type(type_name) %}
  {#- Spark can neither order nor compare maps or variants, nor anything that holds one. -#}
  {%- set lowered = type_name | lower -%}
  {{ return('map<' not in lowered and modules.re.search('(^|[<:,])variant($|[>,])', lowered) is none) }}
{% endmacro %}

{% macro _check_arrival_type(type_name, inc_col, side, time_uom, spelling='sql') %}
  {%- if type_name not in ['date', 'timestamp', 'timestamp_ltz', 'timestamp_ntz'] -%}
    {{ dbt_inc_join._fail('inc_col ' ~ dbt_inc_join._q(inc_col, spelling) ~ ' of ' ~ dbt_inc_join._word(side, spelling) ~ ' is ' ~ type_name | upper ~ '; it must be DATE or TIMESTAMP (cast it, e.g. to_date(' ~ inc_col ~ ') or to_timestamp(' ~ inc_col ~ ')).', 'column_type', spelling) }}
  {%- endif -%}
  {%- if time_uom != 'day' and type_name == 'date' -%}
    {{ dbt_inc_join._fail('time_uom=' ~ dbt_inc_join._q(time_uom, spelling) ~ ' needs a TIMESTAMP arrival column, but inc_col ' ~ dbt_inc_join._q(inc_col, spelling) ~ ' of ' ~ dbt_inc_join._word(side, spelling) ~ " is DATE; use time_uom='day' or a TIMESTAMP column.", 'column_type', spelling) }}
  {%- endif -%}
{% endmacro %}

{% macro _resolve_inputs(params, a_columns, b_columns, b_side='b', spelling='sql', case_sensitive=false) %}
  {#- Each side's spelling of the keys and the arrival column, with type checks (schemas only). -#}
  {%- set a_side = dbt_inc_join._word('a', spelling) -%}
  {%- set keys = [] -%}
  {%- for name_a in params.join_cols -%}
    {%- set name_b = params.join_cols_b[loop.index0] -%}
    {%- set key_a = dbt_inc_join._require_column(a_columns, name_a, 'join_cols', 'a', spelling, case_sensitive) -%}
    {%- set key_b = dbt_inc_join._require_column(b_columns, name_b, 'join_cols', b_side, spelling, case_sensitive) -%}
    {%- set key = name_a if name_a == name_b else name_a ~ ' (' ~ dbt_inc_join._word('b', spelling) ~ ': ' ~ name_b ~ ')' -%}
    {%- set type_a, type_b = dbt_inc_join._type_name(key_a), dbt_inc_join._type_name(key_b) -%}
    {%- for type_name in [type_a, type_b] -%}
      {%- if not dbt_inc_join._is_orderable_type(type_name) -%}
        {{ dbt_inc_join._fail('join_cols column ' ~ dbt_inc_join._q(key, spelling) ~ ' is ' ~ type_name | upper ~ ', which Spark cannot compare; join on columns of a comparable type (cast or extract a field).', 'column_type', spelling) }}
      {%- endif -%}
    {%- endfor -%}
    {%- if type_a != type_b and not (dbt_inc_join._is_numeric_type(type_a) and dbt_inc_join._is_numeric_type(type_b)) -%}
      {{ dbt_inc_join._fail('join_cols column ' ~ dbt_inc_join._q(key, spelling) ~ ' is ' ~ type_a | upper ~ ' in ' ~ a_side ~ ' but ' ~ type_b | upper ~ ' in ' ~ dbt_inc_join._word('b', spelling) ~ '; cast one side so both have the same type.', 'column_type', spelling) }}
    {%- endif -%}
    {%- do keys.append([key_a.name, key_b.name]) -%}
  {%- endfor -%}
  {%- set inc_a = dbt_inc_join._require_column(a_columns, params.inc_cols[0], 'inc_col', 'a', spelling, case_sensitive) -%}
  {%- set inc_b = dbt_inc_join._require_column(b_columns, params.inc_cols[1], 'inc_col', b_side, spelling, case_sensitive) -%}
  {%- set type_a, type_b = dbt_inc_join._type_name(inc_a), dbt_inc_join._type_name(inc_b) -%}
  {%- do dbt_inc_join._check_arrival_type(type_a, params.inc_cols[0], 'a', params.time_uom, spelling) -%}
  {%- do dbt_inc_join._check_arrival_type(type_b, params.inc_cols[1], b_side, params.time_uom, spelling) -%}
  {%- set raw_types = [] -%}
  {%- for type_name in [type_a, type_b] -%}
    {%- do raw_types.append('date' if type_name == 'date' else ('timestamp_ntz' if type_name == 'timestamp_ntz' else 'timestamp')) -%}
  {%- endfor -%}
  {%- set order_by = [] -%}
  {%- for name in params.partner_order_by -%}
    {%- set column = dbt_inc_join._require_column(b_columns, name, 'partner_order_by', b_side, spelling, case_sensitive) -%}
    {%- set type_name = dbt_inc_join._type_name(column) -%}
    {%- if not dbt_inc_join._is_orderable_type(type_name) -%}
      {{ dbt_inc_join._fail('partner_order_by column ' ~ dbt_inc_join._q(name, spelling) ~ ' is ' ~ type_name | upper ~ ', which Spark cannot order; order by a column of another type (or a field of it).', 'column_type', spelling) }}
    {%- endif -%}
    {%- do order_by.append(column.name) -%}
  {%- endfor -%}
  {%- set orderable = [] -%}
  {%- for column in b_columns -%}
    {%- if dbt_inc_join._is_orderable_type(dbt_inc_join._type_name(column)) -%}{%- do orderable.append(column.name) -%}{%- endif -%}
  {%- endfor -%}
  {{ return({'keys': keys, 'inc_col': [inc_a.name, inc_b.name], 'raw_types': raw_types,
             'a_names': a_columns | map(attribute='name') | list, 'b_names': b_columns | map(attribute='name') | list,
             'partner_order_by': order_by, 'orderable_b_names': orderable}) }}
{% endmacro %}
