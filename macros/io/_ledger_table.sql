{#- The run ledger's table (spec §13): one row per committed run of every inc_join model, in the package's
    model dbt_inc_join_runs: its columns, where it is, creating it, and the table properties a model's table
    carries for it. A model records its runs when it has the post-hook `{{ dbt_inc_join.record_run() }}`
    (README, "The run ledger"); its next run then starts after its last committed window (_ledger.sql). -#}

{#- Its columns and the package version it records are generated from src/dbt_inc_join/tables/shared_tables.py
    (macros/tables/generated/_ledger_columns.sql, _package_version.sql). -#}

{% macro _ledger_node() %}
  {#- The ledger model's node, or none when it is disabled. -#}
  {%- for node in graph.nodes.values() -%}
    {%- if node.resource_type == 'model' and node.package_name == 'dbt_inc_join' and node.name == 'dbt_inc_join_runs' -%}
      {{ return(node) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}

{% macro _ledger_relation() %}
  {%- set node = dbt_inc_join._ledger_node() -%}
  {%- if node is none -%}
    {{ return(none) }}
  {%- endif -%}
  {{ return(api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias, type='table')) }}
{% endmacro %}

{% macro _has_record_hook(node) %}
  {#- Whether a model (a node, or the `model` dict of the context) records its runs: one of its post-hooks calls
      record_run. -#}
  {%- set config = node.config if node.config is defined else {} -%}
  {%- set hooks = (config.get('post-hook') or config.get('post_hook') or []) if config is mapping else [] -%}
  {%- for hook in hooks -%}
    {%- set text = hook.sql if hook.sql is defined else (hook.get('sql', '') if hook is mapping else hook | string) -%}
    {%- if 'record_run' in text -%}
      {{ return(true) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(false) }}
{% endmacro %}

{% macro _records_runs() %}
  {#- Whether this model records its runs: by its own post-hooks, or, in a microbatch batch before the last (dbt
      leaves the post-hooks out of those), by the model's as dbt's graph holds them. -#}
  {%- if model is not defined or model is none -%}{{ return(false) }}{%- endif -%}
  {%- if dbt_inc_join._has_record_hook(model) -%}{{ return(true) }}{%- endif -%}
  {%- set nodes = graph.get('nodes') if graph is defined and graph is mapping else none -%}
  {{ return(nodes is mapping and model.unique_id in nodes and dbt_inc_join._has_record_hook(nodes[model.unique_id])) }}
{% endmacro %}

{% macro _ledger_for_this_model() %}
  {#- The ledger relation when this model records its runs, else none; a clear error when the hook is there
      but the ledger model is disabled. -#}
  {%- if not dbt_inc_join._records_runs() -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set ledger = dbt_inc_join._ledger_relation() -%}
  {%- do dbt_inc_join._ledger_switch_check() -%}
  {#- a bad format of the ledger is refused before the model reads anything -#}
  {%- do dbt_inc_join._ledger_format_var() -%}
  {{ return(ledger) }}
{% endmacro %}

{% macro _ledger_format_var() %}
  {#- var inc_join_ledger_format, checked: 'parquet', 'delta' or none. -#}
  {%- set named = var('inc_join_ledger_format', none) -%}
  {%- if named is not none and named not in ['parquet', 'delta'] -%}
    {{ dbt_inc_join._fail("var inc_join_ledger_format must be 'parquet' or 'delta', not " ~ dbt_inc_join._repr(named) ~ ".") }}
  {%- endif -%}
  {{ return(named) }}
{% endmacro %}

{% macro _ledger_format(ledger) %}
  {#- The run ledger's table format: Delta on dbt-databricks (Unity Catalog keeps managed tables in Delta or
      Iceberg only), where var inc_join_ledger_format is 'delta', and for a ledger that is a Delta table already;
      else parquet. -#}
  {%- set named = dbt_inc_join._ledger_format_var() -%}
  {%- if named == 'delta' or (named is none and dbt_inc_join._on_databricks()) or dbt_inc_join._table_facts(ledger).format == 'delta' -%}
    {{ return('delta') }}
  {%- endif -%}
  {{ return('parquet') }}
{% endmacro %}

{% macro _create_ledger_sql(ledger) %}
  {%- set columns = [] -%}
  {%- for name, type in dbt_inc_join._ledger_columns() -%}
    {%- do columns.append(dbt_inc_join._quote(name) ~ ' ' ~ type) -%}
  {%- endfor -%}
  {%- set file_format = dbt_inc_join._ledger_format(ledger) -%}
  {#- parquet: partitionOverwriteMode=dynamic as a table option: a record is an INSERT OVERWRITE of its own
      run_key partition, which Spark stages in a directory of its own job (.spark-staging-<job>) whatever the
      session's setting, where concurrent INSERT INTOs of one table would share <table>/_temporary
      (SPARK-24238). Delta commits each record by its log; its partitions keep concurrent records apart. -#}
create table if not exists {{ ledger }} (
  {{ columns | join(',\n  ') }}
)
using {{ file_format }}
{%- if file_format == 'parquet' %}
options ('partitionOverwriteMode' = 'dynamic')
{%- endif %}
partitioned by (recorded_month, run_key)
{%- endmacro %}

{% macro _ensure_ledger(ledger) %}
  {%- if not execute -%}{{ return(none) }}{%- endif -%}
  {%- if adapter.get_relation(database=ledger.database, schema=ledger.schema, identifier=ledger.identifier) is none -%}
    {%- do adapter.create_schema(ledger) -%}
    {%- do run_query(dbt_inc_join._create_ledger_sql(ledger)) -%}
    {{ return(none) }}
  {%- endif -%}
  {%- do dbt_inc_join._add_ledger_columns(ledger) -%}
{% endmacro %}

{% macro _add_ledger_columns(ledger) %}
  {#- A ledger made by an earlier version of the package gets the columns it lacks (NULL in its old records),
      in the table's order, before its partition columns. -#}
  {%- set present = adapter.get_columns_in_relation(ledger) | map(attribute='name') | map('lower') | list -%}
  {%- set missing = [] -%}
  {%- for name, type in dbt_inc_join._ledger_columns() if name | lower not in present -%}
    {%- do missing.append(dbt_inc_join._quote(name) ~ ' ' ~ type) -%}
  {%- endfor -%}
  {%- if missing -%}
    {%- do run_query('ALTER TABLE ' ~ ledger ~ ' ADD COLUMNS (' ~ missing | join(', ') ~ ')') -%}
  {%- endif -%}
{% endmacro %}

{% macro _show_properties_sql(relation) %}
  {{ return('SHOW TBLPROPERTIES ' ~ relation) }}
{% endmacro %}

{% macro _table_properties(relation) %}
  {#- A table's properties, as a dict. Spark shows a value that matches spark.sql.redaction.options.regex
      (default '(?i)url') as '*********(redacted)': a model named like *_hourly names its table in
      inc_join.committed. Such a table's properties are read again with that setting matching nothing, then
      the setting is reset to the session's own (its value cannot be read back: SET shows it redacted too). -#}
  {%- set found = run_query(dbt_inc_join._show_properties_sql(relation)) -%}
  {%- if found.rows | selectattr(1, 'equalto', '*********(redacted)') | list | length > 0 -%}
    {%- set setting = 'spark.sql.redaction.options.regex' -%}
    {%- do run_query('SET ' ~ setting ~ '=(?!)') -%}
    {%- set found = run_query(dbt_inc_join._show_properties_sql(relation)) -%}
    {%- do run_query('RESET ' ~ setting) -%}
  {%- endif -%}
  {%- set properties = {} -%}
  {%- for row in found.rows -%}
    {%- do properties.update({row[0]: row[1]}) -%}
  {%- endfor -%}
  {{ return(properties) }}
{% endmacro %}

{% macro _new_table_id() %}
  {#- A table's identity in the ledger: a full refresh makes a new table, whose runs start afresh. -#}
  {{ return(invocation_id ~ '/' ~ modules.datetime.datetime.utcnow().strftime('%Y%m%dT%H%M%S%f')) }}
{% endmacro %}

{% macro _set_table_properties(relation, properties) %}
  {#- Several properties in one ALTER TABLE (one metastore write). -#}
  {%- do run_query('ALTER TABLE ' ~ relation ~ ' SET TBLPROPERTIES (' ~ dbt_inc_join._properties_sql(properties) ~ ')') -%}
{% endmacro %}

{% macro _properties_sql(properties) %}
  {#- Table properties as a TBLPROPERTIES list: 'key' = 'value', ... -#}
  {%- set pairs = [] -%}
  {%- for key, value in properties.items() -%}
    {%- do pairs.append(dbt_inc_join._text_literal(key) ~ ' = ' ~ dbt_inc_join._text_literal(value)) -%}
  {%- endfor -%}
  {{ return(pairs | join(', ')) }}
{% endmacro %}

{% macro _set_table_property(relation, key, value) %}
  {%- do dbt_inc_join._set_table_properties(relation, {key: value}) -%}
{% endmacro %}
