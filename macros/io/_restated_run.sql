{#- A dbt run's steps with restated inputs (spec §14): the check before the write, what the run records, for SQL
    and Python models; the redo's steps are in _redo.sql, the fingerprints and the rules in _restated.sql. -#}

{% macro _is_writing_run() %}
  {#- A dbt command that writes the model (dbt compile or show render it too, and must not change a thing). -#}
  {{ return(execute and flags.WHICH in ['run', 'build', 'retry']) }}
{% endmacro %}

{% macro _reaches(ranges, end, time_uom) %}
  {#- How many units before a window's start each input's read range begins ({name: units}), from the read
      ranges of a window [end, end]. -#}
  {%- set found = {} -%}
  {%- for name, bounds in ranges.items() -%}
    {%- do found.update({name: dbt_inc_join._units_between(end, bounds[0], time_uom)}) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _reach_ranges(reaches, start, end, time_uom) %}
  {#- Each input's read range of a window [start, end] (start none: from the beginning), as text. -#}
  {%- set found = {} -%}
  {%- for name, reach in reaches.items() -%}
    {%- set lower = none if start is none else dbt_inc_join._shift_value(start, -reach, time_uom) -%}
    {%- do found.update({name: [dbt_inc_join._unit_text(lower), dbt_inc_join._unit_text(end)]}) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _fingerprints(sides, ranges, time_uom) %}
  {#- The fingerprints of every input over its range, in one query: {input: {unit: "rows:hash"}}. -#}
  {%- set query = dbt_inc_join._fingerprints_sql(sides, ranges, time_uom) -%}
  {%- if query is none -%}{{ return({}) }}{%- endif -%}
  {{ return(dbt_inc_join._units_of(run_query(query).rows)) }}
{% endmacro %}

{% macro _fingerprints_sql(sides, ranges, time_uom) %}
  {#- _fingerprints' query; none without a range. -#}
  {%- set queries = [] -%}
  {%- for side in sides if ranges.get(side.name) -%}
    {%- set bounds = ranges[side.name] -%}
    {%- do queries.append(dbt_inc_join._fingerprint_query(side, dbt_inc_join._parse_text_value(bounds[0], time_uom),
                                                          dbt_inc_join._parse_text_value(bounds[1], time_uom), time_uom)) -%}
  {%- endfor -%}
  {{ return(queries | join('\nUNION ALL\n') if queries else none) }}
{% endmacro %}

{% macro _checks_inputs() %}
  {#- A run that fingerprints its inputs and checks them for restated units: one that records its runs, and writes. -#}
  {{ return(dbt_inc_join._ledger_for_this_model() is not none and dbt_inc_join._is_writing_run()) }}
{% endmacro %}

{% macro _reads_input_logs() %}
  {#- Whether a run that checks its inputs also reads their versions and logs (spec §17): var inc_join_input_logs,
      true unless set false. Off, its Delta and Iceberg inputs are checked as parquet ones are (spec §14). -#}
  {{ return(dbt_inc_join._flag('inc_join_input_logs', var('inc_join_input_logs', true))) }}
{% endmacro %}

{% macro _read_units(sides, reaches, start, time_uom, riders=[]) %}
  {#- The fingerprints of every input from its read range's first unit (start - reach) on, in one query:
      {'ranges': {input: [lower, none]}, 'units': {input: {unit: "rows:hash"}}, 'riders': {part: rows}}. The
      watermark's query of a run that checks its inputs: the latest arrivals are the latest units
      (_latest_units). riders: other queries sent in the same statement (_one_statement's parts: the inputs'
      logs, _input_state), so that they cost no statement of their own. -#}
  {%- set ranges = dbt_inc_join._reach_ranges(reaches, start, none, time_uom) -%}
  {%- set query = dbt_inc_join._fingerprints_sql(sides, ranges, time_uom) -%}
  {%- set rows = dbt_inc_join._one_statement(([('units', query)] if query is not none else []) + riders) -%}
  {{ return({'ranges': ranges, 'units': dbt_inc_join._units_of(rows.get('units') or []), 'riders': rows}) }}
{% endmacro %}

{% macro _latest_units(read, names, start) %}
  {#- Each input's latest unit from `start` on, as text, none without one, in the order of `names` (the
      watermark's query asks max(arrival) from `start` on, _latest_arrivals; a unit starts at its arrivals'). -#}
  {%- set first = dbt_inc_join._unit_text(start) -%}
  {%- set found = [] -%}
  {%- for name in names -%}
    {%- set seen = (read.units.get(name) or {}).keys() | select('ge', first) | list -%}
    {%- do found.append(seen | max if seen else none) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _units_read(read, queried) %}
  {#- The read units (_read_units) when they cover every queried range, else none (then the check reads them). -#}
  {%- if read is none -%}{{ return(none) }}{%- endif -%}
  {%- for name, bounds in queried.items() -%}
    {%- set have = read.ranges.get(name) -%}
    {%- if not have or bounds[0] is none or not dbt_inc_join._inside(bounds[0], have[0], have[1])
           or not dbt_inc_join._inside(bounds[1], have[0], have[1]) -%}
      {{ return(none) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(read.units) }}
{% endmacro %}

{% macro _check_restated(window, sides, reaches, mode, horizon=0) %}
  {#- What a run that records its runs finds of its inputs, before it writes (spec §14): the fingerprints of
      its read ranges and `horizon` units before them, the units among them that differ from what the table's
      committed runs read (the table property inc_join.fingerprints, or the ledger's records where the
      property does not reach), and the units found earlier that no run has redone (inc_join.outstanding).
      A first run (or full refresh) only fingerprints what the next run reads again. -#}
  {%- set check = {'units': {}, 'queried': {}, 'restated': [], 'pending': [], 'mode': mode, 'redone': {}, 'horizon': horizon} -%}
  {%- if window.get('in_sql') or not dbt_inc_join._checks_inputs() or not is_incremental() -%}
    {#- a first run (or full refresh) only fingerprints what the next run reads again (_restated_record) -#}
    {{ return(check) }}
  {%- endif -%}
  {%- set time_uom = window.time_uom -%}
  {#- the table's properties as the window's ledger state read them, else read now -#}
  {%- set committed = window.get('committed_fingerprints') -%}
  {%- if not committed -%}
    {%- set properties = dbt_inc_join._table_properties(this) -%}
    {%- set committed = {'text': properties.get('inc_join.fingerprints'), 'outstanding': properties.get('inc_join.outstanding'),
                         'input_versions': properties.get('inc_join.input_versions')} -%}
  {%- endif -%}
  {%- set recorded_versions = fromjson(committed.input_versions) if committed.get('input_versions') else [] -%}
  {%- set outstanding = fromjson(committed.outstanding) if committed.get('outstanding') else [] -%}
  {%- set previous = fromjson(committed.text) if committed.text else none -%}
  {%- set upstream = dbt_inc_join._upstream_state() -%}
  {%- set redone = upstream.redone -%}
  {%- do check.update({'redone': redone}) -%}
  {#- an upstream inc_join table with restated units its model did not redo: this table is stale where they reach -#}
  {%- for line in dbt_inc_join._upstream_outstanding_lines(this, upstream.outstanding, time_uom) -%}
    {%- do exceptions.warn(line) -%}
  {%- endfor -%}
  {#- an upstream inc_join table redone since restates this table's input from the redo's start, window or not -#}
  {%- set found = dbt_inc_join._upstream_restated(previous, redone, time_uom) -%}
  {%- if not window.empty -%}
    {%- set first = window.start if window.start is not none else dbt_inc_join._shift_value(window.end, 1, time_uom) -%}
    {%- set queried = dbt_inc_join._reach_ranges(reaches, first, window.end, time_uom) -%}
    {#- read with the watermark (_read_units) when the window's query took them -#}
    {%- set units = dbt_inc_join._units_read(window.get('read_units'), queried) -%}
    {%- if units is none -%}
      {%- set units = dbt_inc_join._fingerprints(sides, queried, time_uom) -%}
    {%- endif -%}
    {%- do check.update({'units': units, 'queried': queried}) -%}
    {%- set last_read = dbt_inc_join._unit_text(dbt_inc_join._shift_value(first, -1, time_uom)) -%}
    {%- if previous and not dbt_inc_join._covers(previous, queried, last_read) -%}
      {#- a horizon or a redo reaches before what the last run recorded, or a run given a past window recorded
          less than the runs before it read: what the ledger's records saw -#}
      {%- set previous = dbt_inc_join._recorded_fingerprints(dbt_inc_join._ledger_records(this), queried) -%}
    {%- endif -%}
    {%- set found = dbt_inc_join._restated_units(previous, units, queried) + found -%}
  {%- endif -%}
  {#- the Delta and Iceberg inputs' logs since the versions the last committed run read: units older than the
      read range, anywhere in history; a run with no window (nothing new yet) checks them too (spec §17) -#}
  {%- set logged = dbt_inc_join._log_restated(run_query, this, window, sides, fromjson(committed.text) if committed.text else none,
                                              check.queried, recorded_versions) -%}
  {%- for line in logged.notes -%}
    {%- do exceptions.warn(line) -%}
  {%- endfor -%}
  {%- set found = found + logged.found -%}
  {#- a run with no window (nothing new yet) still acts on the units found earlier and not redone -#}
  {%- do check.update({'restated': found | sort(attribute='input') | sort(attribute='unit'),
                       'pending': dbt_inc_join._pending_units(found, outstanding)}) -%}
  {%- set batches = config is defined and config.get('incremental_strategy') == 'microbatch' -%}
  {%- set named = check.pending -%}
  {%- if batches and window.start is not none -%}
    {#- a microbatch run re-does every unit from its batch on (a repair runs the batches again from the restated
        unit): it names only those before -#}
    {%- set named = named | selectattr('unit', 'lt', dbt_inc_join._unit_text(window.start)) | list -%}
  {%- endif -%}
  {%- if named and mode != 'redo' -%}
    {%- set message = dbt_inc_join._restated_message(this, model.name, named, time_uom, mode, check.queried, horizon,
                                                     logged.covered, batches) -%}
    {%- if mode == 'fail' -%}
      {{ exceptions.raise_compiler_error(message) }}
    {%- endif -%}
    {%- do exceptions.warn(message) -%}
  {%- endif -%}
  {{ return(check) }}
{% endmacro %}

{% macro _ledger_records(relation) %}
  {#- The fingerprint records of the table's committed runs, oldest first (the ledger's fingerprints column). -#}
  {%- set ledger = dbt_inc_join._ledger_for_this_model() -%}
  {%- set table_id = dbt_inc_join._table_properties(relation).get('inc_join.table_id') -%}
  {%- if ledger is none or table_id is none -%}{{ return([]) }}{%- endif -%}
  {%- set found = run_query(dbt_inc_join._ledger_records_sql(ledger, relation, table_id)) -%}
  {%- set records = [] -%}
  {%- for row in found.rows -%}{%- do records.append(fromjson(row[0])) -%}{%- endfor -%}
  {{ return(records) }}
{% endmacro %}

{% macro _ledger_records_sql(ledger, relation, table_id) %}
  {{ return("SELECT fingerprints FROM " ~ ledger ~ " WHERE relation = " ~ dbt_inc_join._text_literal(relation | string)
            ~ " AND table_id = " ~ dbt_inc_join._text_literal(table_id) ~ " AND fingerprints IS NOT NULL AND NOT empty"
            ~ " ORDER BY finished_at") }}
{% endmacro %}

{% macro _restated_record(check, window, sides, reaches, inc_col) %}
  {#- The fingerprints the run records: those of every unit it read (and `horizon` before), so that the ledger
      knows what each unit held when a run last read it, and ('next') the ranges the next run compares, which
      the post-hook mirrors in the table property inc_join.fingerprints. For a run that redoes the table from
      a unit on, the start of that redo: set as a table property before the partitions from there on are
      dropped, so a redo killed anywhere is done again by the next run (_start_after_this). -#}
  {%- if window.get('redo_from') is not none and not window.empty and is_incremental() and dbt_inc_join._is_writing_run() -%}
    {%- do dbt_inc_join._begin_redo(this, inc_col, window.redo_from, window.time_uom) -%}
  {%- endif -%}
  {%- if window.empty or window.get('in_sql') or not dbt_inc_join._checks_inputs() -%}
    {{ return({'fingerprints': none, 'restated': check.restated}) }}
  {%- endif -%}
  {%- set time_uom = window.time_uom -%}
  {%- set following = dbt_inc_join._reach_ranges(reaches, dbt_inc_join._shift_value(window.end, 1, time_uom), window.end, time_uom) -%}
  {%- set read = dbt_inc_join._reach_ranges(reaches, window.start, window.end, time_uom) if window.start is not none and is_incremental() else following -%}
  {%- set recorded = {} -%}
  {%- set missing = {} -%}
  {%- for name, bounds in read.items() -%}
    {%- set lower = [bounds[0], following[name][0]] | min -%}
    {%- do recorded.update({name: [lower, bounds[1]]}) -%}
    {%- set queried = check.queried.get(name) -%}
    {%- if not queried or not dbt_inc_join._inside(lower, queried[0], queried[1]) or not dbt_inc_join._inside(bounds[1], queried[0], queried[1]) -%}
      {%- do missing.update({name: [lower, bounds[1]]}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set units = check.units.copy() -%}
  {%- if missing -%}
    {#- a first run, or a redo, which reads before the units the check read (or, cut by max_window_units, ends
        before them): from the watermark's query when it took them, else fingerprinted now -#}
    {%- set read_before = dbt_inc_join._units_read(window.get('read_units'), missing) -%}
    {%- do units.update(read_before if read_before is not none else dbt_inc_join._fingerprints(sides, missing, time_uom)) -%}
  {%- endif -%}
  {%- set record = dbt_inc_join._fingerprint_record(units, recorded, check.redone) -%}
  {%- do record.update({'next': following, 'inputs': dbt_inc_join._recorded_inputs(sides)}) -%}
  {{ return({'fingerprints': record, 'restated': check.restated}) }}
{% endmacro %}

{% macro _recorded_inputs(sides) %}
  {#- The inputs a run read, as its record keeps them for the test restated_inputs, which checks them by default
      (spec §14): {name: {'relation', 'arrival'}}; sides: {'name', 'relation', 'arrival'} (a Python model's: the
      inputs loaded by dbt.ref or dbt.source). -#}
  {%- set found = {} -%}
  {%- for side in sides -%}
    {%- do found.update({side.name: {'relation': side.relation | string, 'arrival': side.arrival}}) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _fingerprint_sides(sides, names, columns_of) %}
  {#- The inputs as the fingerprints read them: {'name', 'relation', 'columns', 'arrival', 'raw_type'}, from the
      sides the window is decided on (a, then each B input; _arrival_sides), named `names`. -#}
  {%- set found = [] -%}
  {%- for side in sides -%}
    {%- set columns = [] -%}
    {%- for column in columns_of[loop.index0] -%}
      {%- do columns.append((column.name, column.dtype)) -%}
    {%- endfor -%}
    {%- do found.append({'name': names[loop.index0], 'relation': side[1], 'columns': columns,
                         'arrival': side[2].name, 'raw_type': side[3]}) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

