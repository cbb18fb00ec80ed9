{#- Spark SQL literals of the ledger's moments, as the ledger stores them (text: sql_text's _text_literal). -#}

{% macro _moment_literal(value) %}
  {%- if value is none -%}{{ return('CAST(NULL AS TIMESTAMP)') }}{%- endif -%}
  {{ return(dbt_inc_join._sql_literal(value, 'timestamp')) }}
{% endmacro %}

{% macro _moment_literal_text(text) %}
  {%- if text is none -%}{{ return('CAST(NULL AS TIMESTAMP)') }}{%- endif -%}
  {{ return("TIMESTAMP'" ~ text ~ "'") }}
{% endmacro %}
