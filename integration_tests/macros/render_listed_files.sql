{% macro render_listed_files(cases) %}
  {#- tests/core/test_changed_files.py: for each case {'id', 'first', 'second', 'last_read'}, the macro
      _listed_files over a first listing (no listing before it), then over a second one against the state the
      first left; one JSON document {id: [first's result, second's result]} in one log line. -#}
  {%- set results = {} -%}
  {%- for case in cases -%}
    {%- set first = dbt_inc_join._listed_files(case.first, 'b', none, case.last_read) -%}
    {%- set second = dbt_inc_join._listed_files(case.second, 'b', first.state, case.last_read) -%}
    {%- do results.update({case.id: [first, second]}) -%}
  {%- endfor -%}
  {{ log('render_listed_files ' ~ tojson(results), info=false) }}
{% endmacro %}
