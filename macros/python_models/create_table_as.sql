{#- Python models on dbt-spark: inc_join's table writer, for inc_join's Python models only.

    Reached through adapter.dispatch('create_table_as', 'dbt') when the consuming project sets
      dispatch: [{macro_namespace: dbt, search_order: [<your project>, dbt_inc_join, dbt]}]
    SQL models, and every Python model that is not inc_join's, go to dbt-spark's own implementation unchanged
    (its writer: file_format, default delta; no partitionBy). An inc_join Python model is one whose code calls
    inc_join_model (see _is_inc_join_python_model); for it dbt-spark's writer would ignore partition_by and
    default to delta, so this one writes file_format (default parquet) with partitionBy, and hands the model
    what Python models cannot read themselves (dbt.batch, dbt.inc_join_context). -#}

{% macro spark__create_table_as(temporary, relation, compiled_code, language='sql') -%}
  {%- if language == 'python' and dbt_inc_join._is_inc_join_python_model(compiled_code) -%}
    {{ dbt_inc_join._py_write_table(temporary, relation, compiled_code) }}
  {%- else -%}
    {{ dbt.spark__create_table_as(temporary, relation, compiled_code, language) }}
  {%- endif -%}
{%- endmacro %}

{% macro _is_inc_join_python_model(compiled_code) %}
  {#- The model's config meta inc_join_writer (true or false) decides when set. Otherwise: the model's own code
      (before the part dbt appends) names inc_join_model on a line that is not a comment, e.g.
      `from dbt_inc_join import inc_join_model` or `dbt_inc_join.inc_join_model(...)`. A model that reaches
      inc_join_model only through a module of its own sets meta inc_join_writer: true. -#}
  {%- set meta = config.get('meta') or {} -%}
  {%- set chosen = meta.get('inc_join_writer') if meta is mapping else none -%}
  {%- if chosen is not none -%}
    {%- if chosen is not boolean -%}
      {{ dbt_inc_join._fail('meta inc_join_writer must be true or false (got ' ~ dbt_inc_join._repr(chosen) ~ ').') }}
    {%- endif -%}
    {{ return(chosen) }}
  {%- endif -%}
  {%- set own_code = compiled_code.split('# this part is dbt logic for get ref work')[0] -%}
  {{ return(modules.re.search('(?m)^[^#\\n]*\\binc_join_model\\b', own_code) is not none) }}
{% endmacro %}

{% macro _py_text(value) -%}
  {#- A Python literal of a config value or var: a string, or None. -#}
  {{- 'None' if value is none or value == '' else value | string | tojson -}}
{%- endmacro %}

{% macro _py_write_table(temporary, relation, compiled_code) -%}
  {%- set file_format = config.get('file_format') or 'parquet' -%}
  {%- set partition_by = config.get('partition_by') or [] -%}
  {%- if partition_by is string -%}{%- set partition_by = [partition_by] -%}{%- endif -%}
  {#- The incremental materialization's temporary relation is a plain table for Python models (a temp view
      cannot be schema-qualified); it is dropped after the insert, so it needs no partitions. -#}
  {%- if temporary -%}{%- set partition_by = [] -%}{%- endif -%}
  {%- set batch = model.batch if model.batch is defined else none -%}
{{ compiled_code }}
# --- inc_join's writer for dbt-spark Python models ---
dbt = dbtObj(spark.table)
dbt.batch = None
dbt.inc_join_context = {
    "materialized": {{ dbt_inc_join._py_text(config.get('materialized')) }},
    "incremental_strategy": {{ dbt_inc_join._py_text(config.get('incremental_strategy')) }},
    "batch_size": {{ dbt_inc_join._py_text(config.get('batch_size')) }},
    "batch_start": {{ dbt_inc_join._py_text(batch.event_time_start.isoformat() if batch else none) }},
    "batch_end": {{ dbt_inc_join._py_text(batch.event_time_end.isoformat() if batch else none) }},
    "output_window_start": {{ dbt_inc_join._py_text(var('inc_join_output_window_start', none)) }},
    "output_window_end": {{ dbt_inc_join._py_text(var('inc_join_output_window_end', none)) }},
    "available_until": {{ dbt_inc_join._py_text(var('inc_join_available_until', none)) }},
}
df = model(dbt, spark)

# a classic or a Spark Connect DataFrame (pyspark 3.5's Connect DataFrame does not derive from pyspark.sql's)
if not any(c.__name__ == "DataFrame" and c.__module__.startswith("pyspark.sql.") for c in type(df).__mro__):
    if hasattr(df, "to_spark"):  # pyspark.pandas
        df = df.to_spark()
    else:
        df = spark.createDataFrame(df)  # pandas
writer = df.write.mode("overwrite").format({{ file_format | tojson }})
{%- if partition_by %}
writer = writer.partitionBy(*{{ partition_by | tojson }})
{%- endif %}
writer.saveAsTable({{ relation | string | tojson }})
{%- endmacro %}
