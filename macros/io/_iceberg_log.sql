{#- An Iceberg table's log as the log check reads it (spec §17, _input_log.sql): its snapshots with the main
    branch's, the lineage between two snapshots (a rollback included, compactions left out), and the manifest
    entries each changed snapshot added or deleted with their arrival bounds. Pure: SQL texts and rows in,
    values out. -#}

{% macro _iceberg_snapshots_sql(relation, main=none, from_ms=none) %}
  {#- An Iceberg table's snapshots (id, parent, at, operation) and, on every row, the main branch's (main): its
      version now and its log in one statement. Then the files each snapshot added and deleted, from its summary
      (data files, delete files; none where absent): what its manifests must hold (_iceberg_manifest_ranges).
      main: the snapshot already known (the catalog's current-snapshot-id, _table_facts), which spares the read of
      the table's refs; else the refs give it. from_ms: only the snapshots committed from then on
      (_iceberg_read_from); else all of them. -#}
  {%- set counts = [] -%}
  {%- for key in ['added-data-files', 'deleted-data-files', 'added-delete-files', 'removed-delete-files'] -%}
    {%- do counts.append("summary['" ~ key ~ "']") -%}
  {%- endfor -%}
  {{ return("SELECT CAST(snapshot_id AS STRING) AS id, CAST(parent_id AS STRING) AS parent,"
            ~ " date_format(committed_at, 'yyyy-MM-dd HH:mm:ss') AS at, operation,"
            ~ (" '" ~ (main | int) ~ "' AS main, " if main is not none else
               " (SELECT CAST(snapshot_id AS STRING) FROM " ~ relation ~ ".refs WHERE name = 'main') AS main, ")
            ~ counts | join(', ') ~ " FROM " ~ relation ~ ".snapshots"
            ~ ('' if from_ms is none else ' WHERE committed_at >= timestamp_millis(' ~ (from_ms | int) ~ ')')) }}
{% endmacro %}

{% macro _iceberg_read_from(since, since_at, main_at) %}
  {#- From which commit time (epoch milliseconds) a run reads an Iceberg table's snapshots, or none for all of
      them. since: the version the last committed run read, since_at its commit time where that run knew it;
      main_at: the commit time of the snapshot dbt's listing shows. With both times, the earlier (a daily run:
      the two snapshots and those between; a lineage that reaches before them, a rollback then new commits, is
      read again whole, _log_changes). Without `since`, main's own time: its row and any later one (which tell a
      listing that lags behind main, _iceberg_main_of). -#}
  {%- if since is none -%}
    {{ return(main_at) }}
  {%- endif -%}
  {{ return(none if since_at is none or main_at is none else [since_at | int, main_at | int] | min) }}
{% endmacro %}

{% macro _iceberg_cached_snapshot(information, part='id') %}
  {#- An Iceberg table's current snapshot in the text of dbt's listing of its schema (SHOW TABLE EXTENDED): the
      table property current-snapshot-id, which a Hive metastore keeps. Listed before any query of the run, so
      never later than what the run reads: a version it may record. None where the catalog does not show it.
      part 'timestamp-ms': its commit time (current-snapshot-timestamp-ms). -#}
  {%- set found = modules.re.search('(?:^|[\\[,\\s])current-snapshot-' ~ part ~ '=(\\d+)(?:[\\],\\s]|$)', information or '') -%}
  {{ return(found.group(1) if found else none) }}
{% endmacro %}

{% macro _iceberg_main_of(rows, cached) %}
  {#- The main snapshot in _iceberg_snapshots_sql's rows (their `main`), or none where the refs must tell: the rows
      do not hold it (the table made again since dbt listed it, a list read from a recorded version no longer
      kept), or, for the snapshot dbt's listing showed (`cached`), a snapshot whose parent it is: the listing lags
      behind main (an engine that commits without updating the metastore's current-snapshot-id, Trino's for
      one), or another branch committed on it. An empty table has none either. -#}
  {%- set main = rows[0][4] if rows else none -%}
  {%- if main is none or main not in rows | map(attribute=0) | list
         or (cached is not none and main in rows | map(attribute=1) | list) -%}
    {{ return(none) }}
  {%- endif -%}
  {{ return(main) }}
{% endmacro %}

{% macro _iceberg_manifests_sql(relation) %}
  {#- The manifests of the table's current snapshot: (snapshot that wrote it, content, spec, added, existing and
      deleted data files, delete files, partition summaries as JSON). One manifest list read, whatever the
      history's length; Iceberg reads partition_summaries whole or not at all. -#}
  {{ return("SELECT CAST(added_snapshot_id AS STRING) AS snapshot, content, partition_spec_id AS spec,"
            ~ " added_data_files_count AS added, existing_data_files_count AS existing,"
            ~ " deleted_data_files_count AS deleted,"
            ~ " added_delete_files_count + existing_delete_files_count + deleted_delete_files_count AS delete_files,"
            ~ " to_json(partition_summaries) AS summaries FROM " ~ relation ~ ".manifests") }}
{% endmacro %}

{% macro _iceberg_arrival_field(information, arrival, time_uom) %}
  {#- Where a manifest's partition summaries hold the arrival unit: {'spec', 'index'} when the table's default
      partition spec has the identity of the arrival column, a DATE, and the unit is a day; else none. From the
      table properties dbt's relation cache shows (current-schema, default-partition-spec). -#}
  {%- set re = modules.re -%}
  {%- set spec = re.search('default-partition-spec=(\\{"spec-id":\\d+,"fields":\\[.*?\\]\\})', information or '') -%}
  {%- set column = re.search('"id":(\\d+),"name":"' ~ re.escape(arrival) ~ '","required":(true|false),"type":"date"',
                             information or '', re.IGNORECASE) -%}
  {%- if time_uom != 'day' or spec is none or column is none -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set parsed = fromjson(spec.group(1)) -%}
  {%- for field in parsed.fields -%}
    {%- if field['source-id'] == column.group(1) | int and field.transform == 'identity' -%}
      {{ return({'spec': parsed['spec-id'], 'index': loop.index0}) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}

{% macro _iceberg_manifest_ranges(snapshot, manifests, field) %}
  {#- The arrival ranges of the files `snapshot` (_iceberg_path_of's) added or deleted, from its own manifests in
      the current list (_iceberg_manifests_sql's rows), when they hold exactly those files: data manifests of
      `field`'s spec, without existing entries, whose added and deleted files add up to the snapshot's summary,
      which names no delete file. Else none: its manifest entries tell (a merged manifest, a snapshot no longer
      in the list, delete files). -#}
  {%- set counts = snapshot.get('files') -%}
  {%- if field is none or counts is none or (counts[2] or 0) | int or (counts[3] or 0) | int -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set ranges = [] -%}
  {%- set total = namespace(added=0, deleted=0) -%}
  {%- for row in manifests if row[0] == snapshot.version -%}
    {%- if row[1] | int != 0 or row[2] | int != field.spec or row[4] | int != 0 or row[6] | int != 0 -%}
      {{ return(none) }}
    {%- endif -%}
    {%- set total.added = total.added + row[3] | int -%}
    {%- set total.deleted = total.deleted + row[5] | int -%}
    {%- set bound = fromjson(row[7])[field.index] -%}
    {#- a null bound reads 'null' (Iceberg's human string of no value; a DATE field has no such value), or is left
        out by to_json -#}
    {%- set lower, upper = bound.get('lower_bound'), bound.get('upper_bound') -%}
    {%- set lower = none if lower == 'null' else lower -%}
    {%- set upper = none if upper == 'null' else upper -%}
    {%- set only_nulls = bound.get('contains_null') == true and lower is none and upper is none -%}
    {%- if not only_nulls and (lower is none or upper is none) -%}
      {{ return(none) }}
    {%- endif -%}
    {#- a manifest of the NULL arrival partition's files only (only_nulls) names no unit -#}
    {%- if not only_nulls -%}
      {%- set days = [] -%}
      {%- for text in [lower, upper] -%}
        {%- do days.append(dbt_inc_join._unit_text(modules.datetime.date.fromisoformat(text[:10]))) -%}
      {%- endfor -%}
      {%- do ranges.append({'lower': days[0], 'upper': days[1], 'version': snapshot.version}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if total.added != (counts[0] or 0) | int or total.deleted != (counts[1] or 0) | int -%}
    {{ return(none) }}
  {%- endif -%}
  {{ return(ranges) }}
{% endmacro %}

{% macro _iceberg_path_of(rows, then, now) %}
  {#- The snapshots that changed the table between snapshot `then` and `now` (_iceberg_snapshots_sql's rows):
      those after their last common ancestor on either side (a rollback undoes the ones on `then`'s side), less
      `replace` snapshots (compaction rewrites the same rows): {'snapshots': [{'version', 'at', 'operation'}],
      'gone': true when a snapshot on the way is no longer kept (expired)}. -#}
  {%- set known = {} -%}
  {%- for row in rows -%}
    {%- do known.update({row[0]: {'version': row[0], 'parent': row[1], 'at': row[2], 'operation': row[3],
                                  'files': (row | list)[5:9] if row | length > 5 else none}}) -%}
  {%- endfor -%}
  {%- set lineage = {then: [], now: []} -%}
  {%- set broken = namespace(value=false) -%}
  {%- for start in [then, now] -%}
    {%- set walk = namespace(at=start) -%}
    {#- a walk visits each kept snapshot at most once: as many steps as there are, not a fixed bound (dbt's
        sandboxed Jinja takes about 5 microseconds a step, even a skipped one) -#}
    {%- for _ in range(known | length + 1) if walk.at is not none -%}
      {%- if walk.at not in known -%}
        {%- set broken.value = true -%}
        {%- set walk.at = none -%}
      {%- else -%}
        {%- do lineage[start].append(walk.at) -%}
        {%- set walk.at = known[walk.at].parent -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set common = lineage[then] | select('in', lineage[now]) | first -%}
  {%- if common is not defined or common is none -%}
    {{ return({'snapshots': [], 'gone': true}) }}
  {%- endif -%}
  {%- set changed = [] -%}
  {%- for start in [then, now] -%}
    {%- set walk = namespace(before_common=true) -%}
    {%- for id in lineage[start] -%}
      {%- set walk.before_common = walk.before_common and id != common -%}
      {%- if walk.before_common and known[id].operation != 'replace' and id not in changed | map(attribute='version') | list -%}
        {%- set entry = {'version': id, 'at': known[id].at, 'operation': known[id].operation,
                               'named': dbt_inc_join._commit_word('iceberg')} -%}
        {%- if known[id].files is not none -%}{%- do entry.update({'files': known[id].files}) -%}{%- endif -%}
        {%- do changed.append(entry) -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return({'snapshots': changed, 'gone': false}) }}
{% endmacro %}

{% macro _iceberg_entries_sql(relation, snapshots, arrival, time_uom) %}
  {#- The files each snapshot added or deleted (its own manifest entries of status 1, 2, read from the manifests of
      that snapshot: not all_entries, which reads every manifest of the table's history) with the units of their
      arrival bounds: (version, lower, upper, content, nulls); a delete file (content 1, 2) has no bounds of the
      column (lower none), nor has a data file of NULL arrivals only (nulls) or one written without the column's
      metrics. -#}
  {%- set metric = 'readable_metrics.' ~ dbt_inc_join._quote(arrival) -%}
  {%- set parts = [] -%}
  {%- for snapshot in snapshots -%}
    {%- do parts.append("SELECT '" ~ snapshot ~ "' AS version, "
                        ~ dbt_inc_join._unit_of_text_sql(metric ~ '.lower_bound', time_uom) ~ " AS lower, "
                        ~ dbt_inc_join._unit_of_text_sql(metric ~ '.upper_bound', time_uom) ~ " AS upper, "
                        ~ "data_file.content AS content, coalesce(data_file.content = 0 AND " ~ metric
                        ~ ".null_value_count = data_file.record_count, false) AS nulls FROM " ~ relation
                        ~ ".entries VERSION AS OF " ~ snapshot ~ " WHERE snapshot_id = " ~ snapshot ~ " AND status IN (1, 2)") -%}
  {%- endfor -%}
  {{ return(parts | join(' UNION ALL ')) }}
{% endmacro %}

{% macro _iceberg_entry_ranges(rows) %}
  {#- The arrival ranges in _iceberg_entries_sql's rows: {'ranges': [{'lower', 'upper', 'version'}], 'unknown': why
      a file's range cannot be told, or none}. A data file of NULL arrivals only changes no unit. -#}
  {%- set ranges = [] -%}
  {%- for row in rows -%}
    {%- if row[1] is not none and row[2] is not none -%}
      {%- do ranges.append({'lower': row[1], 'upper': row[2], 'version': row[0]}) -%}
    {%- elif not (row | length > 4 and row[4] == true) -%}
      {%- set what = 'a data file without the column\'s bounds (its metrics are not kept)' if row | length > 3 and row[3] == 0 else 'a delete file' -%}
      {{ return({'ranges': ranges, 'unknown': 'does not give the arrival range of a file of snapshot ' ~ row[0] ~ ' (' ~ what ~ ')'}) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'ranges': ranges, 'unknown': none}) }}
{% endmacro %}
