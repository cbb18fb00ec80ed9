{#- The checks of inc_join_many's inputs (spec §12), written once: a dbt model's (`spelling='sql'`) and the core's
    (`spelling='python'`: its inputs' data key is `df`, a ManyInput is a dict too, values in Python's repr).
    The core raises each failure as the exception shared_tables.CHECK_ERRORS names for its check. -#}

{% macro _many_specs(inputs, spelling='sql') %}
  {#- The inputs, checked: a non-empty list of mappings, names unique, each with its data and a window, and one
      row per A row (partner first or last, or aggregate). -#}
  {%- set python = spelling == 'python' -%}
  {%- set data = 'df' if python else 'relation' -%}
  {%- set accepted = [data] + dbt_inc_join._many_input_keys() -%}
  {%- if inputs is none or inputs is string or inputs is mapping or inputs is not iterable or inputs | length == 0 -%}
    {%- set example = 'dicts with df, name, join_cols, ...' if python
                      else "{'relation': ref(...), 'name': ..., 'join_cols': ..., ...}" -%}
    {{ dbt_inc_join._fail_many('inputs must be a non-empty list of inputs (' ~ example ~ ').', 'many_inputs_type', spelling) }}
  {%- endif -%}
  {%- set seen = [] -%}
  {%- for spec in inputs -%}
    {%- set position = loop.index0 -%}
    {%- if spec is not mapping -%}
      {{ dbt_inc_join._fail_many('inputs[' ~ position ~ '] must be a dict' ~ (' (or ManyInput)' if python else '')
                                 ~ ' with ' ~ data ~ ', name, join_cols, look_back_time and max_waiting_time (got '
                                 ~ (spec.__class__.__name__ if python else dbt_inc_join._repr(spec)) ~ ').',
                                 'many_input_type', spelling) }}
    {%- endif -%}
    {%- set unknown = [] -%}
    {%- for key in spec.keys() -%}{%- if key not in accepted -%}{%- do unknown.append(key) -%}{%- endif -%}{%- endfor -%}
    {%- if unknown -%}
      {{ dbt_inc_join._fail_many('inputs[' ~ position ~ '] has unknown keys '
                                 ~ dbt_inc_join._quoted_list(unknown | sort, spelling) ~ '; accepted keys: '
                                 ~ accepted | join(', ') ~ '.', 'many_input', spelling) }}
    {%- endif -%}
    {%- set name = spec.get('name') -%}
    {%- if name is not string or modules.re.match('^[A-Za-z0-9_]+$', name) is none -%}
      {{ dbt_inc_join._fail_many('inputs[' ~ position ~ "] needs a name: letters, digits and underscores, e.g. 'sepa' (got "
                                 ~ dbt_inc_join._q(name, spelling)
                                 ~ "); it names the input's columns (JoinType_<name>, <column>_<name>).",
                                 'many_input', spelling) }}
    {%- endif -%}
    {%- if (name | lower) in seen -%}
      {{ dbt_inc_join._fail_many('two inputs are named ' ~ dbt_inc_join._q(name, spelling)
                                 ~ '; each input needs a name of its own.', 'many_input', spelling) }}
    {%- endif -%}
    {%- do seen.append(name | lower) -%}
    {%- for required in [data, 'join_cols'] -%}
      {%- if required not in spec -%}
        {{ dbt_inc_join._fail_many('input ' ~ dbt_inc_join._q(name, spelling) ~ ' has no ' ~ required ~ '.', 'many_input', spelling) }}
      {%- endif -%}
    {%- endfor -%}
    {%- set unset = ['look_back_time', 'max_waiting_time'] | reject('in', spec) | list -%}
    {%- if unset -%}
      {{ dbt_inc_join._fail_many('input ' ~ dbt_inc_join._q(name, spelling) ~ ' has no window (no ' ~ unset | join(' and no ') ~ '): give its look_back_time and max_waiting_time (0 is allowed), the units a partner may arrive before and after its A row.',
                                 'many_input', spelling) }}
    {%- endif -%}
    {%- set partner = spec.get('partner') -%}
    {%- set aggregated = spec.get('aggregate') is not none -%}
    {%- if (partner is not none and aggregated) or (partner is string and partner not in ['first', 'last']) -%}
      {#- the one-row-per-A values only: inc_join's own list (all, first, last) would offer 'all' -#}
      {%- set why = ' is not one row per A row' if partner == 'all' or aggregated else ' is not one of the values an input takes' -%}
      {{ dbt_inc_join._fail_many('input ' ~ dbt_inc_join._q(name, spelling) ~ ': partner=' ~ dbt_inc_join._q(partner, spelling)
                                 ~ (' with aggregate' if aggregated else '') ~ why
                                 ~ "; inc_join_many gives one row per A row: use partner='first' or 'last', or aggregate.",
                                 'many_input', spelling) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(inputs) }}
{% endmacro %}

{% macro _check_many_arrivals(arrivals, spelling='sql') %}
  {#- A has one arrival column: every input names the same one of A's. -#}
  {%- set arrivals = arrivals | unique | list -%}
  {%- if arrivals | length > 1 -%}
    {{ dbt_inc_join._fail_many('the inputs name different arrival columns of a (' ~ arrivals | sort | join(', ')
                               ~ "); A has one arrival: give each input's inc_col as "
                               ~ dbt_inc_join._pair_text('A column', 'B column', spelling) | replace("'", '')
                               ~ ' with the same A column.', 'many_input', spelling) }}
  {%- endif -%}
{% endmacro %}
