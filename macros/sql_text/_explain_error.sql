{% macro _explain_error(plan) %}
  {#- Spark's refusal in the rows of an EXPLAIN of a query it cannot analyse (no data is read), or none when it
      planned the query. Spark 4 answers `Error occurred during query planning:` then the message; Spark 3.5 the
      header `== Physical Plan ==` then the exception's class and message. -#}
  {%- set text = plan.columns[0].values() | join('\n') -%}
  {%- set marker = 'Error occurred during query planning:' -%}
  {%- if marker in text -%}
    {{ return(text.split(marker, 1)[1] | trim) }}
  {%- endif -%}
  {%- set thrown = modules.re.match('^\\s*== Physical Plan ==\\s*\\n(?:[A-Za-z_$][\\w$]*\\.)+[\\w$]*Exception: (.*)$',
                                    text, modules.re.S) -%}
  {{ return(thrown.group(1) | trim if thrown else none) }}
{% endmacro %}
