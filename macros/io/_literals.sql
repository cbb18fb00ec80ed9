{#- Spark SQL literals of the ledger's values: text, and moments as the ledger stores them. -#}

{% macro _text_literal(value) %}
  {#- A Spark SQL string literal (backslash escapes are on by default), or NULL. -#}
  {%- if value is none -%}{{ return('NULL') }}{%- endif -%}
  {{ return("'" ~ (value | string).replace('\\', '\\\\').replace("'", "\\'") ~ "'") }}
{% endmacro %}

{% macro _moment_literal(value) %}
  {%- if value is none -%}{{ return('CAST(NULL AS TIMESTAMP)') }}{%- endif -%}
  {{ return(dbt_inc_join._sql_literal(value, 'timestamp')) }}
{% endmacro %}

{% macro _moment_literal_text(text) %}
  {%- if text is none -%}{{ return('CAST(NULL AS TIMESTAMP)') }}{%- endif -%}
  {{ return("TIMESTAMP'" ~ text ~ "'") }}
{% endmacro %}
