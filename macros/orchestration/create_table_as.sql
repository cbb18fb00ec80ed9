{#- Python models on dbt-spark: inc_join's table writer, for inc_join's Python models only.

    Reached through adapter.dispatch('create_table_as', 'dbt') when the consuming project sets
      dispatch: [{macro_namespace: dbt, search_order: [<your project>, dbt_inc_join, dbt]}]
    SQL models, and every Python model that is not inc_join's, go to dbt-spark's own implementation unchanged
    (its writer: file_format, default delta; no partitionBy). An inc_join Python model is one whose code calls
    inc_join_model (see _is_inc_join_python_model); for it dbt-spark's writer would ignore partition_by and
    default to delta, so this one writes file_format (default parquet) with partitionBy, and hands the model
    what Python models cannot read themselves (dbt.batch, dbt.inc_join_context): _py_writer.sql. SQL models
    that record their runs are created before they are written: _create_then_insert.sql. Each batch of a
    microbatch model that records its runs is recorded: _record_every_batch (_run_record.sql). -#}

{% macro spark__create_table_as(temporary, relation, compiled_code, language='sql') -%}
  {#- each batch of a microbatch model that records its runs is recorded (_record_every_batch) -#}
  {%- if (language == 'python' and dbt_inc_join._is_inc_join_python_model(compiled_code))
         or (language == 'sql' and '/* inc_join_run ' in compiled_code) -%}
    {%- do dbt_inc_join._record_every_batch() -%}
  {%- endif -%}
  {%- if language == 'python' and dbt_inc_join._is_inc_join_python_model(compiled_code) -%}
    {{ dbt_inc_join._py_write_table(temporary, relation, compiled_code) }}
  {%- elif language == 'sql' and not temporary and dbt_inc_join._creates_before_writing(compiled_code) -%}
    {{ dbt_inc_join._create_then_insert(relation, compiled_code) }}
  {%- else -%}
    {{ dbt.spark__create_table_as(temporary, relation, compiled_code, language) }}
  {%- endif -%}
{%- endmacro %}
