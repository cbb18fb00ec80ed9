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
  {#- The message of a rule of the arguments table (macros/generated/_messages.sql), its {fields} filled in. -#}
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

{% macro _call_arguments(entry, signature, positional, keywords) %}
  {#- The arguments of one call of the public macro `entry` by name: the table's defaults
      (macros/generated/_arguments.sql), then those given by position after the macro's own `signature`, in the
      table's order, then those given by name. A wrong name is one error that names it and the accepted names,
      raised when running (like every check: dbt renders each model while parsing the project). -#}
  {%- set rows = [] -%}
  {%- for row in dbt_inc_join._arguments() -%}
    {%- if entry in row.macros and row.name not in signature -%}{%- do rows.append(row) -%}{%- endif -%}
  {%- endfor -%}
  {%- set accepted = signature + rows | map(attribute='name') | list -%}
  {%- if execute and positional | length > rows | length -%}
    {{ exceptions.raise_compiler_error(entry ~ ': takes ' ~ accepted | length ~ ' arguments (got ' ~ (signature | length + positional | length) ~ ' by position); accepted arguments: ' ~ accepted | join(', ') ~ '.') }}
  {%- endif -%}
  {%- set arguments = {} -%}
  {%- for row in rows -%}
    {%- do arguments.update({row.name: positional[loop.index0] if loop.index0 < positional | length else row.default}) -%}
  {%- endfor -%}
  {%- for name, value in keywords.items() -%}
    {%- if execute and name not in arguments -%}
      {{ exceptions.raise_compiler_error(entry ~ ": unknown argument '" ~ name ~ "'; accepted arguments: " ~ accepted | join(', ') ~ '.') }}
    {%- endif -%}
    {%- if execute and name in (rows[:positional | length] | map(attribute='name') | list) -%}
      {{ exceptions.raise_compiler_error(entry ~ ": argument '" ~ name ~ "' given twice, by position and by name.") }}
    {%- endif -%}
    {%- do arguments.update({name: value}) -%}
  {%- endfor -%}
  {{ return(arguments) }}
{% endmacro %}

{% macro _argument(name) %}
  {#- One row of the arguments table, by name. -#}
  {{ return(dbt_inc_join._arguments() | selectattr('name', 'equalto', name) | first) }}
{% endmacro %}

{% macro _check_argument(name, value) %}
  {#- An argument checked by its table row's rule (choice, flag, window_length, flag_or_auto), normalised. -#}
  {%- set row = dbt_inc_join._argument(name) -%}
  {%- if row.check == 'choice' -%}
    {{ return(dbt_inc_join._choice(name, value, row.accepted)) }}
  {%- elif row.check == 'flag' -%}
    {{ return(dbt_inc_join._flag(name, value)) }}
  {%- elif row.check == 'window_length' -%}
    {{ return(dbt_inc_join._window_length(name, value)) }}
  {%- elif row.check == 'flag_or_auto' -%}
    {{ return(dbt_inc_join._flag_or_auto(name, value)) }}
  {%- endif -%}
  {{ exceptions.raise_compiler_error('inc_join: no table rule checks ' ~ name ~ ' (it has a check of its own).') }}
{% endmacro %}

{% macro _check_parameters(given) %}
  {#- The arguments of one join by name (given), those not given at the table's defaults, checked and
      normalised (the window's own arguments are checked where the window is resolved). -#}
  {%- set arguments = {} -%}
  {%- for row in dbt_inc_join._arguments() if row.joined -%}
    {%- do arguments.update({row.name: given.get(row.name, row.default)}) -%}
  {%- endfor -%}
  {%- set join_cols, inc_col, join_cond = arguments.join_cols, arguments.inc_col, arguments.join_cond -%}
  {%- set inc_cols = dbt_inc_join._arrival_pair(inc_col) -%}
  {%- set key_lists = dbt_inc_join._key_pairs(join_cols) -%}
  {%- set keys, keys_b = key_lists[0], key_lists[1] -%}
  {%- for arrival, names in [(inc_cols[0], keys), (inc_cols[1], keys_b)] -%}
    {%- if (arrival | lower) in (names | map('lower') | list) -%}
      {{ dbt_inc_join._fail("join_cols must not contain the arrival column inc_col='" ~ arrival ~ "'.") }}
    {%- endif -%}
  {%- endfor -%}
  {%- set condition = dbt_inc_join._join_cond_text(join_cond) -%}
  {%- set how = dbt_inc_join._check_argument('how', arguments.how) -%}
  {%- set enforce = dbt_inc_join._check_argument('enforce_sliding_join_window', arguments.enforce_sliding_join_window) -%}
  {%- set partner = dbt_inc_join._check_argument('partner', arguments.partner) -%}
  {%- set order_by = dbt_inc_join._partner_order_by(arguments.partner_order_by, partner) -%}
  {%- set aggregates = dbt_inc_join._aggregates(arguments.aggregate) -%}
  {%- set fills = dbt_inc_join._null_fill(arguments.null_fill, aggregates) -%}
  {%- set many = dbt_inc_join._check_argument('many_rows_per_key', arguments.many_rows_per_key) -%}
  {%- do dbt_inc_join._check_row_mode(how, partner, aggregates | length > 0, many, enforce) -%}
  {%- set late = dbt_inc_join._check_argument('late_match_time', arguments.late_match_time) -%}
  {%- if late -%}
    {%- do dbt_inc_join._check_late_matches(how, partner, aggregates | length > 0, enforce) -%}
  {%- endif -%}
  {%- set mode = 'aggregate' if aggregates else partner -%}
  {{ return({
      'join_cols': keys,
      'join_cols_b': keys_b,
      'inc_col': inc_cols[0],
      'inc_cols': inc_cols,
      'join_cond': condition,
      'how': how,
      'look_back_time': dbt_inc_join._check_argument('look_back_time', arguments.look_back_time),
      'max_waiting_time': dbt_inc_join._check_argument('max_waiting_time', arguments.max_waiting_time),
      'time_uom': dbt_inc_join._check_argument('time_uom', arguments.time_uom),
      'enforce_sliding_join_window': enforce,
      'include_waiting': dbt_inc_join._check_argument('include_waiting', arguments.include_waiting),
      'output_select': dbt_inc_join._output_select(arguments.output_select, aggregates | length > 0),
      'suffixes': dbt_inc_join._suffixes(arguments.suffixes),
      'partner': partner,
      'partner_order_by': order_by,
      'aggregate': aggregates,
      'null_fill': fills,
      'many_rows_per_key': many,
      'late_match_time': late,
      'mode': mode,
  }) }}
{% endmacro %}

{% macro _partner_order_by(value, partner) %}
  {#- spec §11: the columns that order the partners, for partner = first or last only. -#}
  {%- set order_by = [] if value is none else dbt_inc_join._name_list('partner_order_by', value) -%}
  {%- if order_by and partner == 'all' -%}
    {{ dbt_inc_join._fail("partner_order_by orders the partners for partner='first' or 'last'; with partner='all' every partner is a row of its own (set partner, or drop partner_order_by).") }}
  {%- endif -%}
  {{ return(order_by) }}
{% endmacro %}

{% macro _check_row_mode(how, partner, aggregates, many, enforce) %}
  {#- spec §11: aggregate takes every partner of an A row; one row per A row needs the sliding window. -#}
  {%- if aggregates and partner != 'all' -%}
    {{ dbt_inc_join._fail("aggregate combines all partners of an A row, so partner must be 'all' (got partner='" ~ partner ~ "'); use one or the other.") }}
  {%- endif -%}
  {%- if aggregates and how not in ['left', 'inner'] -%}
    {{ dbt_inc_join._fail("aggregate gives one row per A row, so how must be 'left' or 'inner' (got how='" ~ how ~ "').") }}
  {%- endif -%}
  {%- if not enforce and (partner != 'all' or aggregates or many is sameas true) -%}
    {%- set used = 'aggregate' if aggregates else ('many_rows_per_key' if partner == 'all' else 'partner') -%}
    {{ dbt_inc_join._fail(used ~ " needs the sliding join window; enforce_sliding_join_window=False (the compatibility mode) only supports partner='all' without aggregate.") }}
  {%- endif -%}
{% endmacro %}

{% macro _check_late_matches(how, partner, aggregates, enforce) %}
  {#- spec §10: late matches pair a timed-out A row with later B rows, one row per pair. -#}
  {%- if how == 'left_anti' -%}
    {{ dbt_inc_join._fail("late_match_time pairs timed-out A rows with partners that came later, but how='left_anti' outputs no pairs; use how='left' (or late_match_time=0).") }}
  {%- endif -%}
  {%- if partner != 'all' or aggregates -%}
    {%- set used = 'aggregate' if aggregates else "partner='" ~ partner ~ "'" -%}
    {{ dbt_inc_join._fail("late_match_time needs partner='all' without aggregate (got " ~ used ~ "): a late partner is a row of its own, and one row per A row would have to change after it was final.") }}
  {%- endif -%}
  {%- if not enforce -%}
    {{ dbt_inc_join._fail("late_match_time needs the sliding join window; enforce_sliding_join_window=False (the compatibility mode) has no window to be late for.") }}
  {%- endif -%}
{% endmacro %}

{% macro _check_model_config(params) %}
  {#- Model-level checks: provisional rows in a kept table, and microbatch batches finer than the unit. -#}
  {%- if params.include_waiting and config.get('materialized') == 'incremental' -%}
    {{ dbt_inc_join._fail("include_waiting=true in an incremental model would store a_waiting rows, which are provisional (a later run emits the same A row again as matched or timed out). Use include_waiting only in a view or table model that shows what is currently waiting; see the README, 'Currently waiting'.") }}
  {%- endif -%}
  {%- set batch_size = config.get('batch_size') -%}
  {%- set order = ['minute', 'hour', 'day', 'month', 'year'] -%}
  {%- if batch_size and (batch_size | lower) in order and order.index(batch_size | lower) < order.index(params.time_uom) -%}
    {{ dbt_inc_join._fail("batch_size='" ~ batch_size ~ "' is finer than time_uom='" ~ params.time_uom ~ "'; a batch must cover whole units: use batch_size '" ~ params.time_uom ~ "' or coarser, or a finer time_uom.") }}
  {%- endif -%}
{% endmacro %}
