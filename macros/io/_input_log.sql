{#- Restated units read from the inputs' own logs (spec §17). A run that records its runs knows, for every input
    that is a Delta or Iceberg table, the version the last committed run read (the table property
    inc_join.input_versions) and the version it reads now (_input_versions.sql). The commits between the two name
    the arrival ranges whose rows were added or removed: Delta's add and remove actions with dataChange (partition
    values, else the file's min/max statistics), Iceberg's added and deleted manifest entries of the snapshots
    between the two (the column's bounds), less `replace` snapshots (compaction). The candidate units older than
    the run's own read range are then fingerprinted as of both versions (time travel): a unit is restated when
    the two differ, so a rewrite of the same rows names nothing. The check reads the log and the candidate units,
    never the whole history. The SQL texts and the parsing are pure (rows in, values out); _log_restated runs them. -#}

{% macro _unit_of_text_sql(expression, time_uom) %}
  {#- The arrival unit (as 'yyyy-MM-dd HH:mm:ss' text) of a value the log holds as text: a partition value or a
      statistic ('2025-03-04', '2025-03-04 10:00:00', '2025-03-04T10:00:00.000Z'). -#}
  {{ return("date_format(date_trunc('" ~ time_uom | upper ~ "', CAST(" ~ expression ~ " AS TIMESTAMP)), 'yyyy-MM-dd HH:mm:ss')") }}
{% endmacro %}

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
      (_delta_changes_of); `then`'s own file is named too, so that the pattern always matches a file. -#}
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
            ~ " AND CAST(substr(file_name, 1, 20) AS BIGINT) > " ~ then | int ~ ")") }}
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

{% macro _delta_changes_of(rows, then, now) %}
  {#- The commits and changed ranges in _delta_log_sql's rows: {'commits': {version: {'version', 'at',
      'operation'}}, 'ranges': [{'lower', 'upper', 'version'}], 'unknown': [{'path', 'version'}] (removes whose
      range the commit does not give), 'checkpoint', 'now': the newest version (`now`, else the newest the rows
      show, at least `then`), 'gone': the versions up to it whose commit file is no longer kept}. -#}
  {%- set found = {'commits': {}, 'ranges': [], 'unknown': [], 'checkpoint': none, 'gone': []} -%}
  {%- set seen = [then | int] -%}
  {%- for row in rows -%}
    {%- set version = row[0] | int -%}
    {%- do seen.append(version) -%}
    {%- if row[1] == 'checkpoint' -%}
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
  {%- for version in range(then | int + 1, found.now + 1) if version not in found.commits -%}
    {%- do found.gone.append(version) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _iceberg_snapshots_sql(relation) %}
  {#- An Iceberg table's snapshots (id, parent, at, operation) and, on every row, the main branch's (main): its
      version now and its log in one statement. -#}
  {{ return("SELECT CAST(snapshot_id AS STRING) AS id, CAST(parent_id AS STRING) AS parent,"
            ~ " date_format(committed_at, 'yyyy-MM-dd HH:mm:ss') AS at, operation,"
            ~ " (SELECT CAST(snapshot_id AS STRING) FROM " ~ relation ~ ".refs WHERE name = 'main') AS main"
            ~ " FROM " ~ relation ~ ".snapshots") }}
{% endmacro %}

{% macro _iceberg_path_of(rows, then, now) %}
  {#- The snapshots that changed the table between snapshot `then` and `now` (_iceberg_snapshots_sql's rows):
      those after their last common ancestor on either side (a rollback undoes the ones on `then`'s side), less
      `replace` snapshots (compaction rewrites the same rows): {'snapshots': [{'version', 'at', 'operation'}],
      'gone': true when a snapshot on the way is no longer kept (expired)}. -#}
  {%- set known = {} -%}
  {%- for row in rows -%}
    {%- do known.update({row[0]: {'version': row[0], 'parent': row[1], 'at': row[2], 'operation': row[3]}}) -%}
  {%- endfor -%}
  {%- set lineage = {then: [], now: []} -%}
  {%- set broken = namespace(value=false) -%}
  {%- for start in [then, now] -%}
    {%- set walk = namespace(at=start) -%}
    {%- for _ in range(100000) if walk.at is not none -%}
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
        {%- do changed.append({'version': id, 'at': known[id].at, 'operation': known[id].operation}) -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return({'snapshots': changed, 'gone': false}) }}
{% endmacro %}

{% macro _iceberg_entries_sql(relation, snapshots, arrival, time_uom) %}
  {#- The files each snapshot added or deleted (its own manifest entries of status 1, 2, read from the manifests of
      that snapshot: not all_entries, which reads every manifest of the table's history) with the units of their
      arrival bounds: (version, lower, upper); a delete file has no bounds of the column (lower none). -#}
  {%- set metric = 'readable_metrics.' ~ dbt_inc_join._quote(arrival) -%}
  {%- set parts = [] -%}
  {%- for snapshot in snapshots -%}
    {%- do parts.append("SELECT '" ~ snapshot ~ "' AS version, "
                        ~ dbt_inc_join._unit_of_text_sql(metric ~ '.lower_bound', time_uom) ~ " AS lower, "
                        ~ dbt_inc_join._unit_of_text_sql(metric ~ '.upper_bound', time_uom) ~ " AS upper FROM " ~ relation
                        ~ ".entries VERSION AS OF " ~ snapshot ~ " WHERE snapshot_id = " ~ snapshot ~ " AND status IN (1, 2)") -%}
  {%- endfor -%}
  {{ return(parts | join(' UNION ALL ')) }}
{% endmacro %}

{% macro _candidate_ranges(ranges, limit) %}
  {#- The changed ranges ({'lower', 'upper', 'version'}) clipped to units at or before `limit` (text), merged where
      they meet: [[lower, upper], ...], earliest first; more than 50 become one (the check's query stays short). -#}
  {%- set clipped = [] -%}
  {%- for range in ranges | sort(attribute='lower') if range.lower <= limit -%}
    {%- do clipped.append([range.lower, [range.upper, limit] | min]) -%}
  {%- endfor -%}
  {%- set merged = [] -%}
  {%- for pair in clipped -%}
    {%- if merged and pair[0] <= merged[-1][1] -%}
      {%- set last = merged.pop() -%}
      {%- do merged.append([last[0], [last[1], pair[1]] | max]) -%}
    {%- else -%}
      {%- do merged.append(pair) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if merged | length > 50 -%}
    {{ return([[merged[0][0], merged | map(attribute=1) | max]]) }}
  {%- endif -%}
  {{ return(merged) }}
{% endmacro %}

{% macro _as_of(relation, version) %}
  {#- A table as of a Delta version or an Iceberg snapshot. -#}
  {{ return(relation ~ ' VERSION AS OF ' ~ version) }}
{% endmacro %}

{% macro _log_restated_units(name, units, ranges, commits) %}
  {#- The units whose fingerprints as of the two versions differ (units: {'then': {unit: fp}, 'now': {...}}),
      each with the first commit (ranges' version → commits) whose range holds it: {input, unit, rows_then,
      rows_now, commit}. -#}
  {%- set then, now = units.get('then') or {}, units.get('now') or {} -%}
  {%- set found = [] -%}
  {%- for unit in (then.keys() | list + now.keys() | list) | unique | sort if then.get(unit) != now.get(unit) -%}
    {%- set holding = ranges | selectattr('lower', 'le', unit) | selectattr('upper', 'ge', unit) | list -%}
    {%- set first = (holding | sort(attribute='version') | first) if holding else none -%}
    {%- do found.append({'input': name, 'unit': unit, 'rows_then': dbt_inc_join._rows_of(then.get(unit)),
                         'rows_now': dbt_inc_join._rows_of(now.get(unit)),
                         'commit': none if first is none else commits.get(first.version)}) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _log_gone_message(target, relation, version, why) %}
  {{ return('inc_join ' ~ target ~ ': the log of ' ~ relation ~ ' since version ' ~ version ~ ' (what the last committed run read) '
            ~ why ~ '; its units before this run\'s read range are not checked from the log, only the read range by its fingerprints (spec §17).') }}
{% endmacro %}

{% macro _log_changes(run, side, then, now, time_uom, log=none) %}
  {#- The changes of one input between the versions `then` and `now`: {'ranges', 'commits', 'gone': none or why}.
      run: dbt's run_query, or the Python core's twin (a result with rows and column_names). log: the rows of its
      log since `then` when the run read them with its version (_input_state), else read here. -#}
  {%- set relation = now.relation -%}
  {%- set log = log if log is not none and log.since == then.version else none -%}
  {%- if now.format == 'delta' -%}
    {#- the location as dbt's relation cache showed it (_table_facts), else asked -#}
    {%- set location = now.get('location') -%}
    {%- if not location -%}
      {%- set detail = run('DESCRIBE DETAIL ' ~ relation) -%}
      {%- set location = detail.rows[0][(detail.column_names | list).index('location')] -%}
    {%- endif -%}
    {%- set rows = log.rows if log is not none else run(dbt_inc_join._delta_log_sql(location, then.version, now.version, side.arrival, time_uom)).rows -%}
    {%- set log = dbt_inc_join._delta_changes_of(rows, then.version, now.version) -%}
    {%- set ranges = log.ranges -%}
    {%- if log.unknown -%}
      {#- removes without statistics: their ranges from the add actions that put the files there -#}
      {%- set added = run(dbt_inc_join._delta_adds_sql(location, log.checkpoint, log.unknown | map(attribute='path') | list, side.arrival, time_uom)) -%}
      {%- set known = {} -%}
      {%- for row in added.rows if row[1] is not none -%}{%- do known.update({row[0]: row}) -%}{%- endfor -%}
      {%- for file in log.unknown -%}
        {%- if file.path in known -%}
          {%- do ranges.append({'lower': known[file.path][1], 'upper': known[file.path][2], 'version': file.version}) -%}
        {%- else -%}
          {{ return({'ranges': ranges, 'commits': log.commits, 'gone': 'does not give the arrival range of ' ~ file.path ~ ' (version ' ~ file.version ~ ')'}) }}
        {%- endif -%}
      {%- endfor -%}
    {%- endif -%}
    {%- set gone = none if not log.gone else 'is no longer kept (commit files of versions ' ~ log.gone | first ~ '..' ~ log.gone | last ~ ' removed by log retention)' -%}
    {{ return({'ranges': ranges, 'commits': log.commits, 'gone': gone}) }}
  {%- endif -%}
  {%- set rows = log.rows if log is not none else run(dbt_inc_join._iceberg_snapshots_sql(relation)).rows -%}
  {%- set path = dbt_inc_join._iceberg_path_of(rows, then.version, now.version) -%}
  {%- if path.gone -%}
    {{ return({'ranges': [], 'commits': {}, 'gone': 'is no longer kept (snapshots expired)'}) }}
  {%- endif -%}
  {%- set commits = {} -%}
  {%- for snapshot in path.snapshots -%}{%- do commits.update({snapshot.version: snapshot}) -%}{%- endfor -%}
  {%- if not commits -%}
    {{ return({'ranges': [], 'commits': {}, 'gone': none}) }}
  {%- endif -%}
  {%- set ranges = [] -%}
  {#- per input: one statement for all inputs' entries (a UNION ALL) took 0.55-0.64 s against 0.31-0.41 s for
      two (the log benchmark, 2026-11-29) -#}
  {%- for row in run(dbt_inc_join._iceberg_entries_sql(relation, commits.keys() | list, side.arrival, time_uom)).rows -%}
    {%- if row[1] is none or row[2] is none -%}
      {{ return({'ranges': ranges, 'commits': commits, 'gone': 'does not give the arrival range of a file of snapshot ' ~ row[0] ~ ' (a delete file)'}) }}
    {%- endif -%}
    {%- do ranges.append({'lower': row[1], 'upper': row[2], 'version': row[0]}) -%}
  {%- endfor -%}
  {{ return({'ranges': ranges, 'commits': commits, 'gone': none}) }}
{% endmacro %}

{% macro _log_restated(run, target, window, sides, previous, queried, recorded) %}
  {#- The restated units of every Delta and Iceberg input older than this run's read range (queried; all of them
      on a run with no window), found from the input's log since the version the last committed run read
      (recorded: inc_join.input_versions) and confirmed by fingerprints as of both versions: {'found': [...],
      'notes': [one line per input whose log is gone], 'covered': the inputs whose every unit before the read
      range the log checked (no commit since, or a log read in full)}. run: as _log_changes'; target: the
      model's table. -#}
  {%- set result = {'found': [], 'notes': [], 'covered': []} -%}
  {%- set time_uom = window.time_uom -%}
  {%- set logs = window.get('input_logs') or {} -%}
  {#- the inputs with a recorded version, a newer one now and units the committed run read -#}
  {%- set checks = [] -%}
  {%- for now in window.get('input_versions') or [] -%}
    {%- set since = dbt_inc_join._recorded_version(recorded, now.input, now.relation, now.format) -%}
    {%- set read = ((previous or {}).get('ranges') or {}).get(now.input) -%}
    {%- set side = sides | selectattr('name', 'equalto', now.input) | list -%}
    {%- if since and now.version and since != now.version and read and read[1] and side -%}
      {%- do checks.append({'now': now, 'then': {'version': since}, 'read': read, 'side': side[0]}) -%}
    {%- elif since and since == now.version -%}
      {%- do result.covered.append(now.input) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- for check in checks -%}
    {%- set now, then, read, side = check.now, check.then, check.read, check.side -%}
    {%- set changes = dbt_inc_join._log_changes(run, side, then, now, time_uom, logs.get(now.input)) -%}
    {%- if changes.gone -%}
      {#- the recorded version may not be readable either: no time travel to it -#}
      {%- do result.notes.append(dbt_inc_join._log_gone_message(target, now.relation, then.version, changes.gone)) -%}
      {%- do changes.update({'ranges': []}) -%}
    {%- else -%}
      {%- do result.covered.append(now.input) -%}
    {%- endif -%}
    {#- units before the run's read range (those in it are fingerprinted anyway), at most the last one read -#}
    {%- set own = (queried.get(now.input) or [none])[0] -%}
    {%- set limit = read[1] if own is none else [read[1], dbt_inc_join._unit_text(dbt_inc_join._shift_value(dbt_inc_join._parse_text_value(own, time_uom), -1, time_uom))] | min -%}
    {%- set candidates = dbt_inc_join._candidate_ranges(changes.ranges, limit) -%}
    {%- if candidates -%}
      {%- set queries = [] -%}
      {%- for label, version in [('then', then.version), ('now', now.version)] -%}
        {%- set as_of = side.copy() -%}
        {%- do as_of.update({'name': label, 'relation': dbt_inc_join._as_of(now.relation, version)}) -%}
        {%- for pair in candidates -%}
          {%- do queries.append(dbt_inc_join._fingerprint_query(as_of, dbt_inc_join._parse_text_value(pair[0], time_uom),
                                                                dbt_inc_join._parse_text_value(pair[1], time_uom), time_uom)) -%}
        {%- endfor -%}
      {%- endfor -%}
      {%- set units = dbt_inc_join._units_of(run(queries | join('\nUNION ALL\n')).rows) -%}
      {%- do result.found.extend(dbt_inc_join._log_restated_units(now.input, units, changes.ranges, changes.commits)) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(result) }}
{% endmacro %}
