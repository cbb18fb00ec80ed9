{#- A run's id and window in the commit that writes its rows (spec §16): Delta's commitInfo.userMetadata, an
    Iceberg snapshot property. Both are session settings that the format reads at commit time, so a run sets its
    metadata before it writes and record_run resets it after. Only for models that record their runs (the ledger
    matches a commit with its record) and only in a dbt command that writes. With threads > 1 on one session
    (method: session) another model's run may commit under this one's setting; the metadata names the relation,
    so such a commit is known as another model's (_last_commit). -#}

{% macro _commit_metadata_key(file_format) %}
  {%- if file_format == 'delta' -%}
    {{ return('spark.databricks.delta.commitInfo.userMetadata') }}
  {%- elif file_format == 'iceberg' -%}
    {{ return('spark.sql.iceberg.snapshot-property.inc_join.run') }}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro _run_key(record, unique_id) %}
  {#- The ledger's key of a run: one record per model, invocation and window start. -#}
  {{ return(record.invocation_id ~ '/' ~ unique_id ~ '/' ~ (record.window_start or '')) }}
{% endmacro %}

{% macro _commit_metadata(record, relation, unique_id) %}
  {#- The text a run's commit carries: JSON of its run key, table and window. -#}
  {{ return(tojson({'inc_join_run': dbt_inc_join._run_key(record, unique_id), 'relation': relation | string,
                    'window_start': record.window_start, 'window_end': record.window_end})) }}
{% endmacro %}

{% macro _set_commit_metadata(record) %}
  {#- Before a SQL model's write: SET the metadata (the model's SQL is rendered before its statements run). -#}
  {%- set key = dbt_inc_join._commit_metadata_key(config.get('file_format')) -%}
  {%- if key is none or not dbt_inc_join._is_writing_run() or config.get('materialized') not in ['incremental', 'table']
         or dbt_inc_join._ledger_for_this_model() is none -%}
    {{ return(none) }}
  {%- endif -%}
  {%- do run_query('SET `' ~ key ~ '`=' ~ dbt_inc_join._commit_metadata(record, this, model.unique_id)) -%}
{% endmacro %}

{% macro _reset_commit_metadata() %}
  {#- After the write (record_run): later commits of the session carry no run's metadata. -#}
  {%- set key = dbt_inc_join._commit_metadata_key(config.get('file_format')) -%}
  {%- if key is not none -%}
    {%- do run_query('RESET `' ~ key ~ '`') -%}
  {%- endif -%}
{% endmacro %}

{% macro _last_commit(relation, file_format) %}
  {#- The newest of the table's last 20 commits that carries a run's metadata for this table, as
      {'version', 'at', 'operation', 'run': the metadata}; none for other formats or when there is none.
      Delta: DESCRIBE HISTORY; Iceberg: the snapshots metadata table. -#}
  {%- if file_format == 'delta' -%}
    {%- set found = run_query('DESCRIBE HISTORY ' ~ relation ~ ' LIMIT 20') -%}
    {%- set columns = found.column_names | list -%}
    {%- set rows = [] -%}
    {%- for row in found.rows -%}
      {%- do rows.append([row[columns.index('version')], row[columns.index('timestamp')],
                          row[columns.index('operation')], row[columns.index('userMetadata')]]) -%}
    {%- endfor -%}
    {%- set name = 'Delta version' -%}
  {%- elif file_format == 'iceberg' -%}
    {%- set found = run_query("SELECT snapshot_id, committed_at, operation, summary['inc_join.run'] FROM "
                              ~ relation ~ ".snapshots ORDER BY committed_at DESC LIMIT 20") -%}
    {%- set rows = found.rows -%}
    {%- set name = 'Iceberg snapshot' -%}
  {%- else -%}
    {{ return(none) }}
  {%- endif -%}
  {%- for row in rows if row[3] -%}
    {%- set run = fromjson(row[3] | string, none) -%}
    {%- if run is mapping and run.inc_join_run and (run.relation | lower) == (relation | string | lower) -%}
      {{ return({'version': name ~ ' ' ~ row[0], 'at': row[1] | string, 'operation': row[2], 'run': run}) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}
