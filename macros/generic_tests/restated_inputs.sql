{#- Inputs rewritten after the model's committed runs read them (spec §14), on a model that records its runs.
    Fails with one row per restated unit that no run has redone, each with the one command that repairs the
    table (also logged):
    - the units outstanding (the table property inc_join.outstanding): found by a run or by this test, and not
      redone since (a run whose window starts at or before the unit, e.g. on_restated_input=redo);
    - the units outstanding in the incremental models it reads (directly or through views; their tables'
      inc_join.outstanding): its table is stale where they reach it until they are redone (spec §14, Chains);
    - the model's own inputs, which its last committed run recorded (a and b, or a and each input's name of an
      inc_join_many model), and `inputs` ({name: relation}, by those names) to add others or name them otherwise:
      - each input that is a table partitioned by its arrival column: the units, anywhere up to the last one the
        runs read, whose files changed since this test last listed them (_changed_files.sql), confirmed by
        their fingerprints;
      - each input that is a Delta or Iceberg table: the units, anywhere up to the last one the runs read, that
        its log since the version the last committed run read restated (spec §17, _test_log_restated);
      - each input's units over a horizon fingerprinted again and compared with what the ledger's runs last saw
        of them (views have no files to list): by default the units the next run reads again; with last_n,
        the last last_n units up to the last committed window's end.
      What it finds becomes outstanding, so it is not forgotten when it leaves the horizon. time_uom: the
      model's (its ledger records'), unless given. -#}
{% test restated_inputs(model, inputs=none, last_n=none, inc_col=none, inc_cols={}, time_uom=none) %}
  {{ return(adapter.dispatch('test_restated_inputs', 'dbt_inc_join')(model, inputs, last_n, inc_col, inc_cols, time_uom)) }}
{% endtest %}

{% macro default__test_restated_inputs(model, inputs, last_n, inc_col, inc_cols, time_uom) %}
  {%- if time_uom is not none -%}
    {%- set time_uom = dbt_inc_join._choice('time_uom', time_uom, ['day', 'hour', 'minute']) -%}
  {%- endif -%}
  {%- if last_n is not none -%}
    {%- set last_n = dbt_inc_join._window_length('last_n', last_n) -%}
  {%- endif -%}
  {%- if not execute -%}
    {{ return('select 1 as unchecked where false') }}
  {%- endif -%}
  {%- set ledger = dbt_inc_join._ledger_relation() -%}
  {%- if ledger is none -%}
    {{ dbt_inc_join._fail("restated_inputs needs the run ledger: set var inc_join_ledger: true and give the model the post-hook dbt_inc_join.record_run().") }}
  {%- endif -%}
  {%- set properties = dbt_inc_join._table_properties(model) -%}
  {%- set table_id = properties.get('inc_join.table_id') -%}
  {%- set runs = "select * from " ~ ledger ~ " where relation = " ~ dbt_inc_join._text_literal(model | string)
                 ~ " and table_id = " ~ dbt_inc_join._text_literal(table_id) -%}
  {%- set unit = time_uom or dbt_inc_join._recorded_time_uom(runs) -%}
  {%- set outstanding = fromjson(properties.get('inc_join.outstanding') or '[]') -%}
  {%- set changed = [] -%}
  {%- set mirrored = {} -%}
  {%- set records = dbt_inc_join._ledger_record_list(ledger, model, table_id) -%}
  {#- the model's own inputs, as its last run recorded them; `inputs` adds others or names them otherwise -#}
  {%- set checked = dbt_inc_join._checked_inputs(records, inputs or {}, inc_col, inc_cols) -%}
  {%- if checked.inputs -%}
    {%- set sides = dbt_inc_join._test_sides(checked.inputs, inc_col, checked.inc_cols) if records else [] -%}
    {%- set changed = dbt_inc_join._refingerprinted(records, sides, last_n, unit) if records else [] -%}
    {%- set files = dbt_inc_join._changed_files(sides, records, unit, dbt_inc_join._files_state(properties)) if records else {} -%}
    {%- if files.get('state') -%}
      {%- do log('inc_join restated_inputs ' ~ model ~ ': ' ~ files.text, info=true) -%}
      {%- do mirrored.update(dbt_inc_join._files_properties(files.state)) -%}
      {%- set seen = [] -%}
      {%- for row in changed -%}{%- do seen.append(row.input ~ '|' ~ row.unit) -%}{%- endfor -%}
      {%- for row in files.found if (row.input ~ '|' ~ row.unit) not in seen -%}
        {%- do changed.append(row) -%}
      {%- endfor -%}
    {%- endif -%}
    {#- Delta and Iceberg inputs, whose folders keep files that are no longer rows: their logs instead -#}
    {%- set logged = dbt_inc_join._test_log_restated(model, sides, properties, unit) if records else {'found': [], 'notes': []} -%}
    {%- for line in logged.notes -%}{%- do log(line, info=true) -%}{%- endfor -%}
    {%- set seen = [] -%}
    {%- for row in changed -%}{%- do seen.append(row.input ~ '|' ~ row.unit) -%}{%- endfor -%}
    {%- for row in logged.found if (row.input ~ '|' ~ row.unit) not in seen -%}
      {%- do changed.append(row) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set pending = dbt_inc_join._pending_units(changed, outstanding) -%}
  {%- set command = dbt_inc_join._redo_command(model.identifier) -%}
  {%- if changed -%}
    {#- what the files or the horizon found stays outstanding until a run redoes it (_still_outstanding keeps the rest) -#}
    {%- do mirrored.update({'inc_join.outstanding': tojson(dbt_inc_join._still_outstanding(outstanding, changed, none, true))}) -%}
  {%- endif -%}
  {%- if mirrored and flags.WHICH in ['test', 'build', 'retry'] -%}
    {%- do dbt_inc_join._set_table_properties(model, mirrored) -%}
  {%- endif -%}
  {%- if pending -%}
    {%- do log('inc_join restated_inputs ' ~ model ~ ': restated, not redone: ' ~ dbt_inc_join._restated_text(pending, unit)
               ~ '. Repair the table with: ' ~ command, info=true) -%}
  {%- endif -%}
  {#- the incremental models it reads with restated units they did not redo: this table is stale there too -#}
  {%- set node = dbt_inc_join._model_node(model) -%}
  {%- set upstream = dbt_inc_join._upstream_state(node).outstanding if node is not none else {} -%}
  {%- for line in dbt_inc_join._upstream_outstanding_lines(model, upstream, unit) -%}
    {%- do log(line, info=true) -%}
  {%- endfor %}
select status, input, unit, rows_then, rows_now, repair from (
  select 'restated' as status, 'none' as input, TIMESTAMP'2000-01-01 00:00:00' as unit, CAST(NULL AS BIGINT) as rows_then,
         CAST(NULL AS BIGINT) as rows_now, '' as repair
  where false
{%- for row in pending %}
  union all
  select {{ dbt_inc_join._text_literal('found earlier, not redone' if row.get('outstanding') else 'fingerprinted again') }} as status,
         {{ dbt_inc_join._text_literal(row.input) }} as input, TIMESTAMP'{{ row.unit }}' as unit,
         CAST({{ 'NULL' if row.rows_then is none else row.rows_then }} AS BIGINT) as rows_then,
         CAST({{ 'NULL' if row.rows_now is none else row.rows_now }} AS BIGINT) as rows_now,
         {{ dbt_inc_join._text_literal(command) }} as repair
{%- endfor %}
{%- for relation, entry in upstream.items() | sort %}
{%- for row in entry.units %}
  union all
  select 'not redone upstream' as status, {{ dbt_inc_join._text_literal(relation ~ ' ' ~ row.input) }} as input,
         TIMESTAMP'{{ row.unit }}' as unit,
         CAST({{ 'NULL' if row.rows_then is none else row.rows_then }} AS BIGINT) as rows_then,
         CAST({{ 'NULL' if row.rows_now is none else row.rows_now }} AS BIGINT) as rows_now,
         {{ dbt_inc_join._text_literal(dbt_inc_join._redo_command(entry.model)) }} as repair
{%- endfor %}
{%- endfor %}
)
{% endmacro %}

{% macro _model_node(relation) %}
  {#- The graph node of the model whose table is `relation`, or none. -#}
  {%- set key = dbt_inc_join._relation_key(relation) -%}
  {%- for node in graph.nodes.values() if node.resource_type == 'model' -%}
    {%- if dbt_inc_join._relation_key(node.schema ~ '.' ~ node.alias) == key
          or dbt_inc_join._relation_key(node.relation_name or '') == key -%}
      {{ return(node) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}

{% macro _recorded_time_uom(runs) %}
  {#- The time_uom of the model's last recorded run ('day' when none). -#}
  {%- set found = run_query("select time_uom from (" ~ runs ~ ") order by finished_at desc limit 1") -%}
  {{ return(found.rows[0][0] if found.rows | length > 0 else 'day') }}
{% endmacro %}

{% macro _ledger_record_list(ledger, model, table_id) %}
  {#- The fingerprint records of the model's committed runs, oldest first. -#}
  {%- if table_id is none -%}{{ return([]) }}{%- endif -%}
  {%- set records = [] -%}
  {%- for row in run_query(dbt_inc_join._ledger_records_sql(ledger, model, table_id)).rows -%}
    {%- do records.append(fromjson(row[0])) -%}
  {%- endfor -%}
  {{ return(records) }}
{% endmacro %}

{% macro _checked_inputs(records, given, inc_col, inc_cols) %}
  {#- The inputs the test checks: {'inputs': {name: relation}, 'inc_cols': {name: arrival column}}. Those the last
      committed run recorded (its record's inputs, _recorded_inputs: each input that is a table or view dbt can
      find; a record from before 0.2.0 has none), then the `inputs` given, which win by name; arrival columns:
      inc_cols, else inc_col for a given input, else the recorded one. -#}
  {%- set found = {'inputs': {}, 'inc_cols': {}} -%}
  {%- set recorded = (records[-1].get('inputs') or {}) if records else {} -%}
  {%- for name, entry in recorded.items() | sort -%}
    {%- set relation = dbt_inc_join._relation_named(entry.relation) -%}
    {%- set found_relation = adapter.get_relation(database=relation.database, schema=relation.schema,
                                                  identifier=relation.identifier) -%}
    {%- if found_relation is not none -%}
      {%- do found.inputs.update({name: relation}) -%}
      {%- do found.inc_cols.update({name: entry.arrival}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- for name, relation in given.items() -%}
    {%- do found.inputs.update({name: relation}) -%}
    {%- if inc_col is not none -%}
      {%- do found.inc_cols.pop(name, none) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- do found.inc_cols.update(inc_cols) -%}
  {{ return(found) }}
{% endmacro %}

{% macro _test_sides(inputs, inc_col, inc_cols) %}
  {#- The test's inputs as the fingerprints read them: {'name', 'relation', 'columns', 'arrival', 'raw_type'}. -#}
  {%- set sides = [] -%}
  {%- for name, given in inputs.items() -%}
    {%- set relation = dbt_inc_join._relation_named(given) -%}
    {%- set arrival = inc_cols.get(name) or dbt_inc_join._arrival_column(inc_col) -%}
    {%- do dbt_inc_join._require_input_columns(relation, name, [['inc_cols', arrival]]) -%}
    {%- set columns = [] -%}
    {%- set raw = namespace(type='timestamp') -%}
    {%- for column in adapter.get_columns_in_relation(relation) -%}
      {%- do columns.append((column.name, column.dtype)) -%}
      {%- if column.name | lower == arrival | lower -%}{%- set raw.type = dbt_inc_join._raw_type_name(dbt_inc_join._type_name(column)) -%}{%- endif -%}
    {%- endfor -%}
    {%- do sides.append({'name': name, 'relation': relation, 'columns': columns, 'arrival': arrival, 'raw_type': raw.type}) -%}
  {%- endfor -%}
  {{ return(sides) }}
{% endmacro %}

{% macro _refingerprinted(records, sides, last_n, unit) %}
  {#- The units of the horizon whose fingerprint now differs from the one the ledger recorded last. -#}
  {%- set horizon = dbt_inc_join._horizon(records[-1].get('next') or records[-1].ranges, last_n, unit) -%}
  {#- per input and unit, what the latest record whose range holds the unit saw -#}
  {%- set recorded = dbt_inc_join._recorded_fingerprints(records, horizon) -%}
  {%- set units = dbt_inc_join._fingerprints(sides | selectattr('name', 'in', horizon) | list, recorded.ranges, unit) -%}
  {{ return(dbt_inc_join._restated_units(recorded, units, recorded.ranges)) }}
{% endmacro %}

{% macro _horizon(last_ranges, last_n, unit) %}
  {#- The units checked again: the last record's ranges (what the next run reads again), or the last last_n units
      up to their end. -#}
  {%- if last_n is none -%}{{ return(last_ranges) }}{%- endif -%}
  {%- set horizon = {} -%}
  {%- for name, bounds in last_ranges.items() -%}
    {%- set end = dbt_inc_join._parse_text_value(bounds[1], unit) -%}
    {%- do horizon.update({name: [dbt_inc_join._unit_text(dbt_inc_join._shift_value(end, 1 - last_n, unit)), bounds[1]]}) -%}
  {%- endfor -%}
  {{ return(horizon) }}
{% endmacro %}

{% macro _relation_named(value) %}
  {#- A relation, or its name as text ('schema.table' or 'database.schema.table'). -#}
  {%- if value is not string -%}{{ return(value) }}{%- endif -%}
  {%- set parts = value.replace('`', '').split('.') -%}
  {{ return(api.Relation.create(database=parts[-3] if parts | length > 2 else none,
                                schema=parts[-2] if parts | length > 1 else target.schema, identifier=parts[-1])) }}
{% endmacro %}

{% macro _test_log_restated(model, sides, properties, time_uom) %}
  {#- For the test: the restated units of its Delta and Iceberg inputs, anywhere up to the last unit the runs read,
      from each input's log since the version the last committed run read (spec §17), as a run with nothing new
      to write finds them: {'found': [{input, unit, rows_then, rows_now, commit}], 'notes'}. The recorded
      versions are matched by input name and table (_relation_key: the run and the test may quote it apart). -#}
  {%- set previous = fromjson(properties.get('inc_join.fingerprints')) if properties.get('inc_join.fingerprints') else none -%}
  {%- set recorded = [] -%}
  {%- set versions = [] -%}
  {%- for side in sides -%}
    {%- set facts = dbt_inc_join._table_facts(side.relation) -%}
    {%- if facts.format is not none -%}
      {%- set relation = side.relation | string -%}
      {%- do versions.append({'input': side.name, 'relation': relation, 'format': facts.format, 'location': facts.location,
                              'version': dbt_inc_join._table_version(side.relation, facts.format)}) -%}
      {%- for row in fromjson(properties.get('inc_join.input_versions') or '[]')
            if row.input == side.name and dbt_inc_join._relation_key(row.relation) == dbt_inc_join._relation_key(relation) -%}
        {%- do recorded.append({'input': row.input, 'relation': relation, 'format': row.format, 'version': row.version}) -%}
      {%- endfor -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not versions or previous is none -%}
    {{ return({'found': [], 'notes': []}) }}
  {%- endif -%}
  {%- set window = {'time_uom': time_uom, 'input_versions': versions, 'input_logs': {}} -%}
  {{ return(dbt_inc_join._log_restated(run_query, model, window, sides, previous, {}, recorded)) }}
{% endmacro %}
