{#- SQL models that record their runs, in a file format without atomic CREATE TABLE AS: the table is created
    before its rows are written (spec §13); spark__create_table_as (create_table_as.sql) sends them here. -#}

{% macro _creates_before_writing(compiled_code) %}
  {#- An inc_join SQL model that records its runs, in a file format without atomic CREATE TABLE AS: its table is
      created before its rows are written (spec §13), so a killed first run or full refresh leaves a table the
      ledger knows was never committed, instead of a directory without a table (LOCATION_ALREADY_EXISTS). -#}
  {%- if dbt_inc_join._file_format() in ['delta', 'iceberg', 'hudi'] -%}
    {{ return(false) }}
  {%- endif -%}
  {{ return('/* inc_join_run ' in compiled_code and dbt_inc_join._ledger_for_this_model() is not none) }}
{% endmacro %}

{% macro _table_clauses(table_id) %}
  {#- dbt-spark's clauses of CREATE TABLE, and the table's identity in the ledger. -#}
  {%- set properties = config.get('tblproperties') or {} -%}
  {%- set assigned = [dbt_inc_join._text_literal('inc_join.table_id') ~ ' = ' ~ dbt_inc_join._text_literal(table_id)] -%}
  {%- for key, value in properties.items() -%}
    {%- do assigned.append(dbt_inc_join._text_literal(key) ~ ' = ' ~ dbt_inc_join._text_literal(value)) -%}
  {%- endfor -%}
  {{ file_format_clause() }}
  {{ options_clause() }}
  {{ partition_cols(label="partitioned by") }}
  {{ clustered_cols(label="clustered by") }}
  {{ location_clause() }}
  {{ comment_clause() }}
  tblproperties ({{ assigned | join(', ') }})
{% endmacro %}

{% macro _create_then_insert(relation, compiled_code) %}
  {#- The rows go through a temporary view, whose description gives the table's columns; the table is created
      empty (a catalog operation, no job), and the main statement writes it. -#}
  {%- set view = api.Relation.create(identifier=relation.identifier ~ '__inc_join_rows', type='view') -%}
  {%- do run_query(create_temporary_view(view, compiled_code)) -%}
  {%- set described = run_query('DESCRIBE ' ~ view) -%}
  {#- DESCRIBE lists the columns, then (after an empty row or a '#' heading) the partitioning -#}
  {%- set reading = namespace(columns=true) -%}
  {%- set definitions = [] -%}
  {%- for row in described.rows -%}
    {%- if row[0] is none or row[0] == '' or row[0].startswith('#') -%}
      {%- set reading.columns = false -%}
    {%- endif -%}
    {%- if reading.columns -%}
      {%- do definitions.append(dbt_inc_join._quote(row[0]) ~ ' ' ~ row[1]) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- do run_query('CREATE TABLE ' ~ relation ~ ' (' ~ definitions | join(', ') ~ ') '
                   ~ dbt_inc_join._table_clauses(dbt_inc_join._new_table_id())) -%}
  {%- set table_columns = adapter.get_columns_in_relation(relation) | map(attribute='name') | list -%}
  {%- set selected = [] -%}
  {%- for name in table_columns -%}{%- do selected.append(dbt_inc_join._quote(name)) -%}{%- endfor -%}
insert overwrite table {{ relation }}
select {{ selected | join(', ') }} from {{ view }}
{%- endmacro %}
