{#- The run ledger (spec §13): one row per committed run of every inc_join model, in the package's model
    dbt_inc_join_runs. A model records its runs when it has the post-hook `{{ dbt_inc_join.record_run() }}`
    (README, "The run ledger"); its next run then starts after its last committed window. -#}

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

{% macro _ledger_for_this_model() %}
  {#- The ledger relation when this model records its runs, else none; a clear error when the hook is there
      but the ledger model is disabled. -#}
  {%- if model is not defined or model is none or not dbt_inc_join._has_record_hook(model) -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set ledger = dbt_inc_join._ledger_relation() -%}
  {%- if ledger is none -%}
    {{ dbt_inc_join._fail("post-hook record_run: the run ledger model dbt_inc_join_runs is disabled. Enable it "
                          ~ "(models: dbt_inc_join: +enabled: true) or remove the post-hook.") }}
  {%- endif -%}
  {{ return(ledger) }}
{% endmacro %}

{% macro _create_ledger_sql(ledger) %}
  {%- set columns = [] -%}
  {%- for name, type in dbt_inc_join._ledger_columns() -%}
    {%- do columns.append(dbt_inc_join._quote(name) ~ ' ' ~ type) -%}
  {%- endfor -%}
  {#- partitionOverwriteMode=dynamic as a table option: a record is an INSERT OVERWRITE of its own run_key
      partition, which Spark stages in a directory of its own job (.spark-staging-<job>) whatever the session's
      setting, where concurrent INSERT INTOs of one table would share <table>/_temporary (SPARK-24238). -#}
create table if not exists {{ ledger }} (
  {{ columns | join(',\n  ') }}
)
using parquet
options ('partitionOverwriteMode' = 'dynamic')
partitioned by (recorded_month, run_key)
{%- endmacro %}

{% macro _ensure_ledger(ledger) %}
  {%- if not execute -%}{{ return(none) }}{%- endif -%}
  {%- if adapter.get_relation(database=ledger.database, schema=ledger.schema, identifier=ledger.identifier) is none -%}
    {%- do adapter.create_schema(ledger) -%}
    {%- do run_query(dbt_inc_join._create_ledger_sql(ledger)) -%}
  {%- endif -%}
{% endmacro %}

{% macro _table_properties(relation) %}
  {#- A table's properties, as a dict. -#}
  {%- set found = run_query('SHOW TBLPROPERTIES ' ~ relation) -%}
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

{% macro _text_literal(value) %}
  {#- A Spark SQL string literal (backslash escapes are on by default), or NULL. -#}
  {%- if value is none -%}{{ return('NULL') }}{%- endif -%}
  {{ return("'" ~ (value | string).replace('\\', '\\\\').replace("'", "\\'") ~ "'") }}
{% endmacro %}

{% macro _moment_literal(value) %}
  {%- if value is none -%}{{ return('CAST(NULL AS TIMESTAMP)') }}{%- endif -%}
  {{ return(dbt_inc_join._sql_literal(value, 'timestamp')) }}
{% endmacro %}

{#- Where an incremental run starts when its model records its runs (spec §13). -#}

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
  {%- set state = {'ledger': ledger | string, 'table_id': table_id, 'committed_end': none, 'last_start': none,
                   'last_rows': none, 'source': none, 'ledger_query': none} -%}
  {%- if table_id is none -%}
    {{ return(state) }}
  {%- endif -%}
  {%- do state.update({'ledger_query': dbt_inc_join._ledger_state_sql(ledger, relation, table_id)}) -%}
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
  {#- max(inc_col) in the model's table (a unit value or none), from `since` on when given: the filter keeps to
      the partitions of the last committed window when the table is partitioned by its arrival column
      (unix_seconds keeps it out of the metastore's partition filter, see _ledger_insert_sql). -#}
  {%- set column = dbt_inc_join._quote(inc_col) -%}
  {%- set where = '' if since is none else ' WHERE unix_seconds(CAST(' ~ column ~ ' AS TIMESTAMP)) >= unix_seconds('
                                           ~ dbt_inc_join._moment_literal(since) ~ ')' -%}
  {%- set found = run_query("SELECT date_format(max(" ~ column ~ "), 'yyyy-MM-dd HH:mm:ss') FROM " ~ relation ~ where) -%}
  {{ return(dbt_inc_join._parse_text_value(found.rows[0][0], time_uom)) }}
{% endmacro %}

{% macro _committed_state(ledger, relation, inc_col, time_uom) %}
  {#- The ledger's state of the table and the table's latest output arrival, reading no more than needed
      (ledger.py: committed_state is the same steps):
      - the table's rows from the last committed window's start on give its latest arrival when it has any;
      - the whole table only when it has none there although that window wrote rows (rows gone);
      - the ledger only when the table holds rows after the window the table property names. -#}
  {%- set state = dbt_inc_join._ledger_state(ledger, relation) -%}
  {%- set since = none if state.committed_end is none else dbt_inc_join._parse_text_value(state.last_start, time_uom) -%}
  {%- set latest = dbt_inc_join._latest_output_arrival(relation, inc_col, time_uom, since) -%}
  {%- if state.source != 'ledger' and state.committed_end is not none
         and latest is not none and latest > dbt_inc_join._parse_text_value(state.committed_end, time_uom) -%}
    {%- set state = dbt_inc_join._ledger_state_from_ledger(ledger, state) -%}
  {%- endif -%}
  {%- if since is not none and latest is none and state.last_rows -%}
    {%- set latest = dbt_inc_join._latest_output_arrival(relation, inc_col, time_uom, none) -%}
  {%- endif -%}
  {{ return({'state': state, 'latest': latest}) }}
{% endmacro %}

{% macro _ledger_start(state, latest, inc_col, time_uom) %}
  {#- The start of an incremental run from the ledger state and the table's latest output arrival (a unit value
      or none), with its reason; none when the table was never recorded (then the table decides, as without
      the ledger). ledger.py: ledger_start is the same rule.
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
  {%- set after_ledger = dbt_inc_join._shift(committed_end, 1, time_uom) -%}
  {%- set column = 'max(' ~ inc_col ~ ') in this' -%}
  {%- if latest is not none and latest > committed_end -%}
    {{ return({'start': after_ledger, 'reason': 'last committed window ' ~ where ~ ' ends ' ~ committed_end ~ ' + 1 ' ~ time_uom
               ~ '; ' ~ column ~ ' is ' ~ latest ~ ', written by a run that did not record its commit: doing it again'}) }}
  {%- endif -%}
  {%- if state.last_rows and (latest is none or latest < last_start) -%}
    {%- set start = none if latest is none else dbt_inc_join._shift(latest, 1, time_uom) -%}
    {{ return({'start': start, 'reason': column ~ ' is ' ~ (latest or 'none') ~ ', before the last committed window '
               ~ last_start ~ '..' ~ committed_end ~ ' ' ~ where ~ ', which wrote ' ~ state.last_rows
               ~ ' rows: starting from the table'}) }}
  {%- endif -%}
  {{ return({'start': after_ledger, 'reason': 'last committed window ' ~ where ~ ' ends ' ~ committed_end ~ ' + 1 ' ~ time_uom}) }}
{% endmacro %}

{#- Recording a run: the model's code carries what its run decided, the post-hook writes it after the write. -#}

{% macro _moment_text(value) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- set moment = value if value.hour is defined else modules.datetime.datetime(value.year, value.month, value.day) -%}
  {{ return(moment.strftime('%Y-%m-%d %H:%M:%S')) }}
{% endmacro %}

{% macro _run_record(window, arrival_column, language) %}
  {#- What a run decided, as the post-hook records it (python_models/model.py: run_record is the same dict). -#}
  {{ return({
      'invocation_id': invocation_id,
      'language': language,
      'arrival_column': arrival_column,
      'time_uom': window.time_uom,
      'window_start': dbt_inc_join._moment_text(window.start),
      'window_end': dbt_inc_join._moment_text(window.end),
      'empty': window.empty,
      'start_reason': window.start_reason,
      'end_reason': window.end_reason,
      'watermark': dbt_inc_join._moment_text(window.watermark),
      'a_max': dbt_inc_join._moment_text(window.a_max),
      'b_max': dbt_inc_join._moment_text(window.b_max),
      'units_behind': window.units_behind or 0,
      'started_at': modules.datetime.datetime.now(modules.pytz.utc).timestamp(),
  }) }}
{% endmacro %}

{% macro _run_marker(record) %}
  {#- The record in the model's SQL, as a comment the post-hook reads from the compiled code. -#}
  {{ return('/* inc_join_run ' ~ (record | tojson).replace('*/', '*\\/') ~ ' */') }}
{% endmacro %}

{% macro _this_run(properties) %}
  {#- The record of this model's run, or none when the model is no inc_join model (the hook may be set for a
      whole project). SQL models carry it in their compiled code; the Python writer sets it as a table
      property of the model's table, for this invocation. -#}
  {%- set code = model.compiled_code if model.compiled_code is defined else '' -%}
  {%- if model.language == 'python' -%}
    {%- if not dbt_inc_join._is_inc_join_python_model(code or '') -%}
      {{ return(none) }}
    {%- endif -%}
    {%- set text = properties.get('inc_join.run') -%}
    {%- set record = fromjson(text) if text else none -%}
    {{ return(record if record and record.invocation_id == invocation_id else none) }}
  {%- endif -%}
  {%- set found = modules.re.search('/\\* inc_join_run (.*?) \\*/', code or '') -%}
  {{ return(fromjson(found.group(1).replace('*\\/', '*/')) if found else none) }}
{% endmacro %}

{% macro record_run() %}
  {{ return(adapter.dispatch('record_run', 'dbt_inc_join')()) }}
{% endmacro %}

{% macro default__record_run() %}
  {#- The post-hook of a model that records its runs; no-op for models that are not inc_join models. Runs after
      the materialization wrote the table, so a run that was killed before never has a record. Its statements:
      count the rows the run wrote per JoinType, write the record, then mirror it in the table property
      inc_join.committed (what the next run reads, _ledger_state). Returns no statement of its own. -#}
  {%- if not execute or model is not defined or model.config.materialized not in ['incremental', 'table'] -%}
    {{ return('') }}
  {%- endif -%}
  {%- set properties = dbt_inc_join._table_properties(this) -%}
  {%- set record = dbt_inc_join._this_run(properties) -%}
  {%- if record is none -%}
    {{ return('') }}
  {%- endif -%}
  {%- set ledger = dbt_inc_join._ledger_for_this_model() -%}
  {%- do dbt_inc_join._ensure_ledger(ledger) -%}
  {%- set table_id = properties.get('inc_join.table_id') -%}
  {%- if table_id is none -%}
    {#- a table made before the model recorded its runs (or by dbt's own CREATE TABLE AS): from now on it has one -#}
    {%- set table_id = dbt_inc_join._new_table_id() -%}
    {%- do dbt_inc_join._set_table_property(this, 'inc_join.table_id', table_id) -%}
  {%- endif -%}
  {%- set counted = dbt_inc_join._rows_per_join_type(record) -%}
  {%- set run_key = invocation_id ~ '/' ~ model.unique_id ~ '/' ~ (record.window_start or '') -%}
  {%- do run_query(dbt_inc_join._ledger_insert_sql(ledger, record, table_id, run_key, counted)) -%}
  {%- if not record.empty -%}
    {%- do dbt_inc_join._set_table_property(this, 'inc_join.committed', tojson({
        'window_start': record.window_start, 'window_end': record.window_end, 'rows_total': counted.rows_total,
        'run_key': run_key})) -%}
  {%- endif -%}
  {{ return('') }}
{% endmacro %}

{% macro _set_table_property(relation, key, value) %}
  {%- do run_query('ALTER TABLE ' ~ relation ~ ' SET TBLPROPERTIES (' ~ dbt_inc_join._text_literal(key)
                   ~ ' = ' ~ dbt_inc_join._text_literal(value) ~ ')') -%}
{% endmacro %}

{% macro _rows_per_join_type(record) %}
  {#- The rows the run wrote in its window: {'rows_total': n, 'join_type_rows': SQL map literal}. The map is
      NULL for a model without the JoinType column. -#}
  {%- set columns = adapter.get_columns_in_relation(this) | map(attribute='name') | list -%}
  {%- set has_join_type = 'JoinType' in columns -%}
  {#- unix_seconds keeps the window test out of the metastore's partition filter: Spark prunes the partitions
      itself. With threads > 1 on the embedded Derby metastore, pushed-down filters failed now and then
      (INTERNAL_ERROR_HIVE_METASTORE_PARTITION_FILTER, measured in test_ledger.py's 30-day run). -#}
  {%- set arrival = 'unix_seconds(CAST(' ~ dbt_inc_join._quote(record.arrival_column) ~ ' AS TIMESTAMP))' -%}
  {%- if record.empty -%}
    {%- set in_window = 'false' -%}
  {%- else -%}
    {%- set window_end = dbt_inc_join._parse_text_value(record.window_end, record.time_uom) -%}
    {%- set after_end = dbt_inc_join._moment_literal(dbt_inc_join._shift(window_end, 1, record.time_uom)) -%}
    {%- set in_window = arrival ~ ' < unix_seconds(' ~ after_end ~ ')' -%}
    {%- if record.window_start -%}
      {%- set in_window = arrival ~ " >= unix_seconds(TIMESTAMP'" ~ record.window_start ~ "') AND " ~ in_window -%}
    {%- endif -%}
  {%- endif -%}
  {%- set found = run_query(
      'SELECT ' ~ ('CAST(JoinType AS INT)' if has_join_type else 'CAST(NULL AS INT)') ~ ' AS join_type, count(*) AS n'
      ~ ' FROM ' ~ this ~ ' WHERE ' ~ in_window ~ ' GROUP BY 1') -%}
  {%- set total = namespace(rows=0) -%}
  {%- set entries = [] -%}
  {%- for row in found.rows | sort(attribute=0) -%}
    {%- set total.rows = total.rows + row[1] | int -%}
    {%- do entries.append('CAST(' ~ row[0] ~ ' AS INT), CAST(' ~ row[1] ~ ' AS BIGINT)') -%}
  {%- endfor -%}
  {%- if not has_join_type -%}
    {%- set join_type_rows = 'CAST(NULL AS MAP<INT, BIGINT>)' -%}
  {%- else -%}
    {%- set join_type_rows = 'CAST(map(' ~ entries | join(', ') ~ ') AS MAP<INT, BIGINT>)' -%}
  {%- endif -%}
  {{ return({'rows_total': total.rows, 'join_type_rows': join_type_rows}) }}
{% endmacro %}

{% macro _ledger_insert_sql(ledger, record, table_id, run_key, counted) %}
  {#- One INSERT OVERWRITE of the run's own partition: a re-try writes the same record again, never twice. -#}
  {%- set text = dbt_inc_join._text_literal -%}
  {%- set moment = dbt_inc_join._moment_literal_text -%}
  {%- set month = modules.datetime.datetime.utcfromtimestamp(record.started_at).strftime('%Y-%m') -%}
insert overwrite table {{ ledger }} partition (recorded_month = {{ text(month) }}, run_key)
select
  {{ text(model.unique_id) }} as model,
  {{ text(this | string) }} as relation,
  {{ text(table_id) }} as table_id,
  {{ text(record.language) }} as language,
  {{ text(record.time_uom) }} as time_uom,
  {{ moment(record.window_start) }} as window_start,
  {{ moment(record.window_end) }} as window_end,
  {{ 'true' if record.empty else 'false' }} as empty,
  {{ text(record.start_reason) }} as start_reason,
  {{ text(record.end_reason) }} as end_reason,
  {{ moment(record.watermark) }} as watermark,
  {{ moment(record.a_max) }} as a_max,
  {{ moment(record.b_max) }} as b_max,
  cast({{ record.units_behind | int }} as bigint) as units_behind,
  cast({{ counted.rows_total }} as bigint) as rows_total,
  {{ counted.join_type_rows }} as join_type_rows,
  timestamp_seconds({{ '%.6f' | format(record.started_at) }}) as started_at,
  current_timestamp() as finished_at,
  {{ text(invocation_id) }} as invocation_id,
  {{ text(dbt_inc_join._package_version()) }} as package_version,
  {{ text(run_key) }} as run_key
{%- endmacro %}

{% macro _moment_literal_text(text) %}
  {%- if text is none -%}{{ return('CAST(NULL AS TIMESTAMP)') }}{%- endif -%}
  {{ return("TIMESTAMP'" ~ text ~ "'") }}
{% endmacro %}
