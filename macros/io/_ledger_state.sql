{#- The state of the model's own table that a run starts from (spec §13): the ledger's record of it, the table's
    latest output arrival, and where an incremental run starts after what the table holds. The rules they apply
    are plan's (_ledger_start, _redo_start: plan/_ledger.sql, plan/_window_rules.sql). -#}

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
                   'relation': relation | string, 'file_format': dbt_inc_join._file_format(),
                   'last_commit_query': none, 'last_commit': none, 'start_snapshot': none} -%}
  {%- if table_id is none -%}
    {{ return(state) }}
  {%- endif -%}
  {#- on Iceberg, the snapshot this run starts from, read before anything else: record_run finds another run's
      commit of an overlapping window after it (_concurrent_commit) -#}
  {%- do state.update({'start_snapshot': dbt_inc_join._current_snapshot(relation, dbt_inc_join._file_format())}) -%}
  {#- on Delta and Iceberg, the query of the table's commits: a commit without a record is named in the start's
      reason (_last_commit, read only then: _committed_state) -#}
  {%- do state.update({'last_commit_query': dbt_inc_join._last_commit_sql(relation, dbt_inc_join._file_format())}) -%}
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
  {#- the last committed run that wrote a window; an empty one only when every run so far had an empty window -#}
  {{ return("SELECT date_format(window_end, 'yyyy-MM-dd HH:mm:ss') AS window_end,"
            ~ " date_format(window_start, 'yyyy-MM-dd HH:mm:ss') AS window_start, rows_total, empty"
            ~ " FROM " ~ ledger
            ~ " WHERE relation = " ~ dbt_inc_join._text_literal(relation | string)
            ~ " AND table_id = " ~ dbt_inc_join._text_literal(table_id)
            ~ " ORDER BY empty, window_end DESC, finished_at DESC LIMIT 1") }}
{% endmacro %}

{% macro _ledger_state_from_ledger(ledger, state) %}
  {#- The state read from the ledger itself (its whole history: the slow path, see _ledger_state). -#}
  {%- set state = state.copy() -%}
  {%- do state.update({'committed_end': none, 'last_start': none, 'last_rows': none, 'source': 'ledger'}) -%}
  {%- if adapter.get_relation(database=ledger.database, schema=ledger.schema, identifier=ledger.identifier) is none -%}
    {{ return(state) }}
  {%- endif -%}
  {%- set found = run_query(state.ledger_query) -%}
  {%- if found.rows | length > 0 and found.rows[0][3] -%}
    {%- do state.update({'empty_runs': true}) -%}
  {%- elif found.rows | length > 0 -%}
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

{% macro _start_after_this(explicit, inc_col, time_uom, redo=none) %}
  {#- The start a run is given, else (incremental) the one after what this holds: after the last committed
      window when the model records its runs (spec §13), else max(inc_col) in this + 1 unit; start none: from
      the earliest arrival (_earliest_start). ledger_reason: why the ledger sent the run there. Then a redo
      that starts earlier (_redo_start): redo_from is its start. -#}
  {%- set found = {'start': explicit.start, 'reason': explicit.start_reason, 'ledger_reason': none, 'redo_from': none} -%}
  {%- if explicit.start is not none or not is_incremental() -%}
    {{ return(found) }}
  {%- endif -%}
  {%- set redo_var = var('inc_join_redo_from', none) -%}
  {%- set redos = [] if redo is none else [redo] -%}
  {%- if redo_var not in [none, ''] -%}
    {%- do redos.append({'start': dbt_inc_join._parse_bound(redo_var, 'inc_join_redo_from', time_uom),
                         'reason': 'var inc_join_redo_from=' ~ redo_var}) -%}
  {%- endif -%}
  {%- set ledger = dbt_inc_join._ledger_for_this_model() -%}
  {%- if ledger is none -%}
    {%- set latest = dbt_inc_join._latest_output_arrival(this, inc_col, time_uom, none) -%}
    {%- set from_ledger = none -%}
  {%- else -%}
    {%- set committed = dbt_inc_join._committed_state(ledger, this, inc_col, time_uom) -%}
    {%- set latest = committed.latest -%}
    {%- set from_ledger = dbt_inc_join._ledger_start(committed.state, latest, inc_col, time_uom) -%}
    {#- what the last committed run read, for the check of restated inputs (read here once, _check_restated) -#}
    {%- do found.update({'committed_fingerprints': {'text': committed.state.fingerprints,
                                                    'outstanding': committed.state.outstanding,
                                                    'input_versions': committed.state.input_versions},
                         'start_snapshot': committed.state.start_snapshot}) -%}
    {%- if committed.state.redo_pending -%}
      {%- do redos.append({'start': dbt_inc_join._parse_text_value(committed.state.redo_pending, time_uom),
                           'reason': 'a redo from ' ~ dbt_inc_join._unit_label(committed.state.redo_pending, time_uom) ~ ' did not finish: doing it again'}) -%}
    {%- endif -%}
  {%- endif -%}
  {%- if from_ledger is not none -%}
    {%- do found.update({'start': from_ledger.start, 'reason': from_ledger.reason, 'ledger_reason': from_ledger.reason}) -%}
  {%- elif latest is not none -%}
    {%- do found.update({'start': dbt_inc_join._shift_value(latest, 1, time_uom),
                         'reason': 'max(' ~ inc_col ~ ') in ' ~ this ~ ' + 1 ' ~ time_uom}) -%}
  {%- endif -%}
  {{ return(dbt_inc_join._redo_start(found, redos)) }}
{% endmacro %}
