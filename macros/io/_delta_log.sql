{#- A Delta table's log as the log check reads it (spec §17, _input_log.sql): its commit files after a version
    (by name, or by pattern when the newest version is not known yet), the add and remove actions that change
    data with the arrival ranges of their files, and their parsing. Pure: SQL texts and rows in, values out. -#}

{% macro _delta_log_file(version) %}
  {{ return('%020d' | format(version | int) ~ '.json') }}
{% endmacro %}

{% macro _delta_versions_after(version) %}
  {#- Glob patterns of the commit files (20-digit names) after `version`, however many came since: for each digit,
      the names equal before it and larger at it, the last digit first. -#}
  {%- set digits = '%020d' | format(version | int) -%}
  {%- set patterns = [] -%}
  {%- for i in range(19, -1, -1) if digits[i] != '9' -%}
    {%- set next = digits[i] | int + 1 -%}
    {%- do patterns.append(digits[:i] ~ ('9' if next == 9 else '[' ~ next ~ '-9]') ~ '[0-9]' * (19 - i) ~ '.json') -%}
  {%- endfor -%}
  {{ return(patterns) }}
{% endmacro %}

{% macro _delta_log_sql(location, then, now, arrival, time_uom) %}
  {#- Delta's commits after version `then` up to `now`, one row per action that matters: (version, kind, at,
      operation, path, lower, upper). kind 'commit' (at, operation), 'add' or 'remove' with dataChange (lower and
      upper: the units of the file's arrival partition value, else of its statistics; none when it has neither,
      as a remove of a table not partitioned by the arrival column), 'checkpoint' (_last_checkpoint, read
      together: version). The commit files are named one by one, so a daily run reads one or two small files.
      `now` none: every commit file after `then` (_delta_versions_after), whose newest is the table's version now
      (_delta_changes_of); `then`'s own file is named too, so that the pattern always matches a file, and its
      commitInfo kept: whether the recorded version is still there. -#}
  {%- set files = [] -%}
  {%- if now is none -%}
    {%- set files = [dbt_inc_join._delta_log_file(then)] + dbt_inc_join._delta_versions_after(then) -%}
  {%- else -%}
    {%- for version in range(then | int + 1, now | int + 1) -%}
      {%- do files.append(dbt_inc_join._delta_log_file(version)) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set file_type = 'struct<path:string,partitionValues:map<string,string>,dataChange:boolean,stats:string>' -%}
  {%- set action_type = 'struct<commitInfo:struct<timestamp:bigint,operation:string>,add:' ~ file_type ~ ',remove:' ~ file_type ~ '>' -%}
  {%- set file = 'coalesce(action.add, action.remove)' -%}
  {%- set partition = 'try_element_at(' ~ file ~ ".partitionValues, '" ~ arrival ~ "')" -%}
  {%- set low = 'coalesce(' ~ partition ~ ', get_json_object(' ~ file ~ ".stats, '$.minValues[\\'" ~ arrival ~ "\\']'))" -%}
  {%- set high = 'coalesce(' ~ partition ~ ', get_json_object(' ~ file ~ ".stats, '$.maxValues[\\'" ~ arrival ~ "\\']'))" -%}
  {%- set columns = [
        "CASE WHEN file_name = '_last_checkpoint' THEN CAST(get_json_object(value, '$.version') AS BIGINT)"
          ~ " ELSE CAST(substr(file_name, 1, 20) AS BIGINT) END AS version",
        "CASE WHEN file_name = '_last_checkpoint' THEN 'checkpoint' WHEN action.commitInfo IS NOT NULL THEN 'commit'"
          ~ " WHEN action.add IS NOT NULL THEN 'add' ELSE 'remove' END AS kind",
        "date_format(timestamp_millis(action.commitInfo.timestamp), 'yyyy-MM-dd HH:mm:ss') AS at",
        'action.commitInfo.operation AS operation',
        file ~ '.path AS path',
        dbt_inc_join._unit_of_text_sql(low, time_uom) ~ ' AS lower',
        dbt_inc_join._unit_of_text_sql(high, time_uom) ~ ' AS upper'] -%}
  {{ return("SELECT " ~ columns | join(', ')
            ~ " FROM (SELECT value, _metadata.file_name AS file_name, from_json(value, '" ~ action_type ~ "') AS action"
            ~ " FROM text.`" ~ location ~ "/_delta_log/{" ~ (files + ['_last_checkpoint']) | join(',') ~ "}`)"
            ~ " WHERE file_name = '_last_checkpoint' OR ((action.commitInfo IS NOT NULL"
            ~ " OR coalesce(action.add.dataChange, action.remove.dataChange))"
            ~ " AND CAST(substr(file_name, 1, 20) AS BIGINT) > " ~ then | int ~ ")"
            ~ ("" if now is not none else " OR (action.commitInfo IS NOT NULL AND CAST(substr(file_name, 1, 20) AS BIGINT) = " ~ then | int ~ ")")) }}
{% endmacro %}

{% macro _delta_adds_sql(location, checkpoint, paths, arrival, time_uom) %}
  {#- The arrival range (path, lower, upper) of files a commit removed without their statistics, from the add
      actions that put them there: the commit files still kept, and the last checkpoint when there is one. -#}
  {%- set listed = paths | map('string') | map('replace', "'", "\\'") | list -%}
  {%- set wanted = "path IN ('" ~ listed | join("', '") ~ "')" -%}
  {%- set stats = [dbt_inc_join._unit_of_text_sql("get_json_object(stats, '$.minValues[\\'" ~ arrival ~ "\\']')", time_uom) ~ ' AS lower',
                   dbt_inc_join._unit_of_text_sql("get_json_object(stats, '$.maxValues[\\'" ~ arrival ~ "\\']')", time_uom) ~ ' AS upper'] -%}
  {%- set parts = ["SELECT action.add.path AS path, action.add.stats AS stats FROM (SELECT from_json(value, 'struct<add:struct<path:string,stats:string>>') AS action"
                   ~ " FROM text.`" ~ location ~ "/_delta_log/*.json`)"] -%}
  {%- if checkpoint is not none -%}
    {%- do parts.append("SELECT add.path AS path, add.stats AS stats FROM parquet.`" ~ location ~ "/_delta_log/"
                        ~ '%020d' | format(checkpoint | int) ~ ".checkpoint*.parquet`") -%}
  {%- endif -%}
  {{ return("SELECT path, " ~ stats | join(', ') ~ " FROM (" ~ parts | join(' UNION ALL ') ~ ") WHERE " ~ wanted) }}
{% endmacro %}

{% macro _delta_changes_of(rows, then, now, patterned=false) %}
  {#- The commits and changed ranges in _delta_log_sql's rows: {'commits': {version: {'version', 'at',
      'operation'}}, 'ranges': [{'lower', 'upper', 'version'}], 'unknown': [{'path', 'version'}] (removes whose
      range the commit does not give), 'checkpoint', 'now': the newest version (`now`, else the newest the rows
      show, at least `then`), 'gone': the versions up to it whose commit file is no longer kept, 'recorded_gone':
      rows read by pattern (patterned) without `then`'s commit and with no checkpoint at or after it (log
      retention, or a table created again under the name: its version unknown, now none)}. -#}
  {%- set found = {'commits': {}, 'ranges': [], 'unknown': [], 'checkpoint': none, 'gone': [], 'recorded_gone': false} -%}
  {%- set seen = [then | int] -%}
  {%- set kept = namespace(then=false) -%}
  {%- for row in rows -%}
    {%- set version = row[0] | int -%}
    {%- do seen.append(version) -%}
    {%- if row[1] != 'checkpoint' and version == then | int -%}
      {%- set kept.then = true -%}
    {%- elif row[1] == 'checkpoint' -%}
      {%- do found.update({'checkpoint': version}) -%}
    {%- elif row[1] == 'commit' -%}
      {%- do found.commits.update({version: {'version': version | string, 'at': row[2], 'operation': row[3]}}) -%}
    {%- elif row[5] is not none and row[6] is not none -%}
      {%- do found.ranges.append({'lower': row[5], 'upper': row[6], 'version': version}) -%}
    {%- else -%}
      {%- do found.unknown.append({'path': row[4], 'version': version}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- do found.update({'now': (seen | max) if now is none else now | int}) -%}
  {%- if patterned and not kept.then and (found.checkpoint is none or found.checkpoint < then | int) -%}
    {%- do found.update({'recorded_gone': true, 'now': none if now is none else now | int}) -%}
    {{ return(found) }}
  {%- endif -%}
  {%- for version in range(then | int + 1, found.now + 1) if version not in found.commits -%}
    {%- do found.gone.append(version) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}
