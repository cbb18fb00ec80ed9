{% macro _file_format() %}
  {#- The format a model's table is written in, as its adapter writes it: the model's file_format, else the
      adapter's default. dbt-databricks writes Delta without one (its macros read file_format with the default
      'delta'); dbt-spark writes no USING clause and checks the model as parquet. The core's renderings may have no
      adapter, and the Python port's has no type: their models are dbt-spark's. -#}
  {%- set named = config.get('file_format') if config is defined else none -%}
  {%- if named -%}
    {{ return(named) }}
  {%- endif -%}
  {{ return('delta' if dbt_inc_join._on_databricks() else 'parquet') }}
{% endmacro %}

{% macro _on_databricks() %}
  {#- Whether dbt-databricks runs the model (its adapter type). -#}
  {{ return(adapter is defined and adapter.type is defined and adapter.type() == 'databricks') }}
{% endmacro %}
