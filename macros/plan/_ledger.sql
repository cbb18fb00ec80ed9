{#- Where an incremental run starts when its model records its runs, and how much of the way it goes
    (max_window_units), spec §13. -#}

{% macro _ledger_state(ledger, relation) %}
  {#- What the ledger knows of the table behind `relation`: its table_id (none: the table was never recorded,
      e.g. made before the model had the hook), and of the runs committed on that table the last window
      (end, start) and the rows that run wrote. The post-hook mirrors the table's last committed record in the
      table property inc_join.committed after it wrote the record, so a run reads one property, whatever the
      ledger's size; without the property (a table whose first run was killed) the ledger is read.
      ledger_query reads the same from the ledger: a run whose table holds rows after the property's window
      (the property is written after the record, so it may be one record behind) reads it (_committed_state). -#}
  {%- set properties = dbt_inc_join._table_properties(relation) -%}
  {%- set table_id = properties.get('inc_join.table_id') -%}
  {#- redo_pending: the start of a redo that has not recorded its run yet (spec §14, _begin_redo); fingerprints:
      what the last committed run read (_check_restated) -#}
  {%- set state = {'ledger': ledger | string, 'table_id': table_id, 'committed_end': none, 'last_start': none,
                   'last_rows': none, 'source': none, 'ledger_query': none,
                   'redo_pending': properties.get('inc_join.redo_from'),
                   'fingerprints': properties.get('inc_join.fingerprints'),
                   'outstanding': properties.get('inc_join.outstanding'), 'records_query': none,
                   'input_versions': properties.get('inc_join.input_versions'),
                   'relation': relation | string, 'file_format': config.get('file_format'),
                   'last_commit_query': none, 'last_commit': none, 'start_snapshot': none} -%}
  {%- if table_id is none -%}
    {{ return(state) }}
  {%- endif -%}
  {#- on Iceberg, the snapshot this run starts from, read before anything else: record_run finds another run's
      commit of an overlapping window after it (_concurrent_commit) -#}
  {%- do state.update({'start_snapshot': dbt_inc_join._current_snapshot(relation, config.get('file_format'))}) -%}
  {#- on Delta and Iceberg, the query of the table's commits: a commit without a record is named in the start's
      reason (_last_commit, read only then: _committed_state) -#}
  {%- do state.update({'last_commit_query': dbt_inc_join._last_commit_sql(relation, config.get('file_format'))}) -%}
  {%- do state.update({'ledger_query': dbt_inc_join._ledger_state_sql(ledger, relation, table_id),
                       'records_query': dbt_inc_join._ledger_records_sql(ledger, relation, table_id)}) -%}
  {%- set committed = properties.get('inc_join.committed') -%}
  {%- if committed -%}
    {%- set committed = fromjson(committed) -%}
    {%- do state.update({'committed_end': committed.window_end, 'last_start': committed.window_start,
                         'last_rows': committed.rows_total, 'source': 'table property inc_join.committed'}) -%}
    {{ return(state) }}
  {%- endif -%}
  {{ return(dbt_inc_join._ledger_state_from_ledger(ledger, state)) }}
{% endmacro %}

{% macro _ledger_state_sql(ledger, relation, table_id) %}
  {{ return("SELECT date_format(window_end, 'yyyy-MM-dd HH:mm:ss') AS window_end,"
            ~ " date_format(window_start, 'yyyy-MM-dd HH:mm:ss') AS window_start, rows_total"
            ~ " FROM " ~ ledger
            ~ " WHERE relation = " ~ dbt_inc_join._text_literal(relation | string)
            ~ " AND table_id = " ~ dbt_inc_join._text_literal(table_id)
            ~ " AND NOT empty"
            ~ " ORDER BY window_end DESC, finished_at DESC LIMIT 1") }}
{% endmacro %}

{% macro _ledger_state_from_ledger(ledger, state) %}
  {#- The state read from the ledger itself (its whole history: the slow path, see _ledger_state). -#}
  {%- set state = state.copy() -%}
  {%- do state.update({'committed_end': none, 'last_start': none, 'last_rows': none, 'source': 'ledger'}) -%}
  {%- if adapter.get_relation(database=ledger.database, schema=ledger.schema, identifier=ledger.identifier) is none -%}
    {{ return(state) }}
  {%- endif -%}
  {%- set found = run_query(state.ledger_query) -%}
  {%- if found.rows | length > 0 -%}
    {%- do state.update({'committed_end': found.rows[0][0], 'last_start': found.rows[0][1],
                         'last_rows': found.rows[0][2]}) -%}
  {%- endif -%}
  {{ return(state) }}
{% endmacro %}

{% macro _latest_output_arrival(relation, inc_col, time_uom, since) %}
  {#- max(inc_col) in the model's table (a unit value or none), from `since` on when given. -#}
  {%- set found = run_query(dbt_inc_join._latest_output_arrival_sql(relation, inc_col, since, dbt_inc_join._table_facts(relation).format)) -%}
  {{ return(dbt_inc_join._parse_text_value(found.rows[0][0], time_uom)) }}
{% endmacro %}

{% macro _latest_output_arrival_sql(relation, inc_col, since, table_format=none) %}
  {#- The query of _latest_output_arrival, for a Python model too: the filter keeps to the partitions (Delta,
      Iceberg: the files) of the last committed window when the table is partitioned by its arrival column
      (_arrival_compared_sql). -#}
  {%- set column = dbt_inc_join._quote(inc_col) -%}
  {%- set where = '' if since is none else ' WHERE ' ~ dbt_inc_join._arrival_compared_sql(column, '>=', dbt_inc_join._moment_literal(since), table_format) -%}
  {{ return("SELECT date_format(max(" ~ column ~ "), 'yyyy-MM-dd HH:mm:ss') FROM " ~ relation ~ where) }}
{% endmacro %}

{% macro _committed_state(ledger, relation, inc_col, time_uom) %}
  {#- The ledger's state of the table and the table's latest output arrival, reading no more than needed:
      - the table's rows from the last committed window's start on give its latest arrival when it has any;
      - the whole table only when it has none there although that window wrote rows (rows gone);
      - the ledger only when the table holds rows after the window the table property names;
      - the table's commits (Delta, Iceberg) only when it still does after the ledger's last window: a run
        committed them without a record, and the start's reason names that commit. -#}
  {%- set state = dbt_inc_join._ledger_state(ledger, relation) -%}
  {%- set since = none if state.committed_end is none else dbt_inc_join._parse_text_value(state.last_start, time_uom) -%}
  {%- set latest = dbt_inc_join._latest_output_arrival(relation, inc_col, time_uom, since) -%}
  {%- if state.source != 'ledger' and state.committed_end is not none
         and latest is not none and latest > dbt_inc_join._parse_text_value(state.committed_end, time_uom) -%}
    {%- set state = dbt_inc_join._ledger_state_from_ledger(ledger, state) -%}
  {%- endif -%}
  {%- if state.committed_end is not none and latest is not none
         and latest > dbt_inc_join._parse_text_value(state.committed_end, time_uom) -%}
    {%- do state.update({'last_commit': dbt_inc_join._last_commit(state)}) -%}
  {%- endif -%}
  {%- if since is not none and latest is none and state.last_rows -%}
    {%- set latest = dbt_inc_join._latest_output_arrival(relation, inc_col, time_uom, none) -%}
  {%- endif -%}
  {{ return({'state': state, 'latest': latest}) }}
{% endmacro %}

{% macro _ledger_start(state, latest, inc_col, time_uom) %}
  {#- The start of an incremental run from the ledger state and the table's latest output arrival (a unit value
      or none), with its reason; none when the table was never recorded (then the table decides, as without
      the ledger).
      - no committed run of this table: the run that made it was killed; start from the beginning;
      - the table holds rows after the last committed window: a run wrote and was killed before it recorded
        (or inside its renames); start after the committed window, so that run is done again;
      - the last committed run wrote rows, but the table has none from that window's start on: they are gone;
        start after the table's latest arrival;
      - else after the last committed window. -#}
  {%- if state.table_id is none -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set where = 'in ' ~ state.ledger ~ ' (table_id ' ~ state.table_id ~ ')' -%}
  {%- if state.committed_end is none -%}
    {{ return({'start': none, 'reason': 'no committed run of this table ' ~ where ~ ': the run that created it did not finish'}) }}
  {%- endif -%}
  {%- set committed_end = dbt_inc_join._parse_text_value(state.committed_end, time_uom) -%}
  {%- set last_start = dbt_inc_join._parse_text_value(state.last_start, time_uom) -%}
  {%- set after_ledger = dbt_inc_join._shift_value(committed_end, 1, time_uom) -%}
  {%- set column = 'max(' ~ inc_col ~ ') in this' -%}
  {%- if latest is not none and latest > committed_end -%}
    {{ return({'start': after_ledger, 'reason': 'last committed window ' ~ where ~ ' ends ' ~ committed_end ~ ' + 1 ' ~ time_uom
               ~ '; ' ~ column ~ ' is ' ~ latest ~ ', written by a run that did not record its commit'
               ~ dbt_inc_join._unrecorded_commit_text(state.get('last_commit'), committed_end, time_uom) ~ ': doing it again'}) }}
  {%- endif -%}
  {%- if state.last_rows and (latest is none or latest < last_start) -%}
    {%- set start = none if latest is none else dbt_inc_join._shift_value(latest, 1, time_uom) -%}
    {{ return({'start': start, 'reason': column ~ ' is ' ~ (latest or 'none') ~ ', before the last committed window '
               ~ last_start ~ '..' ~ committed_end ~ ' ' ~ where ~ ', which wrote ' ~ state.last_rows
               ~ ' rows: starting from the table'}) }}
  {%- endif -%}
  {{ return({'start': after_ledger, 'reason': 'last committed window ' ~ where ~ ' ends ' ~ committed_end ~ ' + 1 ' ~ time_uom}) }}
{% endmacro %}

{% macro _unrecorded_commit_text(commit, committed_end, time_uom) %}
  {#- The commit of a run the ledger has no record of, as the start's reason names it: its window ends after the
      last committed one (_last_commit; empty text when there is none). -#}
  {%- set window_end = commit.run.window_end if commit else none -%}
  {%- if not window_end or dbt_inc_join._parse_text_value(window_end, time_uom) <= committed_end -%}
    {{ return('') }}
  {%- endif -%}
  {{ return(' (' ~ commit.version ~ ' at ' ~ commit.at ~ ', ' ~ commit.operation ~ ', run ' ~ commit.run.inc_join_run
            ~ ', window ' ~ (commit.run.window_start or 'from the beginning') ~ '..' ~ window_end ~ ')') }}
{% endmacro %}

{% macro _max_window_units(value) %}
  {#- The cap of spec §13: argument > var inc_join_max_window_units; none: no cap. -#}
  {%- set parameter = 'max_window_units' -%}
  {%- if value is none -%}
    {%- set value = var('inc_join_max_window_units', none) -%}
    {%- set parameter = 'inc_join_max_window_units' -%}
  {%- endif -%}
  {{ return(dbt_inc_join._check_window_cap(value, parameter)) }}
{% endmacro %}

{% macro _check_window_cap(value, parameter, spelling='sql') %}
  {#- A positive whole number of units, or none (no cap); both languages show the value as Jinja does. -#}
  {%- if value is none or value == '' -%}
    {{ return(none) }}
  {%- endif -%}
  {%- if value is not integer or value is boolean or value < 1 -%}
    {{ dbt_inc_join._fail(parameter ~ ' must be a positive whole number of time_uom units, e.g. 31 (got ' ~ dbt_inc_join._repr(value) ~ ').', 'window_cap', spelling) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _units_between(later, earlier, time_uom) %}
  {%- set gap = later - earlier -%}
  {%- if time_uom == 'day' -%}{{ return(gap.days) }}{%- endif -%}
  {{ return(((gap.days * 86400 + gap.seconds) // (3600 if time_uom == 'hour' else 60)) | int) }}
{% endmacro %}

{% macro _cap_window(start, end, empty, max_window_units, time_uom) %}
  {#- A run finalises at most max_window_units units: a first run over years, or a catch-up after downtime,
      goes in committed chunks, one per dbt run. -#}
  {%- set cap = dbt_inc_join._max_window_units(max_window_units) -%}
  {%- if cap is none or empty or start is none -%}
    {{ return({'end': end, 'units_behind': 0, 'reason': none}) }}
  {%- endif -%}
  {%- set last = dbt_inc_join._shift_value(start, cap - 1, time_uom) -%}
  {%- if end <= last -%}
    {{ return({'end': end, 'units_behind': 0, 'reason': none}) }}
  {%- endif -%}
  {%- set behind = dbt_inc_join._units_between(end, last, time_uom) -%}
  {{ return({'end': last, 'units_behind': behind,
             'reason': 'max_window_units=' ~ cap ~ ': caught up to ' ~ last ~ ', '
                       ~ dbt_inc_join._units_text(behind, time_uom) ~ ' behind ' ~ end}) }}
{% endmacro %}
