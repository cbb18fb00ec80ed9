{#- The one copy of every check's message, spelled per language (issue 73). Each check of the arguments and
    the inputs raises its message through _fail; the values in it go through the hooks below, which spell them
    as the caller's language does: `spelling='sql'` (the default: a dbt model's, Jinja's literals) or
    `spelling='python'` (the core's: Python's repr, `True`, tuples, `df_a`/`df_b`, a wrong value's type).
    An input of inc_join_many in a dbt model checks in Jinja's spelling for that input (_input_spelling): B is
    the input, and the message leads with `inc_join_many: input '<name>': `, as the core's wrapper spells it.
    The core (plan/validation.py) renders the checks with `spelling='python'` and raises the TypeError or
    ValueError that shared_tables.CHECK_ERRORS names for the check. -#}

{% macro _fail(message, check=none, spelling='sql') %}
  {#- One check's failure: its message after "inc_join: " (an inc_join_many input's spelling: after
      "inc_join_many: input '<name>': "). In Python's spelling the check's name leads the text, in brackets, for
      the core to pick its exception type (shared_tables.CHECK_ERRORS). -#}
  {%- if spelling is mapping -%}
    {{ exceptions.raise_compiler_error('inc_join_many: ' ~ spelling.input ~ ': ' ~ message) }}
  {%- endif -%}
  {%- set lead = '[' ~ check ~ '] ' if spelling == 'python' else '' -%}
  {{ exceptions.raise_compiler_error(lead ~ 'inc_join: ' ~ message) }}
{% endmacro %}

{% macro _input_spelling(name) %}
  {#- Jinja's spelling for the checks of inc_join_many's input `name` (many.py: _prepare_input spells the core's). -#}
  {{ return({'input': "input '" ~ name ~ "'"}) }}
{% endmacro %}

{% macro _repr(value) %}
  {{- return("'" ~ value ~ "'" if value is string else value | string) -}}
{% endmacro %}

{% macro _q(value, spelling='sql') %}
  {#- A value as a message quotes it: Python's repr, or Jinja's ('text', else the value as text). -#}
  {{- return('%r' % (value,) if spelling == 'python' else dbt_inc_join._repr(value)) -}}
{% endmacro %}

{% macro _typed(value, spelling='sql') %}
  {#- A value of the wrong type as a message shows it: in Python its type and repr (`float 1.5`). -#}
  {%- if spelling == 'python' -%}
    {{- return(value.__class__.__name__ ~ ' ' ~ '%r' % (value,)) -}}
  {%- endif -%}
  {{- return(dbt_inc_join._repr(value)) -}}
{% endmacro %}

{% macro _word(word, spelling='sql') %}
  {#- A word a language spells its own way: the literals true, false and none, and the two inputs a and b (the
      core's df_a and df_b; any other side, e.g. "input 'pay'", as it is). -#}
  {%- set python = {'true': 'True', 'false': 'False', 'none': 'None', 'a': 'df_a', 'b': 'df_b'} -%}
  {%- if spelling == 'python' -%}{{- return(python.get(word, word)) -}}{%- endif -%}
  {%- if spelling is mapping and word == 'b' -%}{{- return(spelling.input) -}}{%- endif -%}
  {{- return(word) -}}
{% endmacro %}

{% macro _pair_text(first, second, spelling='sql') %}
  {#- Two values as a pair: a Python tuple, or a Jinja list. -#}
  {%- if spelling == 'python' -%}{{- return('%r' % ((first, second),)) -}}{%- endif -%}
  {{- return("['" ~ first ~ "', '" ~ second ~ "']") -}}
{% endmacro %}

{% macro _quoted_list(names, spelling='sql') %}
  {#- Names as a message lists them: each quoted, joined by commas. -#}
  {%- set quoted = [] -%}
  {%- for name in names -%}
    {%- do quoted.append('%r' % (name,) if spelling == 'python' else "'" ~ name ~ "'") -%}
  {%- endfor -%}
  {{- return(quoted | join(', ')) -}}
{% endmacro %}

{% macro _in_words(items) %}
  {#- Items as a sentence lists them: 'a', 'a and b', 'a, b and c'. -#}
  {%- set items = items | list -%}
  {{- return(items | join if items | length < 2 else items[:-1] | join(', ') ~ ' and ' ~ items[-1]) -}}
{% endmacro %}

{% macro _repeated_names(names, spelling='sql', once=false) %}
  {#- The names listed more than once, whatever the case, as a message lists them: sorted (Python: each once,
      by code point; Jinja: case-insensitively, each once when `once`). -#}
  {%- set lowered = names | map('lower') | list -%}
  {%- set ordered = names | unique(case_sensitive=true) | sort(case_sensitive=true) if spelling == 'python' else names | sort -%}
  {%- set repeated = [] -%}
  {%- for name in ordered -%}
    {%- if lowered.count(name | lower) > 1 and not (once and name in repeated) -%}{%- do repeated.append(name) -%}{%- endif -%}
  {%- endfor -%}
  {{- return(dbt_inc_join._quoted_list(repeated, spelling)) -}}
{% endmacro %}

{% macro _message(rule, fields) %}
  {#- The message of a rule of the arguments table (macros/tables/generated/_messages.sql), its {fields} filled in. -#}
  {%- set text = namespace(value=dbt_inc_join._messages()[rule]) -%}
  {%- for name, value in fields.items() -%}
    {%- set text.value = text.value | replace('{' ~ name ~ '}', value | string) -%}
  {%- endfor -%}
  {{ return(text.value) }}
{% endmacro %}

{% macro _fail_many(message, check=none, spelling='sql') %}
  {#- One check of inc_join_many failed: as _fail, after "inc_join_many: ". -#}
  {%- set lead = '[' ~ check ~ '] ' if spelling == 'python' and check else '' -%}
  {{ exceptions.raise_compiler_error(lead ~ 'inc_join_many: ' ~ message) }}
{% endmacro %}
