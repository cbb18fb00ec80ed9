{#- Checks of every argument before any data is read (spec §7). Each failure is one compiler error whose
    message starts with "inc_join:", names the parameter and says what is accepted: the same words as the
    Python core. -#}

{% macro _fail(message) %}
  {{ exceptions.raise_compiler_error('inc_join: ' ~ message) }}
{% endmacro %}

{% macro _repr(value) %}
  {{- return("'" ~ value ~ "'" if value is string else value | string) -}}
{% endmacro %}

{% macro _message(rule, fields) %}
  {#- The message of a rule of the arguments table (macros/tables/generated/_messages.sql), its {fields} filled in. -#}
  {%- set text = namespace(value=dbt_inc_join._messages()[rule]) -%}
  {%- for name, value in fields.items() -%}
    {%- set text.value = text.value | replace('{' ~ name ~ '}', value | string) -%}
  {%- endfor -%}
  {{ return(text.value) }}
{% endmacro %}

{% macro _choice(parameter, value, accepted) %}
  {%- if value is not string or (value | trim | lower) not in accepted -%}
    {%- set options = [] -%}{%- for option in accepted -%}{%- do options.append("'" ~ option ~ "'") -%}{%- endfor -%}
    {{ dbt_inc_join._fail(dbt_inc_join._message('choice', {'parameter': parameter, 'accepted': options | join(', '), 'value': dbt_inc_join._repr(value)})) }}
  {%- endif -%}
  {{ return(value | trim | lower) }}
{% endmacro %}

{% macro _window_length(parameter, value) %}
  {%- if value is not integer -%}
    {{ dbt_inc_join._fail(dbt_inc_join._message('window_length', {'parameter': parameter, 'value': dbt_inc_join._repr(value)})) }}
  {%- endif -%}
  {%- if value < 0 -%}
    {{ dbt_inc_join._fail(dbt_inc_join._message('window_length_negative', {'parameter': parameter, 'value': value})) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _flag(parameter, value) %}
  {%- if value is not boolean -%}
    {{ dbt_inc_join._fail(dbt_inc_join._message('flag', {'parameter': parameter, 'true': 'true', 'false': 'false', 'value': dbt_inc_join._repr(value)})) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _flag_or_auto(parameter, value) %}
  {#- true, false, or 'auto' (any case, surrounding blanks ignored). -#}
  {%- if value is boolean -%}{{ return(value) }}{%- endif -%}
  {%- if value is string and value | trim | lower == 'auto' -%}{{ return('auto') }}{%- endif -%}
  {{ dbt_inc_join._fail(dbt_inc_join._message('flag_or_auto', {'parameter': parameter, 'true': 'true', 'false': 'false', 'auto': "'auto'", 'value': dbt_inc_join._repr(value)})) }}
{% endmacro %}

{% macro _name_list(parameter, value) %}
  {%- if value is string -%}
    {%- set names = [] -%}{%- for part in value.split(',') -%}{%- do names.append(part | trim) -%}{%- endfor -%}
  {%- elif value is iterable and value is not mapping -%}
    {%- set names = [] -%}
    {%- for part in value -%}
      {%- if part is not string -%}
        {{ dbt_inc_join._fail(parameter ~ ' must be a column name or a list of column names (got ' ~ value ~ ').') }}
      {%- endif -%}
      {%- do names.append(part | trim) -%}
    {%- endfor -%}
  {%- else -%}
    {{ dbt_inc_join._fail(parameter ~ ' must be a column name or a list of column names (got ' ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {%- if names | length == 0 or '' in names -%}
    {{ dbt_inc_join._fail(parameter ~ ' must name at least one column and no empty names (got ' ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {%- set lowered = names | map('lower') | list -%}
  {%- set repeated = [] -%}
  {%- for name in names | sort -%}
    {%- if lowered.count(name | lower) > 1 -%}{%- do repeated.append("'" ~ name ~ "'") -%}{%- endif -%}
  {%- endfor -%}
  {%- if repeated -%}
    {{ dbt_inc_join._fail(parameter ~ ' lists ' ~ repeated | join(', ') ~ ' more than once.') }}
  {%- endif -%}
  {{ return(names) }}
{% endmacro %}

{% macro _output_select(value, aggregated=false) %}
  {%- set default = 'join_cols, inc_col, df_a_cols, df_b_cols, DiffArrivalTime, WaitingTime, JoinType' -%}
  {%- if aggregated -%}
    {%- set default = 'join_cols, inc_col, df_a_cols, aggregates, DiffArrivalTime, WaitingTime, JoinType' -%}
  {%- endif -%}
  {%- set value = default if value is none else value -%}
  {%- if value is string -%}
    {%- set tokens = [] -%}{%- for part in value.split(',') -%}{%- do tokens.append(part | trim) -%}{%- endfor -%}
  {%- elif value is iterable and value is not mapping -%}
    {%- set tokens = [] -%}{%- for part in value -%}{%- do tokens.append(part | string | trim) -%}{%- endfor -%}
  {%- else -%}
    {{ dbt_inc_join._fail('output_select must be a comma-separated string or a list of tokens and column names (got ' ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {%- if tokens | reject('equalto', '') | list | length == 0 -%}
    {{ dbt_inc_join._fail("output_select selects no column; list tokens such as '" ~ default ~ "' or column names.") }}
  {%- endif -%}
  {%- if '' in tokens -%}
    {{ dbt_inc_join._fail('output_select has an empty entry (got ' ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {{ return(tokens) }}
{% endmacro %}

{% macro _suffixes(value) %}
  {%- if value is string or value is not iterable or value | length != 2 or value[0] is not string or value[1] is not string -%}
    {{ dbt_inc_join._fail("suffixes must be a pair of strings such as ['_A', '_B'] (got " ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {%- if value[0] == value[1] -%}
    {{ dbt_inc_join._fail("suffixes must differ, or the two sides' columns would clash (got " ~ value ~ ').') }}
  {%- endif -%}
  {{ return([value[0], value[1]]) }}
{% endmacro %}

{% macro _aggregates(value) %}
  {#- aggregate: output column -> Spark SQL aggregate over b's columns (Spark checks each one later). -#}
  {%- if value is none -%}{{ return([]) }}{%- endif -%}
  {%- if value is not mapping or value | length == 0 -%}
    {{ dbt_inc_join._fail("aggregate must be a non-empty mapping of output column to Spark SQL aggregate, e.g. {'n': 'count(*)'} (got " ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {%- set pairs = [] -%}
  {%- for name, expression in value.items() -%}
    {%- if name is not string or name | trim == '' -%}
      {{ dbt_inc_join._fail('aggregate has an empty or non-string output column name (' ~ dbt_inc_join._repr(name) ~ ').') }}
    {%- endif -%}
    {%- if expression is not string or expression | trim == '' -%}
      {{ dbt_inc_join._fail("aggregate['" ~ name ~ "'] must be a Spark SQL aggregate expression such as 'sum(Amount)' (got " ~ dbt_inc_join._repr(expression) ~ ').') }}
    {%- endif -%}
    {%- if not dbt_inc_join._balanced(expression) -%}
      {{ dbt_inc_join._fail("aggregate['" ~ name ~ "'] = '" ~ expression ~ "' has unbalanced parentheses or quotes.") }}
    {%- endif -%}
    {%- do pairs.append([name | trim, expression | trim]) -%}
  {%- endfor -%}
  {%- set lowered = pairs | map(attribute=0) | map('lower') | list -%}
  {%- set repeated = [] -%}
  {%- for name in pairs | map(attribute=0) | sort -%}
    {%- if lowered.count(name | lower) > 1 and ("'" ~ name ~ "'") not in repeated -%}{%- do repeated.append("'" ~ name ~ "'") -%}{%- endif -%}
  {%- endfor -%}
  {%- if repeated -%}
    {{ dbt_inc_join._fail('aggregate names ' ~ repeated | join(', ') ~ ' more than once.') }}
  {%- endif -%}
  {{ return(pairs) }}
{% endmacro %}

{% macro _balanced(expression) %}
  {#- Parentheses balance outside quotes, and every quote closes (a cheap syntax check Spark would fail on with a
      message that does not name the aggregate). -#}
  {%- set state = {'depth': 0, 'quote': '', 'broken': false} -%}
  {%- for char in expression -%}
    {%- if state.quote -%}
      {%- if char == state.quote -%}{%- do state.update({'quote': ''}) -%}{%- endif -%}
    {%- elif char in ["'", '"', '`'] -%}
      {%- do state.update({'quote': char}) -%}
    {%- elif char == '(' -%}
      {%- do state.update({'depth': state.depth + 1}) -%}
    {%- elif char == ')' -%}
      {%- do state.update({'depth': state.depth - 1}) -%}
      {%- if state.depth < 0 -%}{%- do state.update({'broken': true}) -%}{%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(not state.broken and state.depth == 0 and not state.quote) }}
{% endmacro %}

{% macro _null_fill(value, aggregates) %}
  {#- null_fill: aggregate name -> the literal an A row without partner gets instead of the aggregate. -#}
  {%- if value is none -%}{{ return([]) }}{%- endif -%}
  {%- if value is not mapping -%}
    {{ dbt_inc_join._fail("null_fill must be a mapping of aggregate name to literal, e.g. {'n_payments': 0} (got " ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {%- if value | length > 0 and aggregates | length == 0 -%}
    {{ dbt_inc_join._fail('null_fill gives values to aggregate columns; it needs aggregate.') }}
  {%- endif -%}
  {%- set names = {} -%}
  {%- for pair in aggregates -%}{%- do names.update({pair[0] | lower: pair[0]}) -%}{%- endfor -%}
  {%- set fills = [] -%}
  {%- for key, literal in value.items() -%}
    {%- if key is not string or (key | trim | lower) not in names -%}
      {%- set listed = [] -%}{%- for pair in aggregates -%}{%- do listed.append("'" ~ pair[0] ~ "'") -%}{%- endfor -%}
      {{ dbt_inc_join._fail('null_fill key ' ~ dbt_inc_join._repr(key) ~ ' is not an aggregate name; the aggregates are ' ~ listed | join(', ') ~ '.') }}
    {%- endif -%}
    {%- if not (literal is none or literal is boolean or literal is number or literal is string or literal.year is defined) -%}
      {{ dbt_inc_join._fail("null_fill['" ~ key ~ "'] must be a literal: a number, string, boolean, date, datetime or none (got " ~ dbt_inc_join._repr(literal) ~ ').') }}
    {%- endif -%}
    {%- do fills.append([names[key | trim | lower], literal]) -%}
  {%- endfor -%}
  {{ return(fills) }}
{% endmacro %}

{% macro _key_pairs(value) %}
  {#- join_cols: a column name, a list of them (the same on both sides), or a mapping {A column: B column};
      returns [A's names, B's names]. -#}
  {%- if value is not mapping -%}
    {%- set names = dbt_inc_join._name_list('join_cols', value) -%}
    {{ return([names, names]) }}
  {%- endif -%}
  {%- set strings = namespace(ok=value | length > 0) -%}
  {%- for key, column in value.items() -%}
    {%- if key is not string or column is not string -%}{%- set strings.ok = false -%}{%- endif -%}
  {%- endfor -%}
  {%- if not strings.ok -%}
    {{ dbt_inc_join._fail('join_cols must be a column name, a list of them, or a mapping {A column: B column} of names (got ' ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {{ return([dbt_inc_join._name_list('join_cols', value.keys() | list),
             dbt_inc_join._name_list('join_cols (B side of the mapping)', value.values() | list)]) }}
{% endmacro %}

{% macro _arrival_pair(value) %}
  {#- inc_col: one column name (the same on both sides) or an [A column, B column] pair. -#}
  {%- if value is string and value | trim != '' -%}
    {{ return([value | trim, value | trim]) }}
  {%- endif -%}
  {%- if value is not string and value is iterable and value is not mapping and value | length == 2
         and value[0] is string and value[1] is string and value[0] | trim != '' and value[1] | trim != '' -%}
    {{ return([value[0] | trim, value[1] | trim]) }}
  {%- endif -%}
  {{ dbt_inc_join._fail("inc_col must be the name of the arrival column present in both inputs, e.g. 'RecDate', or an (A column, B column) pair (got " ~ dbt_inc_join._repr(value) ~ ').') }}
{% endmacro %}

{% macro _join_cond_text(value) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- if value is not string or value | trim == '' -%}
    {{ dbt_inc_join._fail('join_cond must be a Spark SQL condition over a.<A column> and b.<B column>, or None (got ' ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {{ return(value | trim) }}
{% endmacro %}
