{#- Checks of every argument before any data is read (spec §7). Each failure is one message that starts with
    "inc_join:", names the parameter and says what is accepted, raised by _fail in the caller's spelling
    (sql_text/_spelling.sql): a dbt model's compiler error, or the core's TypeError or ValueError. -#}

{% macro _choice(parameter, value, accepted, spelling='sql') %}
  {%- if value is not string or (value | trim | lower) not in accepted -%}
    {{ dbt_inc_join._fail(dbt_inc_join._message('choice', {'parameter': parameter, 'accepted': dbt_inc_join._quoted_list(accepted, spelling), 'value': dbt_inc_join._q(value, spelling)}), 'choice', spelling) }}
  {%- endif -%}
  {{ return(value | trim | lower) }}
{% endmacro %}

{% macro _window_length(parameter, value, spelling='sql') %}
  {%- if value is not integer -%}
    {{ dbt_inc_join._fail(dbt_inc_join._message('window_length', {'parameter': parameter, 'value': dbt_inc_join._typed(value, spelling)}), 'window_length', spelling) }}
  {%- endif -%}
  {%- if value < 0 -%}
    {{ dbt_inc_join._fail(dbt_inc_join._message('window_length_negative', {'parameter': parameter, 'value': value}), 'window_length_negative', spelling) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _flag(parameter, value, spelling='sql') %}
  {%- if value is not boolean -%}
    {{ dbt_inc_join._fail(dbt_inc_join._message('flag', {'parameter': parameter, 'true': dbt_inc_join._word('true', spelling), 'false': dbt_inc_join._word('false', spelling), 'value': dbt_inc_join._typed(value, spelling)}), 'flag', spelling) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _flag_or_auto(parameter, value, spelling='sql') %}
  {#- true, false, or 'auto' (any case, surrounding blanks ignored). -#}
  {%- if value is boolean -%}{{ return(value) }}{%- endif -%}
  {%- if value is string and value | trim | lower == 'auto' -%}{{ return('auto') }}{%- endif -%}
  {{ dbt_inc_join._fail(dbt_inc_join._message('flag_or_auto', {'parameter': parameter, 'true': dbt_inc_join._word('true', spelling), 'false': dbt_inc_join._word('false', spelling), 'auto': "'auto'", 'value': dbt_inc_join._typed(value, spelling)}), 'flag_or_auto', spelling) }}
{% endmacro %}

{% macro _is_list(value) %}
  {#- A list or tuple (a sequence that is neither text nor a mapping). -#}
  {{- return(value is sequence and value is not string and value is not mapping) -}}
{% endmacro %}

{% macro _name_list(parameter, value, spelling='sql') %}
  {#- A column name or a list of them; a comma-separated string is split. -#}
  {%- if value is string -%}
    {%- set names = [] -%}{%- for part in value.split(',') -%}{%- do names.append(part | trim) -%}{%- endfor -%}
  {%- elif dbt_inc_join._is_list(value) and value | reject('string') | list | length == 0 -%}
    {%- set names = value | map('trim') | list -%}
  {%- else -%}
    {{ dbt_inc_join._fail(parameter ~ ' must be a column name or a list of column names (got ' ~ dbt_inc_join._typed(value, spelling) ~ ').', 'names_type', spelling) }}
  {%- endif -%}
  {%- if names | length == 0 or '' in names -%}
    {{ dbt_inc_join._fail(parameter ~ ' must name at least one column and no empty names (got ' ~ dbt_inc_join._q(value, spelling) ~ ').', 'names_empty', spelling) }}
  {%- endif -%}
  {%- set repeated = dbt_inc_join._repeated_names(names, spelling) -%}
  {%- if repeated -%}
    {{ dbt_inc_join._fail(parameter ~ ' lists ' ~ repeated ~ ' more than once.', 'names_repeated', spelling) }}
  {%- endif -%}
  {{ return(names) }}
{% endmacro %}

{% macro _output_select(value, aggregated=false, spelling='sql') %}
  {%- set default = 'join_cols, inc_col, df_a_cols, df_b_cols, DiffArrivalTime, WaitingTime, JoinType' -%}
  {%- if aggregated -%}
    {%- set default = 'join_cols, inc_col, df_a_cols, aggregates, DiffArrivalTime, WaitingTime, JoinType' -%}
  {%- endif -%}
  {%- set value = default if value is none else value -%}
  {%- if value is string -%}
    {%- set tokens = [] -%}{%- for part in value.split(',') -%}{%- do tokens.append(part | trim) -%}{%- endfor -%}
  {%- elif dbt_inc_join._is_list(value) and value | reject('string') | list | length == 0 -%}
    {%- set tokens = value | map('trim') | list -%}
  {%- else -%}
    {{ dbt_inc_join._fail('output_select must be a comma-separated string or a list of tokens and column names (got ' ~ dbt_inc_join._typed(value, spelling) ~ ').', 'output_select_type', spelling) }}
  {%- endif -%}
  {%- if tokens | reject('equalto', '') | list | length == 0 -%}
    {{ dbt_inc_join._fail("output_select selects no column; list tokens such as '" ~ default ~ "' or column names.", 'output_select_empty', spelling) }}
  {%- endif -%}
  {%- if '' in tokens -%}
    {{ dbt_inc_join._fail('output_select has an empty entry (got ' ~ dbt_inc_join._q(value, spelling) ~ ').', 'output_select_empty', spelling) }}
  {%- endif -%}
  {{ return(tokens) }}
{% endmacro %}

{% macro _suffixes(value, spelling='sql') %}
  {%- if not dbt_inc_join._is_list(value) or value | length != 2 or value[0] is not string or value[1] is not string -%}
    {{ dbt_inc_join._fail('suffixes must be a pair of strings such as ' ~ dbt_inc_join._pair_text('_A', '_B', spelling) ~ ' (got ' ~ dbt_inc_join._typed(value, spelling) ~ ').', 'suffixes_type', spelling) }}
  {%- endif -%}
  {%- if value[0] == value[1] -%}
    {{ dbt_inc_join._fail("suffixes must differ, or the two sides' columns would clash (got " ~ dbt_inc_join._pair_text(value[0], value[1], spelling) ~ ').', 'suffixes_equal', spelling) }}
  {%- endif -%}
  {{ return([value[0], value[1]]) }}
{% endmacro %}

{% macro _aggregates(value, spelling='sql') %}
  {#- aggregate: output column -> Spark SQL aggregate over b's columns (Spark checks each one later). -#}
  {%- if value is none -%}{{ return([]) }}{%- endif -%}
  {%- if value is not mapping or value | length == 0 -%}
    {{ dbt_inc_join._fail("aggregate must be a non-empty mapping of output column to Spark SQL aggregate, e.g. {'n': 'count(*)'} (got " ~ dbt_inc_join._typed(value, spelling) ~ ').', 'aggregate_type', spelling) }}
  {%- endif -%}
  {%- set pairs = [] -%}
  {%- for name, expression in value.items() -%}
    {%- if name is not string or name | trim == '' -%}
      {{ dbt_inc_join._fail('aggregate has an empty or non-string output column name (' ~ dbt_inc_join._q(name, spelling) ~ ').', 'aggregate_name', spelling) }}
    {%- endif -%}
    {%- if expression is not string or expression | trim == '' -%}
      {{ dbt_inc_join._fail('aggregate[' ~ dbt_inc_join._q(name, spelling) ~ "] must be a Spark SQL aggregate expression such as 'sum(Amount)' (got " ~ dbt_inc_join._typed(expression, spelling) ~ ').', 'aggregate_type', spelling) }}
    {%- endif -%}
    {%- if not dbt_inc_join._balanced(expression) -%}
      {{ dbt_inc_join._fail('aggregate[' ~ dbt_inc_join._q(name, spelling) ~ '] = ' ~ dbt_inc_join._q(expression, spelling) ~ ' has unbalanced parentheses or quotes.', 'aggregate_unbalanced', spelling) }}
    {%- endif -%}
    {%- do pairs.append([name | trim, expression | trim]) -%}
  {%- endfor -%}
  {%- set repeated = dbt_inc_join._repeated_names(pairs | map(attribute=0) | list, spelling, once=true) -%}
  {%- if repeated -%}
    {{ dbt_inc_join._fail('aggregate names ' ~ repeated ~ ' more than once.', 'aggregate_name', spelling) }}
  {%- endif -%}
  {{ return(pairs) }}
{% endmacro %}

{% macro _null_fill(value, aggregates, spelling='sql') %}
  {#- null_fill: aggregate name -> the literal an A row without partner gets instead of the aggregate. -#}
  {%- if value is none -%}{{ return([]) }}{%- endif -%}
  {%- if value is not mapping -%}
    {{ dbt_inc_join._fail("null_fill must be a mapping of aggregate name to literal, e.g. {'n_payments': 0} (got " ~ dbt_inc_join._typed(value, spelling) ~ ').', 'null_fill_type', spelling) }}
  {%- endif -%}
  {%- if value | length > 0 and aggregates | length == 0 -%}
    {{ dbt_inc_join._fail('null_fill gives values to aggregate columns; it needs aggregate.', 'null_fill_key', spelling) }}
  {%- endif -%}
  {%- set names = {} -%}
  {%- for pair in aggregates -%}{%- do names.update({pair[0] | lower: pair[0]}) -%}{%- endfor -%}
  {%- set fills = [] -%}
  {%- for key, literal in value.items() -%}
    {%- if key is not string or (key | trim | lower) not in names -%}
      {{ dbt_inc_join._fail('null_fill key ' ~ dbt_inc_join._q(key, spelling) ~ ' is not an aggregate name; the aggregates are ' ~ dbt_inc_join._quoted_list(aggregates | map(attribute=0), spelling) ~ '.', 'null_fill_key', spelling) }}
    {%- endif -%}
    {%- if not (literal is none or literal is boolean or literal is number or literal is string or literal.year is defined) -%}
      {{ dbt_inc_join._fail('null_fill[' ~ dbt_inc_join._q(key, spelling) ~ '] must be a literal: a number, string, boolean, date, datetime or ' ~ dbt_inc_join._word('none', spelling) ~ ' (got ' ~ dbt_inc_join._typed(literal, spelling) ~ ').', 'null_fill_type', spelling) }}
    {%- endif -%}
    {%- do fills.append([names[key | trim | lower], literal]) -%}
  {%- endfor -%}
  {{ return(fills) }}
{% endmacro %}

{% macro _key_pairs(value, spelling='sql') %}
  {#- join_cols: a column name, a list of them (the same on both sides), or a mapping {A column: B column};
      returns [A's names, B's names]. -#}
  {%- if value is not mapping -%}
    {%- set names = dbt_inc_join._name_list('join_cols', value, spelling) -%}
    {{ return([names, names]) }}
  {%- endif -%}
  {%- set strings = namespace(ok=value | length > 0) -%}
  {%- for key, column in value.items() -%}
    {%- if key is not string or column is not string -%}{%- set strings.ok = false -%}{%- endif -%}
  {%- endfor -%}
  {%- if not strings.ok -%}
    {{ dbt_inc_join._fail('join_cols must be a column name, a list of them, or a mapping {A column: B column} of names (got ' ~ dbt_inc_join._typed(value, spelling) ~ ').', 'names_type', spelling) }}
  {%- endif -%}
  {{ return([dbt_inc_join._name_list('join_cols', value.keys() | list, spelling),
             dbt_inc_join._name_list('join_cols (B side of the mapping)', value.values() | list, spelling)]) }}
{% endmacro %}

{% macro _arrival_pair(value, spelling='sql') %}
  {#- inc_col: one column name (the same on both sides) or an [A column, B column] pair. -#}
  {%- if value is string and value | trim != '' -%}
    {{ return([value | trim, value | trim]) }}
  {%- endif -%}
  {%- if dbt_inc_join._is_list(value) and value | length == 2
         and value[0] is string and value[1] is string and value[0] | trim != '' and value[1] | trim != '' -%}
    {{ return([value[0] | trim, value[1] | trim]) }}
  {%- endif -%}
  {{ dbt_inc_join._fail("inc_col must be the name of the arrival column present in both inputs, e.g. 'RecDate', or an (A column, B column) pair (got " ~ dbt_inc_join._typed(value, spelling) ~ ').', 'inc_col_type', spelling) }}
{% endmacro %}

{% macro _join_cond_text(value, spelling='sql') %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- if value is not string or value | trim == '' -%}
    {{ dbt_inc_join._fail('join_cond must be a Spark SQL condition over a.<A column> and b.<B column>, or None (got ' ~ dbt_inc_join._typed(value, spelling) ~ ').', 'join_cond_type', spelling) }}
  {%- endif -%}
  {{ return(value | trim) }}
{% endmacro %}
