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
  {%- set key = dbt_inc_join._commit_metadata_key(dbt_inc_join._file_format()) -%}
  {%- if key is none or not dbt_inc_join._is_writing_run() or config.get('materialized') not in ['incremental', 'table']
         or dbt_inc_join._ledger_for_this_model() is none -%}
    {{ return(none) }}
  {%- endif -%}
  {%- do run_query('SET `' ~ key ~ '`=' ~ dbt_inc_join._commit_metadata(record, this, model.unique_id)) -%}
{% endmacro %}

{% macro _reset_commit_metadata() %}
  {#- After the write (record_run): later commits of the session carry no run's metadata. -#}
  {%- set key = dbt_inc_join._commit_metadata_key(dbt_inc_join._file_format()) -%}
  {%- if key is not none -%}
    {%- do run_query('RESET `' ~ key ~ '`') -%}
  {%- endif -%}
{% endmacro %}

{% macro _last_commit_sql(relation, file_format) %}
  {#- The query of the table's last 20 commits, columns version, timestamp, operation, userMetadata (the run's
      metadata); none for other formats. Delta: DESCRIBE HISTORY (whose other columns are ignored); Iceberg: the
      snapshots metadata table. Run only when the next run finds rows after the last committed window
      (_committed_state). -#}
  {%- if file_format == 'delta' -%}
    {{ return('DESCRIBE HISTORY ' ~ relation ~ ' LIMIT 20') }}
  {%- elif file_format == 'iceberg' -%}
    {{ return("SELECT snapshot_id AS version, committed_at AS timestamp, operation, summary['inc_join.run'] AS userMetadata FROM "
              ~ relation ~ ".snapshots ORDER BY committed_at DESC LIMIT 20") }}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro _last_commit_of(columns, rows, file_format, relation) %}
  {#- The newest commit of _last_commit_sql's rows that carries a run's metadata for this table, as
      {'version', 'at', 'operation', 'run': the metadata}; none when there is none. -#}
  {%- set name = ('Delta ' if file_format == 'delta' else 'Iceberg ') ~ dbt_inc_join._commit_word(file_format) -%}
  {%- set at = [columns.index('version'), columns.index('timestamp'), columns.index('operation'), columns.index('userMetadata')] -%}
  {%- for row in rows if row[at[3]] -%}
    {%- set run = dbt_inc_join._run_of(row[at[3]], relation) -%}
    {%- if run is not none -%}
      {{ return({'version': name ~ ' ' ~ row[at[0]], 'at': row[at[1]] | string, 'operation': row[at[2]], 'run': run}) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}

{% macro _run_of(text, relation) %}
  {#- A commit's metadata text as the run it names when that run wrote this table; none for no text, text that
      is not a run's, or another table's run. -#}
  {%- set run = fromjson(text | string, none) if text else none -%}
  {{ return(run if run is mapping and run.inc_join_run and (run.relation | lower) == (relation | string | lower) else none) }}
{% endmacro %}

{% macro _last_commit(state) %}
  {#- _last_commit_of over the table's commits (state: _ledger_state's, with its last_commit_query). -#}
  {%- if not state.last_commit_query -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set found = run_query(state.last_commit_query) -%}
  {{ return(dbt_inc_join._last_commit_of(found.column_names | list, found.rows, state.file_format, state.relation)) }}
{% endmacro %}

{% macro _current_snapshot(relation, file_format) %}
  {#- The Iceberg snapshot the table is at (its main branch); none for other formats and for a table without one. -#}
  {{ return(dbt_inc_join._table_version(relation, 'iceberg') if file_format == 'iceberg' else none) }}
{% endmacro %}

{% macro _concurrent_commit_sql(relation) %}
  {#- The table's last 50 snapshots with their parents and the runs' metadata (Iceberg), for _concurrent_commit. -#}
  {{ return("SELECT CAST(snapshot_id AS STRING) AS id, CAST(parent_id AS STRING) AS parent, committed_at, operation,"
            ~ " summary['inc_join.run'] AS run FROM " ~ relation ~ ".snapshots ORDER BY committed_at DESC LIMIT 50") }}
{% endmacro %}

{% macro _concurrent_commit_of(rows, record, run_key, relation) %}
  {#- Another run's commit of an overlapping window of this table between the snapshot this run started from and
      its own commit (rows: _concurrent_commit_sql's), as {'id', 'at', 'run'}; none when there is none, when this
      run committed nothing, or when its start is not known. The walk follows the parents of this run's commit,
      the order in which Iceberg applied the commits. -#}
  {%- set start = record.get('start_snapshot') -%}
  {%- if start is none or record.window_start is none -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set by_id, runs = {}, {} -%}
  {%- set mine = namespace(id=none) -%}
  {%- for row in rows -%}
    {%- set run = dbt_inc_join._run_of(row[4], relation) -%}
    {%- do by_id.update({row[0] | string: row}) -%}
    {%- do runs.update({row[0] | string: run}) -%}
    {%- if run is not none and run.inc_join_run == run_key and mine.id is none -%}
      {%- set mine.id = row[0] | string -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set walk = namespace(id=(by_id[mine.id][1] | string) if mine.id is not none else none) -%}
  {%- for _ in rows -%}
    {%- if walk.id is not none and walk.id != start and walk.id in by_id -%}
      {%- set other = runs[walk.id] -%}
      {%- if other is not none and other.inc_join_run != run_key and other.window_start is not none
             and other.window_start <= record.window_end and record.window_start <= other.window_end -%}
        {{ return({'id': walk.id, 'at': by_id[walk.id][2] | string, 'run': other}) }}
      {%- endif -%}
      {%- set walk.id = by_id[walk.id][1] | string if by_id[walk.id][1] is not none else none -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}

{% macro _refuse_concurrent_commit(record, run_key) %}
  {#- Two runs of one model at once on Iceberg with insert_overwrite (spec §16): Iceberg commits a dynamic
      overwrite without checking it against commits made since the run began, so both runs commit. Both chose
      their window from the same committed state, so the later commit replaced the same partitions with the
      same rows; the later run finds the earlier one's commit among its own commit's parents and fails before
      it records, so the window is recorded once. -#}
  {%- if dbt_inc_join._file_format() != 'iceberg' or record.get('start_snapshot') is none or record.empty -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set found = run_query(dbt_inc_join._concurrent_commit_sql(this)) -%}
  {%- set other = dbt_inc_join._concurrent_commit_of(found.rows, record, run_key, this) -%}
  {%- if other is not none -%}
    {{ dbt_inc_join._fail(dbt_inc_join._concurrent_commit_message(this, record, other)) }}
  {%- endif -%}
{% endmacro %}

{% macro _concurrent_commit_message(relation, record, other) %}
  {{ return('another run of ' ~ relation ~ ' committed an overlapping window (' ~ other.run.window_start ~ ' to '
            ~ other.run.window_end ~ ', Iceberg snapshot ' ~ other.id ~ ' at ' ~ other.at ~ ', run ' ~ other.run.inc_join_run
            ~ ') while this run (' ~ record.window_start ~ ' to ' ~ record.window_end ~ ') was writing. Iceberg commits'
            ~ " an INSERT OVERWRITE without checking it against such commits, so both were committed: this run's"
            ~ ' replaced the same partitions with the same rows. This run records nothing and fails, so the ledger'
            ~ ' has the window once; nothing needs repair (two runs of one model at once: docs/table-formats.md).') }}
{% endmacro %}
