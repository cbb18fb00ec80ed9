{#- A Delta table's log as the log check reads it (spec §17, _input_log.sql): its commit files after a version
    (on a local file system by name, so that a run looks up a few files instead of listing every commit; else,
    and past a few, by pattern), the add and remove actions that change data with the arrival ranges of their
    files, and their parsing. Pure: SQL texts and rows in, values out. -#}

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

{% macro _delta_named_commits() %}
  {#- How many commit files after the recorded version a run names one by one before it lists the log (a daily
      run finds one or two). -#}
  {{ return(8) }}
{% endmacro %}

{% macro _delta_log_by_name(location) %}
  {#- Whether a log is read by name: on a local file system, where a listing reads every entry of the folder (every
      commit of the log's retention, 30 days by default, with their checksums) and a name is one lookup. On an
      object store or HDFS a listing is one request per 1,000 names and a name that is not there one or two:
      there the pattern's listing is the cheaper read. -#}
  {{ return(location.startswith('file:') or location.startswith('/')) }}
{% endmacro %}

{% macro _delta_log_path(location, names) %}
  {#- The path of some of a Delta table's log files, for Spark's file sources. Each name holds the folder, so that
      Hadoop's glob expands the braces into paths of their own and looks each up (a brace inside the folder
      would list it). _last_checkpoint rides along, never read (Spark skips files named with a leading '_'):
      a table with a checkpoint has it, a table without one still has its first commit files, so the path never
      matches nothing. -#}
  {%- set paths = [] -%}
  {%- for name in names + ['_last_checkpoint'] -%}
    {%- do paths.append('_delta_log/' ~ name) -%}
  {%- endfor -%}
  {{ return(location ~ '/{' ~ paths | join(',') ~ '}') }}
{% endmacro %}

{% macro _delta_file_arrival(file, arrival, time_uom) %}
  {#- An add or remove action's file (`file`: its struct with partitionValues and stats) as SQL of [lower, upper,
      nulls]: the units of its arrival partition's value, else of its statistics' bounds; nulls: every arrival of
      the file is NULL (the partition's value, else as many NULLs counted as rows), so its rows are in no unit.
      Delta leaves a NULL partition value out of a remove's partitionValues: the file's add tells. -#}
  {%- set partition = 'try_element_at(' ~ file ~ ".partitionValues, '" ~ arrival ~ "')" -%}
  {%- set found = [] -%}
  {%- for side in ['minValues', 'maxValues'] -%}
    {%- do found.append(dbt_inc_join._unit_of_text_sql('coalesce(' ~ partition ~ ', get_json_object(' ~ file ~ ".stats, '$."
                                                       ~ side ~ "[\\'" ~ arrival ~ "\\']'))", time_uom)) -%}
  {%- endfor -%}
  {%- set counted = 'get_json_object(' ~ file ~ ".stats, '$.nullCount[\\'" ~ arrival ~ "\\']') = get_json_object("
                    ~ file ~ ".stats, '$.numRecords')" -%}
  {%- do found.append('coalesce(CASE WHEN map_contains_key(' ~ file ~ ".partitionValues, '" ~ arrival ~ "') THEN "
                      ~ partition ~ ' IS NULL ELSE ' ~ counted ~ ' END, false)') -%}
  {{ return(found) }}
{% endmacro %}

{% macro _delta_log_sql(location, then, now, arrival, time_uom, listed=false) %}
  {#- Delta's commits after version `then` up to `now`, one row per action that matters: (version, kind, at,
      operation, path, lower, upper, nulls). kind 'commit' (at, operation), 'add' or 'remove' with dataChange (lower and
      upper: the units of the file's arrival partition value, else of its statistics; none when it has neither,
      as a remove of a table not partitioned by the arrival column; nulls: _delta_file_arrival's), 'rewritten': a
      remove without dataChange (compaction: the same rows; its path only, a file `then` read that VACUUM may have
      deleted since). Which commit files, by pattern
      (_delta_versions_after) where the log is not read by name (_delta_log_by_name) or `listed`, else:
      - `now` given: each one after `then`, by name (by pattern beyond _delta_named_commits of them);
      - `now` none: `then`'s own and the next _delta_named_commits, by name. The newest the rows show is the
        table's version now (_delta_changes_of) unless it is the last name (_delta_log_more): then the rest is read
        listed.
      With `now` none, `then`'s commitInfo is kept: whether the recorded version is still there. -#}
  {%- set reach = dbt_inc_join._delta_named_commits() -%}
  {%- set named = [] -%}
  {%- if not listed and dbt_inc_join._delta_log_by_name(location) -%}
    {%- if now is none -%}
      {%- set named = range(then | int, then | int + reach + 1) | list -%}
    {%- elif now | int - then | int <= reach -%}
      {%- set named = range(then | int + 1, now | int + 1) | list -%}
    {%- endif -%}
  {%- endif -%}
  {%- if named -%}
    {%- set names = [] -%}
    {%- for version in named -%}{%- do names.append(dbt_inc_join._delta_log_file(version)) -%}{%- endfor -%}
    {%- set path = dbt_inc_join._delta_log_path(location, names) -%}
  {%- else -%}
    {%- set patterns = dbt_inc_join._delta_versions_after(then) -%}
    {#- _last_checkpoint, never read, keeps the pattern matching a file when retention removed the commits since -#}
    {%- set path = location ~ '/_delta_log/{' ~ ([dbt_inc_join._delta_log_file(then)] + patterns + ['_last_checkpoint']) | join(',') ~ '}' -%}
  {%- endif -%}
  {%- set version = 'CAST(substr(file_name, 1, 20) AS BIGINT)' -%}
  {%- set file_type = 'struct<path:string,partitionValues:map<string,string>,dataChange:boolean,stats:string>' -%}
  {%- set action_type = 'struct<commitInfo:struct<timestamp:bigint,operation:string>,add:' ~ file_type ~ ',remove:' ~ file_type ~ '>' -%}
  {%- set file = 'coalesce(action.add, action.remove)' -%}
  {%- set arrival_of = dbt_inc_join._delta_file_arrival(file, arrival, time_uom) -%}
  {%- set columns = [
        version ~ ' AS version',
        "CASE WHEN action.commitInfo IS NOT NULL THEN 'commit' WHEN action.add IS NOT NULL THEN 'add'"
          ~ " WHEN coalesce(action.remove.dataChange, true) THEN 'remove' ELSE 'rewritten' END AS kind",
        "date_format(timestamp_millis(action.commitInfo.timestamp), 'yyyy-MM-dd HH:mm:ss') AS at",
        'action.commitInfo.operation AS operation',
        file ~ '.path AS path',
        arrival_of[0] ~ ' AS lower',
        arrival_of[1] ~ ' AS upper',
        arrival_of[2] ~ ' AS nulls'] -%}
  {%- set later = version ~ ' > ' ~ then | int ~ ('' if now is none else ' AND ' ~ version ~ ' <= ' ~ now | int) -%}
  {{ return("SELECT " ~ columns | join(', ')
            ~ " FROM (SELECT value, _metadata.file_name AS file_name, from_json(value, '" ~ action_type ~ "') AS action"
            ~ " FROM text.`" ~ path ~ "`)"
            ~ " WHERE ((action.commitInfo IS NOT NULL OR action.add.dataChange OR action.remove IS NOT NULL)"
            ~ " AND " ~ later ~ ")"
            ~ ("" if now is not none else " OR (action.commitInfo IS NOT NULL AND " ~ version ~ " = " ~ then | int ~ ")")) }}
{% endmacro %}

{% macro _delta_log_more(location, then, now) %}
  {#- Whether a log read by name from `then` (now none) may have missed later commits: its newest is the last name. -#}
  {{ return(dbt_inc_join._delta_log_by_name(location) and now is not none
            and now | int >= then | int + dbt_inc_join._delta_named_commits()) }}
{% endmacro %}

{% macro _delta_adds_sql(location, paths, arrival, time_uom) %}
  {#- The arrival range (path, lower, upper, nulls) of files a commit removed without it, from the add actions that
      put them there, in the commit files still kept (a checkpoint's name is not known without _last_checkpoint,
      which Spark does not read: an add only a checkpoint holds names the log gone). -#}
  {%- set listed = paths | map('string') | map('replace', "'", "\\'") | list -%}
  {%- set arrival_of = dbt_inc_join._delta_file_arrival('action.add', arrival, time_uom) -%}
  {{ return("SELECT action.add.path AS path, " ~ arrival_of[0] ~ " AS lower, " ~ arrival_of[1] ~ " AS upper, "
            ~ arrival_of[2] ~ " AS nulls FROM (SELECT from_json(value, "
            ~ "'struct<add:struct<path:string,partitionValues:map<string,string>,stats:string>>') AS action"
            ~ " FROM text.`" ~ location ~ "/_delta_log/*.json`) WHERE action.add.path IN ('" ~ listed | join("', '") ~ "')") }}
{% endmacro %}

{% macro _delta_changes_of(rows, then, now, patterned=false) %}
  {#- The commits and changed ranges in _delta_log_sql's rows: {'commits': {version: {'version', 'at',
      'operation'}}, 'ranges': [{'lower', 'upper', 'version'}], 'unknown': [{'path', 'version'}] (removes whose
      range the commit does not give), 'removed': the paths of every file removed (what `then` read and the
      table no longer does), 'now': the newest version (`now`, else the newest the rows show, at least
      `then`), 'gone': the versions up to it whose commit file is no longer kept, 'recorded_gone': rows read with
      `then`'s own file (patterned) but without its commit (log retention, or a table created again under the
      name: its version unknown, now none)}. -#}
  {%- set found = {'commits': {}, 'ranges': [], 'unknown': [], 'removed': [], 'gone': [], 'recorded_gone': false} -%}
  {%- set seen = [then | int] -%}
  {%- set kept = namespace(then=false) -%}
  {%- for row in rows -%}
    {%- set version = row[0] | int -%}
    {%- do seen.append(version) -%}
    {%- if version == then | int -%}
      {%- set kept.then = true -%}
    {%- elif row[1] == 'commit' -%}
      {%- do found.commits.update({version: {'version': version | string, 'at': row[2], 'operation': row[3]}}) -%}
    {%- elif row[1] == 'rewritten' -%}
      {%- do found.removed.append(row[4]) -%}
    {%- elif row[5] is not none and row[6] is not none -%}
      {%- do found.ranges.append({'lower': row[5], 'upper': row[6], 'version': version}) -%}
    {%- elif row | length > 7 and row[7] == true -%}
      {#- a file of NULL arrivals only: no unit changed -#}
    {%- else -%}
      {%- do found.unknown.append({'path': row[4], 'version': version}) -%}
    {%- endif -%}
    {%- if row[1] == 'remove' and version != then | int -%}
      {%- do found.removed.append(row[4]) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- do found.update({'now': (seen | max) if now is none else now | int}) -%}
  {%- if patterned and not kept.then -%}
    {%- do found.update({'recorded_gone': true, 'now': none if now is none else now | int}) -%}
    {{ return(found) }}
  {%- endif -%}
  {%- for version in range(then | int + 1, found.now + 1) if version not in found.commits -%}
    {%- do found.gone.append(version) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _delta_path_glob(path) %}
  {#- A file path of Delta's log (relative, URI-encoded) as it is on disk, escaped for a Hadoop glob; none when it
      cannot be told here (an absolute path, or a non-ASCII escape). -#}
  {%- if ':' in path.split('/')[0] or path.startswith('/') -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set parts = path.split('%') -%}
  {%- set decoded = [parts[0]] -%}
  {%- for part in parts[1:] -%}
    {%- set byte = part[:2] | int(-1, 16) -%}
    {%- if part | length < 2 or byte < 32 or byte > 126 -%}
      {{ return(none) }}
    {%- endif -%}
    {%- do decoded.append('%c' | format(byte) ~ part[2:]) -%}
  {%- endfor -%}
  {%- set escaped = namespace(text=decoded | join('')) -%}
  {%- for special in ['\\', '{', '}', '[', ']', '*', '?', ','] -%}
    {%- set escaped.text = escaped.text.replace(special, '\\' ~ special) -%}
  {%- endfor -%}
  {{ return(escaped.text) }}
{% endmacro %}

{% macro _delta_files_kept_sql(location, paths, now) %}
  {#- How many of the files `paths` (_delta_changes_of's removed) are still there, counted from a listing of their
      names (no file is read): the query's `kept`, less one for the commit file of version `now`, which rides along
      so that the pattern never matches nothing. none when a path cannot be told (_delta_path_glob). -#}
  {%- set globs = [] -%}
  {%- for path in paths | unique -%}
    {%- set glob = dbt_inc_join._delta_path_glob(path) -%}
    {%- if glob is none -%}
      {{ return(none) }}
    {%- endif -%}
    {%- do globs.append(glob) -%}
  {%- endfor -%}
  {%- do globs.append('_delta_log/' ~ dbt_inc_join._delta_log_file(now)) -%}
  {{ return("SELECT count(*) - 1 AS kept FROM binaryFile.`" ~ location ~ "/{" ~ globs | join(',') ~ "}`") }}
{% endmacro %}
