{#- incremental_strategy='merge' on Delta and Iceberg: the run's output window replaced by a predicate on the
    output's arrival column, in one MERGE (one commit), for tables partitioned otherwise or not at all (liquid
    clustering, Z-order, no partitions). The window is the key: every row of the table whose arrival falls in
    the window goes, the run's rows come in. _check_strategy admits merge only on these formats and only when
    this macro is reached through the dispatch entry of the README's step 2. -#}

{#- incremental_strategy='insert_overwrite' (and microbatch) on Iceberg, partitioned by a transform of the arrival
    (partition_by=['days(RecDate)']): dbt-spark names the partition columns in its INSERT OVERWRITE except for a
    table it lists as Iceberg ('Provider: iceberg'), and Iceberg's SparkSessionCatalog on a Hive metastore lists
    'Provider: hive': `partition (days(RecDate))` does not parse. -#}

{% macro spark__partition_cols(label, required=false) %}
  {#- dbt-spark's partition clause, but none in an inc_join model's INSERT OVERWRITE (label 'partition') on Iceberg
      when partition_by has a transform: the insert replaces the partitions its rows fall in (dbt-spark sets
      partitionOverwriteMode dynamic before a partitioned insert_overwrite), as dbt-spark writes it for the tables
      it lists as Iceberg. label 'inc_join_probe': _dispatch_reaches_package asks whether this macro is
      reached. -#}
  {%- if label == 'inc_join_probe' -%}
    {{ return('inc_join_partition_clause') }}
  {%- endif -%}
  {%- if label == 'partition' and dbt_inc_join._file_format() == 'iceberg' and not dbt_inc_join._on_databricks()
         and dbt_inc_join._partition_transforms(config.get('partition_by'))
         and dbt_inc_join._is_inc_join_model() -%}
    {{ return('') }}
  {%- endif -%}
  {{ return(dbt.spark__partition_cols(label, required)) }}
{% endmacro %}

{% macro _dispatch_reaches_package() %}
  {#- Whether the dispatch entry of the README's step 2 routes dbt's macros to the package's (this one and
      spark__get_merge_sql, found by the same search order): dbt's partition_cols asked, which reads no table. -#}
  {{ return(adapter.dispatch('partition_cols', 'dbt')('inc_join_probe') == 'inc_join_partition_clause') }}
{% endmacro %}

{% macro _is_inc_join_model() %}
  {#- Whether the model being run is an inc_join model: a SQL model's compiled code carries its run's record, a
      Python model calls inc_join_model (_is_inc_join_python_model). -#}
  {%- if model is not defined or model is none -%}{{ return(false) }}{%- endif -%}
  {%- set code = model.compiled_code if model.compiled_code is defined else '' -%}
  {%- if model.language == 'python' -%}
    {{ return(dbt_inc_join._is_inc_join_python_model(code or '')) }}
  {%- endif -%}
  {{ return('/* inc_join_run ' in (code or '')) }}
{% endmacro %}

{% macro spark__get_merge_sql(target, source, unique_key, dest_columns, incremental_predicates=none) %}
  {#- dbt's get_merge_sql, for an inc_join model's run; every other MERGE goes to dbt-spark's unchanged. -#}
  {%- set record = dbt_inc_join._run_of_this_model() -%}
  {%- if record is none -%}
    {{ return(dbt.spark__get_merge_sql(target, source, unique_key, dest_columns, incremental_predicates)) }}
  {%- endif -%}
  {%- if record.empty -%}
    {#- nothing to replace: no MERGE, so the table gets no commit (an empty MERGE is one on Delta and Iceberg) -#}
    {{ return(dbt_inc_join._no_write_sql()) }}
  {%- endif -%}
  {{ return(dbt_inc_join._replace_window_sql(target, source, record)) }}
{% endmacro %}

{% macro _no_write_sql() %}
  {#- The main statement of a run whose window is empty: it reads and writes nothing. -#}
  {{ return("SELECT 'inc_join: the window is empty, nothing is written' AS inc_join_empty_window") }}
{% endmacro %}

{% macro _run_of_this_model() %}
  {#- The record of this model's run when it is an inc_join model (_this_run), else none. A Python model's is a
      table property of its table, so the properties are read only for an inc_join Python model. -#}
  {%- if model is not defined or model.config.materialized != 'incremental' -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set python = model.language == 'python' and dbt_inc_join._is_inc_join_python_model(model.compiled_code or '') -%}
  {{ return(dbt_inc_join._this_run(dbt_inc_join._table_properties(this) if python else {})) }}
{% endmacro %}

{% macro _replace_window_sql(target, source, record) %}
  {#- One MERGE: the source's rows inserted (ON false matches nothing), the table's rows in the window deleted
      (WHEN NOT MATCHED BY SOURCE: Delta 2.3+, Iceberg 1.5+); a redo's, every row from its start on (spec §14:
      the rows after a window cut by max_window_units go too, in the same commit). -#}
  {%- set arrival = 'inc_join_table.' ~ dbt_inc_join._quote(record.arrival_column) -%}
  {#- merge runs on Delta and Iceberg only (_check_strategy) -#}
  {%- set table_format = dbt_inc_join._file_format() if config is defined else 'delta' -%}
  {%- set replaced = dbt_inc_join._window_predicate(record, arrival, table_format) if not record.get('redo_from')
                     else dbt_inc_join._arrival_compared_sql(arrival, '>=', "TIMESTAMP'" ~ record.redo_from ~ "'", table_format) -%}
merge into {{ target }} as inc_join_table
using {{ source }} as inc_join_run
on false
when not matched then insert *
when not matched by source and {{ replaced }} then delete
{%- endmacro %}
