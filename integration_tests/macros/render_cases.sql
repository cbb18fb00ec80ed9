{% macro render_cases(cases) %}
  {#- The SQL side of tests/core/test_renders_as_dbt.py: each case {'id', 'macro', 'args'} calls
      dbt_inc_join.<macro>(*args) and the results go out as one JSON document {id: result} in one log line
      (debug level: the test reads it through dbtRunner's callbacks, the console stays quiet). Dates travel as
      {'date': iso} and datetimes as {'datetime': iso}, both ways. -#}
  {%- set results = {} -%}
  {%- for case in cases -%}
    {%- if case.macro not in dbt_inc_join -%}
      {{ exceptions.raise_compiler_error('render_cases: the package has no macro ' ~ case.macro ~ ' (renamed? update CASES in tests/core/test_renders_as_dbt.py)') }}
    {%- endif -%}
    {%- set args = _case_decoded(case.args) -%}
    {%- set result = dbt_inc_join[case.macro](*args) -%}
    {%- do results.update({case.id: _case_encoded(result)}) -%}
  {%- endfor -%}
  {{ log('render_cases ' ~ tojson(results), info=false) }}
{% endmacro %}

{% macro _case_decoded(value) %}
  {#- A JSON argument as the macros take it: tagged dates and datetimes as Python values. -#}
  {%- if value is mapping and value.keys() | list == ['date'] -%}
    {{ return(modules.datetime.date.fromisoformat(value['date'])) }}
  {%- elif value is mapping and value.keys() | list == ['datetime'] -%}
    {{ return(modules.datetime.datetime.fromisoformat(value['datetime'])) }}
  {%- elif value is mapping -%}
    {%- set decoded = {} -%}
    {%- for key, item in value.items() -%}
      {%- do decoded.update({key: _case_decoded(item)}) -%}
    {%- endfor -%}
    {{ return(decoded) }}
  {%- elif value is iterable and value is not string -%}
    {%- set decoded = [] -%}
    {%- for item in value -%}
      {%- do decoded.append(_case_decoded(item)) -%}
    {%- endfor -%}
    {{ return(decoded) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _case_encoded(value) %}
  {#- A macro's result as JSON: dates and datetimes tagged, tuples as lists. -#}
  {%- if value is none or value is string or value is number or value is boolean -%}
    {{ return(value) }}
  {%- elif value.hour is defined and value.isoformat is defined -%}
    {{ return({'datetime': value.isoformat()}) }}
  {%- elif value.isoformat is defined -%}
    {{ return({'date': value.isoformat()}) }}
  {%- elif value is mapping -%}
    {%- set encoded = {} -%}
    {%- for key, item in value.items() -%}
      {%- do encoded.update({key: _case_encoded(item)}) -%}
    {%- endfor -%}
    {{ return(encoded) }}
  {%- endif -%}
  {%- set encoded = [] -%}
  {%- for item in value -%}
    {%- do encoded.append(_case_encoded(item)) -%}
  {%- endfor -%}
  {{ return(encoded) }}
{% endmacro %}
