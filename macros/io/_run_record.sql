{#- Recording a run: the model's code carries what its run decided (_run_record, _run_marker), the post-hook
    record_run writes it after the write (_this_run, _rows_per_join_type, _ledger_insert_sql). -#}

{% macro _moment_text(value) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- set moment = value if value.hour is defined else modules.datetime.datetime(value.year, value.month, value.day) -%}
  {{ return(moment.strftime('%Y-%m-%d %H:%M:%S')) }}
{% endmacro %}

{% macro _run_record(window, arrival_column, language, restated=none, plan=none) %}
  {#- What a run decided, as the post-hook records it, for SQL and Python models.
      restated: what the run found of its inputs (_restated_record: fingerprints, restated units); plan: the
      text of its plan (spec §15). -#}
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
      'redo_from': dbt_inc_join._moment_text(window.get('redo_from')),
      'restated': (restated or {}).get('restated') or [],
      'fingerprints': (restated or {}).get('fingerprints'),
      'plan': plan,
      'start_snapshot': window.get('start_snapshot'),
      'input_versions': window.get('input_versions') or [],
      'rows_read': window.get('rows_read'),
  }) }}
{% endmacro %}

{% macro _run_marker(record) %}
  {#- The record in the model's SQL, as a comment the post-hook reads from the compiled code. -#}
  {{ return('/* inc_join_run ' ~ (record | tojson).replace('*/', '*\\/') ~ ' */') }}
{% endmacro %}

{% macro _this_run(properties, forget=false) %}
  {#- The record of this model's run, or none when the model is no inc_join model (the hook may be set for a
      whole project). SQL models carry it in their compiled code; the Python writer leaves it, for this
      invocation, in the session's settings when the model ran in dbt's own session (_run_setting; `forget`:
      unset it once read), else as a table property of the model's table. -#}
  {%- set code = model.compiled_code if model.compiled_code is defined else '' -%}
  {%- if model.language == 'python' -%}
    {%- if not dbt_inc_join._is_inc_join_python_model(code or '') -%}
      {{ return(none) }}
    {%- endif -%}
    {%- for text in [dbt_inc_join._run_setting(forget), properties.get('inc_join.run')] if text -%}
      {%- set record = fromjson(text) -%}
      {%- if record and record.invocation_id == invocation_id -%}
        {{ return(record) }}
      {%- endif -%}
    {%- endfor -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set found = modules.re.search('/\\* inc_join_run (.*?) \\*/', code or '') -%}
  {{ return(fromjson(found.group(1).replace('*\\/', '*/')) if found else none) }}
{% endmacro %}

{% macro _run_setting_key() %}
  {#- The session setting in which a Python model run in dbt's own session leaves its record (_py_writer.sql), as
      hex digits after a fixed prefix: Spark shows a setting whose name or value matches its redaction patterns
      (spark.redaction.regex, spark.sql.redaction.options.regex: 'password', 'token', 'url' as in *_hourly...) as
      '*********(redacted)', and no hex digit spells one. -#}
  {{ return('inc_join.run.' ~ model.unique_id.encode('utf-8').hex()) }}
{% endmacro %}

{% macro _run_setting(forget=false) %}
  {#- The record a Python model left in the session's settings (JSON text, hex-encoded there), or none;
      `forget`: unset it once read. -#}
  {%- set key = dbt_inc_join._run_setting_key() -%}
  {%- set found = run_query('SET `' ~ key ~ '`') -%}
  {%- set text = (found.rows[0][1] if found.rows | length > 0 else none) or '' -%}
  {%- if not modules.re.fullmatch('(?:[0-9a-f]{2})+', text) -%}
    {{ return(none) }}
  {%- endif -%}
  {%- if forget -%}
    {%- do run_query('RESET `' ~ key ~ '`') -%}
  {%- endif -%}
  {%- set chars = [] -%}
  {%- for i in range(0, text | length, 2) -%}
    {%- do chars.append('%c' | format(text[i:i + 2] | int(0, 16))) -%}
  {%- endfor -%}
  {{ return(chars | join('')) }}
{% endmacro %}

{% macro _rows_per_join_type(record) %}
  {#- The rows the run wrote in its window: {'rows_total': n, 'join_type_rows': SQL map literal}. The map is
      NULL for a model without the JoinType column. -#}
  {%- set columns = adapter.get_columns_in_relation(this) | map(attribute='name') | list -%}
  {%- set has_join_type = 'JoinType' in columns -%}
  {%- set in_window = dbt_inc_join._window_predicate(record, dbt_inc_join._quote(record.arrival_column), dbt_inc_join._table_facts(this).format) -%}
  {%- set found = run_query(
      'SELECT ' ~ ('CAST(JoinType AS INT)' if has_join_type else 'CAST(NULL AS INT)') ~ ' AS join_type, count(*) AS n'
      ~ ' FROM ' ~ this ~ ' WHERE ' ~ in_window ~ ' GROUP BY 1') -%}
  {%- set total = namespace(rows=0) -%}
  {%- set pairs = [] -%}
  {%- for row in found.rows | sort(attribute=0) -%}
    {%- set total.rows = total.rows + row[1] | int -%}
    {%- do pairs.append(('CAST(' ~ row[0] ~ ' AS INT)', row[1])) -%}
  {%- endfor -%}
  {{ return({'rows_total': total.rows,
             'join_type_rows': dbt_inc_join._count_map_literal(pairs if has_join_type else none, 'INT')}) }}
{% endmacro %}

{% macro _ledger_insert_sql(ledger, record, table_id, run_key, counted) %}
  {#- One INSERT OVERWRITE of the run's own partition: a re-try writes the same record again, never twice. A
      parquet ledger's run_key is a dynamic partition (its table option, _create_ledger_sql); a Delta ledger's is
      given too, so that the record replaces its own partition whatever the session's overwrite mode (in static
      mode a partial spec replaces the whole month). -#}
  {%- set text = dbt_inc_join._text_literal -%}
  {%- set moment = dbt_inc_join._moment_literal_text -%}
  {%- set month = modules.datetime.datetime.utcfromtimestamp(record.started_at).strftime('%Y-%m') -%}
  {%- set static = dbt_inc_join._ledger_format(ledger) == 'delta' -%}
insert overwrite table {{ ledger }} partition (recorded_month = {{ text(month) }}, run_key{{ ' = ' ~ text(run_key) if static }})
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
  {{ moment(record.get('redo_from')) }} as redo_from,
  {{ dbt_inc_join._restated_literal(record.get('restated') or []) }} as restated,
  {{ text(tojson(record.fingerprints) if record.get('fingerprints') else none) }} as fingerprints,
  {{ text(record.get('plan')) }} as plan,
  {{ dbt_inc_join._input_versions_literal(record.get('input_versions') or []) }} as input_versions,
  {{ dbt_inc_join._rows_read_literal(record.get('rows_read')) }} as rows_read{{ ',\n  ' ~ text(run_key) ~ ' as run_key' if not static }}
{%- endmacro %}

{% macro _rows_read_literal(rows_read) %}
  {#- The ledger's rows_read column: the rows the run read per input (and of its open state), NULL when unknown. -#}
  {%- set pairs = [] -%}
  {%- for name, rows in (rows_read or {}).items() -%}
    {%- do pairs.append((dbt_inc_join._text_literal(name), rows)) -%}
  {%- endfor -%}
  {{ return(dbt_inc_join._count_map_literal(pairs if rows_read else none, 'STRING')) }}
{% endmacro %}

{% macro _count_map_literal(pairs, key_type) %}
  {#- A map<key_type, bigint> literal of (key SQL, count) pairs (the ledger's counts per JoinType or per input);
      NULL for none. -#}
  {%- set type = 'MAP<' ~ key_type ~ ', BIGINT>' -%}
  {%- if pairs is none -%}{{ return('CAST(NULL AS ' ~ type ~ ')') }}{%- endif -%}
  {%- set entries = [] -%}
  {%- for key, count in pairs -%}
    {%- do entries.append(key ~ ', CAST(' ~ count | int ~ ' AS BIGINT)') -%}
  {%- endfor -%}
  {{ return('CAST(map(' ~ entries | join(', ') ~ ') AS ' ~ type ~ ')') }}
{% endmacro %}

{% macro _restated_literal(restated) %}
  {#- The ledger's restated column: one struct per restated unit. -#}
  {%- set type = dbt_inc_join._ledger_columns() | selectattr(0, 'equalto', 'restated') | map(attribute=1) | first -%}
  {%- set items = [] -%}
  {%- for row in restated -%}
    {%- set then = 'NULL' if row.rows_then is none else row.rows_then -%}
    {%- set now = 'NULL' if row.rows_now is none else row.rows_now -%}
    {%- do items.append("named_struct('input', " ~ dbt_inc_join._text_literal(row.input) ~ ", 'unit', TIMESTAMP'"
                        ~ row.unit ~ "', 'rows_then', CAST(" ~ then ~ " AS BIGINT), 'rows_now', CAST("
                        ~ now ~ " AS BIGINT))") -%}
  {%- endfor -%}
  {{ return('CAST(array(' ~ items | join(', ') ~ ') AS ' ~ type ~ ')') }}
{% endmacro %}

{% macro _window_predicate(record, column, table_format=none) %}
  {#- Whether `column` (an arrival, SQL) falls in the recorded run's window; false for an empty window. The
      comparisons are _arrival_compared_sql's for the table's format (table_format). -#}
  {%- if record.empty -%}
    {{ return('false') }}
  {%- endif -%}
  {%- set window_end = dbt_inc_join._parse_text_value(record.window_end, record.time_uom) -%}
  {%- set after_end = dbt_inc_join._moment_literal(dbt_inc_join._shift_value(window_end, 1, record.time_uom)) -%}
  {%- set in_window = dbt_inc_join._arrival_compared_sql(column, '<', after_end, table_format) -%}
  {%- if record.window_start -%}
    {%- set in_window = dbt_inc_join._arrival_compared_sql(column, '>=', "TIMESTAMP'" ~ record.window_start ~ "'", table_format) ~ ' AND ' ~ in_window -%}
  {%- endif -%}
  {{ return(in_window) }}
{% endmacro %}

{% macro _record_every_batch() %}
  {#- dbt runs a microbatch model's post-hooks after its last batch only, so record_run would record that batch
      alone: in a model whose own post-hooks record its runs, the batch's writer (create_table_as.sql, inside the
      materialization) adds record_run to the hooks the materialization runs after this batch's commit. -#}
  {%- if config.get('incremental_strategy') != 'microbatch' or post_hooks is not defined or model is not defined -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set hooks = namespace(present=false) -%}
  {%- for hook in post_hooks if 'record_run' in (hook.get('sql') or '') -%}
    {%- set hooks.present = true -%}
  {%- endfor -%}
  {%- if not hooks.present and dbt_inc_join._records_runs() -%}
    {%- do post_hooks.append({'sql': '{{ dbt_inc_join.record_run() }}', 'transaction': true}) -%}
  {%- endif -%}
{% endmacro %}
