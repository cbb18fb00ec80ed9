{#- The open state's table (docs/spec.md §18): read its tag, and the model's hooks that keep it. The tag, the
    table property inc_join.open_state, names the end and the fingerprint of the arguments of the state whose rows
    are all there; a reader takes the rows of that end (inc_join_state_end, the run's end as digits).
    - parquet: each run's state is a partition of its own, written beside the one the run read, then tagged, then
      the older partitions dropped.
    - Delta and Iceberg: the tag is cleared before the run, the table replaced in one commit, then tagged. An
      empty state is written as one row of nulls without an end (Iceberg's overwrite of no rows replaces nothing).
    A Python model's run takes the steps before dbt's commit in its own code (orchestration/python_models/model.py,
    through the port), and the post-hook the writer adds to it tags the rows (_open_state_after).
    A run killed anywhere leaves the tag of a state whose rows are all there, or no tag. -#}

{% macro _open_state_table(relation) %}
  {#- The state table as dbt's relation cache has it, or none. -#}
  {{ return(adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier)) }}
{% endmacro %}

{% macro _open_state_relation(relation) %}
  {#- The state table of a model's table: beside it, named after it. -#}
  {{ return(api.Relation.create(database=relation.database, schema=relation.schema,
                                identifier=relation.identifier ~ '__inc_join_open', type='table')) }}
{% endmacro %}

{% macro _open_state_found(relation) %}
  {#- {'tag': the state table's tag or none, 'table_fingerprint': the fingerprint it was made for, or none (no
      table), 'exists'}: one query when the table exists. -#}
  {%- set found = dbt_inc_join._open_state_table(relation) -%}
  {%- if found is none -%}{{ return({'tag': none, 'table_fingerprint': none, 'exists': false}) }}{%- endif -%}
  {%- set properties = dbt_inc_join._table_properties(found) -%}
  {%- set text = properties.get('inc_join.open_state') -%}
  {{ return({'tag': fromjson(text) if text and text.startswith('{') else none,
             'table_fingerprint': properties.get('inc_join.open_state_fingerprint'), 'exists': true}) }}
{% endmacro %}

{% macro _open_state_of_this_run() %}
  {#- The marker _open_state_marker left in the model's compiled code, or none. -#}
  {%- set code = model.compiled_code if (model is defined and model.compiled_code is defined) else '' -%}
  {%- set found = modules.re.search('/\\* inc_join_open_state (.*?) \\*/', code or '') -%}
  {{ return(fromjson(found.group(1).replace('*\\/', '*/')) if found else none) }}
{% endmacro %}

{% macro _open_state_cache(relation) %}
  {#- The session's name of the cached rows a run's output and state come from: one per invocation and model. -#}
  {{ return('_inc_join_kept_' ~ local_md5(invocation_id ~ relation | string)) }}
{% endmacro %}

{% macro _open_state_before() %}
  {#- Pre-hook: _open_state_prepare, then the rows the output and the state come from are cached (lazily: the
      output's statement fills the cache, the state's reads it; Spark finds the cached plan inside both
      statements), so the run reads its inputs once. -#}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set marker = dbt_inc_join._open_state_of_this_run() -%}
  {%- if marker is none -%}{{ return('') }}{%- endif -%}
  {%- do dbt_inc_join._open_state_prepare(dbt_inc_join._open_state_relation(this), marker) -%}
  {%- do run_query('CACHE LAZY TABLE ' ~ dbt_inc_join._open_state_cache(this) ~ ' AS\n' ~ marker.kept) -%}
  {{ return('') }}
{% endmacro %}

{% macro _open_state_prepare(target, marker) %}
  {#- Before the output's statement, and before its rows are cached. A run that does not read the state clears its
      tag, so the state of an earlier run is never read after this one; so does a Delta or Iceberg run that reads
      it, whose state replaces the table's rows. A parquet run that reads it drops what a killed attempt of its
      window may have left of the new state. (A change to the state table after the output's statement would make
      Spark drop the cached rows, which read that table, and the state's statement compute them again.) A Python
      model's run leaves its marker for the post-hook, whose compiled code holds none, as the table property
      inc_join.open_state_pending: with the cleared tag in one statement, or on its own when a parquet run reads
      the state (a table made by the run gets it in its CREATE, _create_open_state). -#}
  {%- set pending = dbt_inc_join._open_state_pending_property(marker) -%}
  {%- if marker.read and not dbt_inc_join._open_state_replaced(marker) -%}
    {%- do dbt_inc_join._drop_open_states(target, [dbt_inc_join._open_state_partition(marker.end)]) -%}
    {%- if pending -%}{%- do dbt_inc_join._set_table_properties(target, pending) -%}{%- endif -%}
  {%- elif dbt_inc_join._open_state_table(target) is not none -%}
    {%- do pending.update({'inc_join.open_state': ''}) -%}
    {%- do dbt_inc_join._set_table_properties(target, pending) -%}
  {%- endif -%}
{% endmacro %}

{% macro _open_state_pending_property(marker) %}
  {#- {'inc_join.open_state_pending': what the post-hook tags} for a Python model's run, else {}. -#}
  {%- if not marker.get('python') -%}{{ return({}) }}{%- endif -%}
  {%- set pending = {} -%}
  {%- for key in ['end', 'fingerprint', 'invocation_id', 'read_end', 'file_format', 'python'] -%}
    {%- do pending.update({key: marker.get(key)}) -%}
  {%- endfor -%}
  {{ return({'inc_join.open_state_pending': tojson(pending)}) }}
{% endmacro %}

{% macro _open_state_pending_of_this_run(target) %}
  {#- The marker a Python model's run of this invocation left on its state table (_open_state_prepare), or
      none. The model's own Spark code may have made the table, which dbt's relation cache does not know: it is
      looked up in the catalog. -#}
  {%- set listed = run_query('SHOW TABLES IN ' ~ target.schema ~ ' LIKE '
                             ~ dbt_inc_join._text_literal(target.identifier)) -%}
  {%- if listed.rows | length == 0 -%}{{ return(none) }}{%- endif -%}
  {%- set text = dbt_inc_join._table_properties(target).get('inc_join.open_state_pending') -%}
  {%- set pending = fromjson(text) if text and text.startswith('{') else none -%}
  {{ return(pending if pending and pending.invocation_id == invocation_id else none) }}
{% endmacro %}

{% macro _open_state_partition(end_text) %}
  {#- The partition value of the state as of end_text ('YYYY-MM-DD HH:MM:SS'): its digits down to the minute. -#}
  {{ return(end_text.replace('-', '').replace(' ', '').replace(':', '')[:12]) }}
{% endmacro %}

{% macro _open_state_rows_sql(target, end_text) %}
  {#- The rows of the state as of end_text: counted in the query that finds the watermark (_resolve_window). -#}
  {{ return('SELECT count(*) AS state_rows FROM ' ~ target ~ ' WHERE inc_join_state_end = '
            ~ dbt_inc_join._text_literal(dbt_inc_join._open_state_partition(end_text))) }}
{% endmacro %}

{% macro _open_state_read_sql(target, end_text) %}
  {#- The state as of end_text, as a relation of the run's statement. -#}
  {{ return('(select * from ' ~ target ~ ' where inc_join_state_end = '
            ~ dbt_inc_join._text_literal(dbt_inc_join._open_state_partition(end_text)) ~ ') _open_state') }}
{% endmacro %}

{% macro _open_state_after() %}
  {#- Post-hook, after the output's commit: the state as of the run's end written (_open_state_write), then
      tagged (_open_state_publish). A Python model's run wrote its rows before the commit, the tag cleared or still
      naming the state it read: here it is tagged. -#}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set target = dbt_inc_join._open_state_relation(this) -%}
  {%- if model.language == 'python' -%}
    {%- set marker = dbt_inc_join._open_state_pending_of_this_run(target) -%}
    {%- if marker is not none -%}{%- do dbt_inc_join._open_state_publish(target, marker) -%}{%- endif -%}
    {{ return('') }}
  {%- endif -%}
  {%- set marker = dbt_inc_join._open_state_of_this_run() -%}
  {%- if marker is none -%}{{ return('') }}{%- endif -%}
  {%- do dbt_inc_join._open_state_write(target, marker) -%}
  {#- the cached rows are read: dropped before the tag and the deletes, each of which would make Spark plan them
      again (a change to a table the cached plan reads) -#}
  {%- do run_query('DROP VIEW IF EXISTS ' ~ dbt_inc_join._open_state_cache(this)) -%}
  {%- do dbt_inc_join._open_state_publish(target, marker) -%}
  {{ return('') }}
{% endmacro %}

{% macro _open_state_write(target, marker) %}
  {#- The state's rows (the marker's statement) as of the run's end: in a new table when there is none or it was
      made for other arguments; else Delta and Iceberg replace the table's rows, parquet adds a partition of its
      own. -#}
  {%- set table_fingerprint = marker.table_fingerprint -%}
  {%- if table_fingerprint is none -%}
    {#- not read while compiling (a run that could not read the state) -#}
    {%- set table_fingerprint = dbt_inc_join._open_state_found(target).table_fingerprint -%}
  {%- endif -%}
  {%- set partition = dbt_inc_join._open_state_partition(marker.end) -%}
  {%- if table_fingerprint != marker.fingerprint -%}
    {%- do run_query('DROP TABLE IF EXISTS ' ~ target) -%}
    {%- do dbt_inc_join._create_open_state(target, marker, partition) -%}
  {%- elif dbt_inc_join._open_state_replaced(marker) -%}
    {#- not CREATE OR REPLACE with the tag in one commit: on Delta over a Hive metastore each replace logs the
        metastore's `ERROR HiveAlterHandler` with its stack, and it measured no faster
        (bench/results/open-state-dbt-delta-2026-12-06-threshold.md) -#}
    {%- do run_query('INSERT OVERWRITE ' ~ target ~ '\n'
                     ~ dbt_inc_join._open_state_rows(marker.sql, partition, true)) -%}
  {%- else -%}
    {%- if not marker.read -%}
      {#- (a run that read the state dropped it before its output: _open_state_prepare) -#}
      {%- do dbt_inc_join._drop_open_states(target, [partition]) -%}
    {%- endif -%}
    {%- do run_query('INSERT INTO ' ~ target ~ ' PARTITION (inc_join_state_end = '
                     ~ dbt_inc_join._text_literal(partition) ~ ')\n' ~ marker.sql) -%}
  {%- endif -%}
{% endmacro %}

{% macro _open_state_publish(target, marker) %}
  {#- After the output's commit and the state's rows: the tag (a Python model's marker emptied in the same
      statement: it has served), then the other partitions of a parquet table dropped. -#}
  {%- set tag = {'inc_join.open_state': tojson({'end': marker.end, 'fingerprint': marker.fingerprint,
                                                 'invocation_id': marker.invocation_id})} -%}
  {%- if marker.get('python') -%}{%- do tag.update({'inc_join.open_state_pending': ''}) -%}{%- endif -%}
  {%- do dbt_inc_join._set_table_properties(target, tag) -%}
  {%- set partition = dbt_inc_join._open_state_partition(marker.end) -%}
  {%- if dbt_inc_join._open_state_replaced(marker) -%}
    {#- the table holds this state only -#}
  {%- elif marker.read_end and not marker.get('python') -%}
    {#- a run that read the state found it the only one: every run before it dropped the others. (A Python model's
        run writes its rows before dbt's commit: a killed attempt that ended elsewhere may have left another.) -#}
    {%- do dbt_inc_join._drop_open_states(target, [dbt_inc_join._open_state_partition(marker.read_end)]) -%}
  {%- else -%}
    {%- set others = [] -%}
    {%- for row in run_query('SHOW PARTITIONS ' ~ target).rows -%}
      {%- set value = row[0].split('=', 1)[-1] -%}
      {%- if value != partition -%}{%- do others.append(value) -%}{%- endif -%}
    {%- endfor -%}
    {%- do dbt_inc_join._drop_open_states(target, others) -%}
  {%- endif -%}
{% endmacro %}

{% macro _open_state_replaced(marker) %}
  {#- Whether the state table's rows are replaced in one commit (Delta, Iceberg), or kept as a partition per run
      (parquet). -#}
  {{ return(dbt_inc_join._deletes_rows(marker.file_format)) }}
{% endmacro %}

{% macro _open_state_rows(sql, partition, replaced) %}
  {#- The rows of the state as of partition, its end: a replacing table gets one row of nulls, without an end,
      when the state is empty (every read takes the rows of an end). -#}
  {%- set rows = 'select *, ' ~ dbt_inc_join._text_literal(partition) ~ ' AS inc_join_state_end from (\n'
                 ~ sql ~ '\n) _state' -%}
  {%- if not replaced -%}{{ return(rows) }}{%- endif -%}
  {{ return('select _kept.* from (select 1 AS _inc_join_one) _one\nleft join (\n' ~ rows ~ '\n) _kept on true') }}
{% endmacro %}

{% macro _drop_open_states(target, partitions) %}
  {#- The states of these partition values gone from a parquet state table. -#}
  {%- for value in partitions -%}
    {%- do run_query('ALTER TABLE ' ~ target ~ ' DROP IF EXISTS PARTITION (inc_join_state_end = '
                     ~ dbt_inc_join._text_literal(value) ~ ')') -%}
  {%- endfor -%}
{% endmacro %}

{% macro _create_open_state(target, marker, partition) %}
  {#- A new state table, in the output's format: parquet partitioned by the end of the run whose state a row is,
      Delta and Iceberg not. A parquet table's CREATE TABLE AS killed halfway leaves a directory without a table:
      the next one writes over it. -#}
  {%- set replaced = dbt_inc_join._open_state_replaced(marker) -%}
  {%- set legacy = marker.file_format not in ['delta', 'iceberg', 'hudi'] -%}
  {%- set setting = 'spark.sql.legacy.allowNonEmptyLocationInCTAS' -%}
  {%- if legacy -%}{%- do run_query('SET ' ~ setting ~ '=true') -%}{%- endif -%}
  {%- set properties = dbt_inc_join._open_state_pending_property(marker) -%}
  {%- do properties.update({'inc_join.open_state_fingerprint': marker.fingerprint}) -%}
  {%- do run_query('CREATE TABLE ' ~ target ~ ' USING ' ~ marker.file_format
                   ~ ('' if replaced else '\nPARTITIONED BY (inc_join_state_end)')
                   ~ '\nTBLPROPERTIES (' ~ dbt_inc_join._properties_sql(properties) ~ ')\nAS '
                   ~ dbt_inc_join._open_state_rows(marker.sql, partition, replaced)) -%}
  {%- if legacy -%}{%- do run_query('RESET ' ~ setting) -%}{%- endif -%}
{% endmacro %}
