{#- Inputs rewritten after a run read them (docs/spec.md §14): the fingerprints of what a run read, the units
    that differ from what an earlier committed run read, and what a run does about them. restated.py holds the
    same rules (same names) for Python models; a fingerprint record is the same JSON in both languages:
    {"ranges": {input: [lower, upper]}, "units": {input: {unit: "rows:hash"}}}, as 'yyyy-MM-dd HH:mm:ss' text. -#}

{% macro _row_hash_sql(columns) %}
  {#- A 64-bit hash of a whole row: every column in name order; maps as JSON (Spark refuses to hash a map).
      columns: [(name, type name), ...]. -#}
  {%- set parts = [] -%}
  {%- for name, type_name in columns | sort(attribute=0) -%}
    {%- set quoted = dbt_inc_join._quote(name) -%}
    {%- do parts.append('to_json(' ~ quoted ~ ')' if 'map<' in type_name | lower else quoted) -%}
  {%- endfor -%}
  {{ return('xxhash64(' ~ parts | join(', ') ~ ')') }}
{% endmacro %}

{% macro _unit_sql(arrival, time_uom) %}
  {#- A row's arrival unit as fingerprint text. -#}
  {%- set truncated = "CAST(date_trunc('" ~ time_uom | upper ~ "', " ~ dbt_inc_join._quote(arrival) ~ ") AS TIMESTAMP)" -%}
  {{ return("date_format(" ~ truncated ~ ", 'yyyy-MM-dd HH:mm:ss')") }}
{% endmacro %}

{% macro _fingerprint_sql(columns) %}
  {#- The two aggregates of a unit's fingerprint: its rows, and the sum of its rows' hashes (order-free;
      DECIMAL(38,0) never overflows where a BIGINT sum would under ANSI mode). -#}
  {{ return(['count(*)', 'CAST(sum(CAST(' ~ dbt_inc_join._row_hash_sql(columns) ~ ' AS DECIMAL(38,0))) AS STRING)']) }}
{% endmacro %}

{% macro _fingerprint_query(side, lower, upper, time_uom) %}
  {#- One input's fingerprints over [lower, upper]: a row (input, unit, rows, hash) per unit with rows. side:
      {'name', 'relation', 'columns': [(name, type name)], 'arrival', 'raw_type'}. -#}
  {%- set aggregates = dbt_inc_join._fingerprint_sql(side.columns) -%}
  {{ return("SELECT '" ~ side.name ~ "' AS input, " ~ dbt_inc_join._unit_sql(side.arrival, time_uom) ~ " AS unit, "
            ~ aggregates[0] ~ " AS rows, " ~ aggregates[1] ~ " AS hash FROM " ~ side.relation
            ~ " WHERE " ~ dbt_inc_join._arrival_range_sql(side.arrival, side.raw_type, lower, upper, time_uom)
            ~ " GROUP BY 2") }}
{% endmacro %}

{% macro _unit_text(value) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {{ return(value.strftime('%Y-%m-%d %H:%M:%S') if value.hour is defined else value.isoformat() ~ ' 00:00:00') }}
{% endmacro %}

{% macro _unit_label(text, time_uom) %}
  {{ return(text[:10] if time_uom == 'day' else text) }}
{% endmacro %}

{% macro _text_ranges(ranges) %}
  {%- set found = {} -%}
  {%- for name, bounds in ranges.items() -%}
    {%- do found.update({name: [dbt_inc_join._unit_text(bounds[0]), dbt_inc_join._unit_text(bounds[1])]}) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _units_of(rows) %}
  {#- {input: {unit: "rows:hash"}} from (input, unit, rows, hash) rows. -#}
  {%- set found = {} -%}
  {%- for row in rows -%}
    {%- if row[0] not in found -%}{%- do found.update({row[0]: {}}) -%}{%- endif -%}
    {%- do found[row[0]].update({row[1]: (row[2] | string) ~ ':' ~ row[3]}) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _inside(unit, lower, upper) %}
  {{ return((lower is none or unit >= lower) and (upper is none or unit <= upper)) }}
{% endmacro %}

{% macro _fingerprint_record(units, ranges, redone={}) %}
  {#- What a run records of its reads: the units the next run reads again, with their fingerprints; and the
      redo markers of the upstream inc_join tables (redone, see _upstream_restated). -#}
  {%- set kept = {} -%}
  {%- for name, bounds in ranges.items() -%}
    {%- set own = {} -%}
    {%- for unit, value in (units.get(name) or {}).items() | sort -%}
      {%- if dbt_inc_join._inside(unit, bounds[0], bounds[1]) -%}{%- do own.update({unit: value}) -%}{%- endif -%}
    {%- endfor -%}
    {%- do kept.update({name: own}) -%}
  {%- endfor -%}
  {{ return({'ranges': ranges, 'units': kept, 'redone': redone}) }}
{% endmacro %}

{% macro _rows_of(value) %}
  {{ return(0 if value is none else value.split(':')[0] | int) }}
{% endmacro %}

{% macro _restated_units(previous, units, ranges) %}
  {#- The units, inside both this run's read range and the one an earlier committed run recorded, whose
      fingerprint differs (a unit without rows has none): {input, unit, rows_then, rows_now}, earliest first. -#}
  {%- if not previous -%}{{ return([]) }}{%- endif -%}
  {%- set found = [] -%}
  {%- for name, bounds in ranges.items() -%}
    {%- set before = (previous.get('ranges') or {}).get(name) -%}
    {%- if before is not none -%}
      {%- set then = (previous.get('units') or {}).get(name) or {} -%}
      {%- set now = units.get(name) or {} -%}
      {%- for unit in (then.keys() | list + now.keys() | list) | unique | sort -%}
        {%- set inside = dbt_inc_join._inside(unit, bounds[0], bounds[1]) and dbt_inc_join._inside(unit, before[0], before[1]) -%}
        {%- if inside and then.get(unit) != now.get(unit) -%}
          {%- do found.append({'input': name, 'unit': unit, 'rows_then': dbt_inc_join._rows_of(then.get(unit)),
                               'rows_now': dbt_inc_join._rows_of(now.get(unit))}) -%}
        {%- endif -%}
      {%- endfor -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found | sort(attribute='input') | sort(attribute='unit')) }}
{% endmacro %}

{% macro _upstream_restated(previous, redone, time_uom) %}
  {#- The upstream inc_join tables redone since the last committed run (their table property inc_join.redone
      names a run this table's record did not know): each restates its unit `from` on, whatever this run reads
      of it. Rows none: the unit was redone, not counted. -#}
  {%- if not previous or 'redone' not in previous -%}{{ return([]) }}{%- endif -%}
  {%- set found = [] -%}
  {%- for relation, marker in redone.items() | sort -%}
    {%- if (previous.redone.get(relation) or {}).get('run_key') != marker.run_key -%}
      {%- set moment = dbt_inc_join._parse_text_value(marker['from'], 'minute') -%}
      {%- set first = dbt_inc_join._unit_text(dbt_inc_join._floor_value(moment, time_uom)) -%}
      {%- do found.append({'input': relation, 'unit': first, 'rows_then': none, 'rows_now': none}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _upstream_redos() %}
  {#- The redo markers (table property inc_join.redone: the start and run_key of the table's last redo) of the
      incremental models this model reads. -#}
  {%- set found = {} -%}
  {%- for node_id in model.depends_on.nodes if node_id.startswith('model.') -%}
    {%- set node = graph.nodes.get(node_id) -%}
    {%- if node is not none and node.config.materialized == 'incremental' -%}
      {%- set relation = adapter.get_relation(database=node.database, schema=node.schema, identifier=node.alias) -%}
      {%- set marker = none if relation is none else dbt_inc_join._table_properties(relation).get('inc_join.redone') -%}
      {%- if marker -%}
        {%- do found.update({relation | string: fromjson(marker)}) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _on_restated_input_mode(argument) %}
  {#- What a run does with restated units: var inc_join_on_restated_input > argument > warn. -#}
  {%- set accepted = dbt_inc_join._argument('on_restated_input').accepted -%}
  {%- set from_var = var('inc_join_on_restated_input', none) -%}
  {%- if from_var not in [none, ''] -%}
    {{ return(dbt_inc_join._choice('inc_join_on_restated_input', from_var, accepted)) }}
  {%- endif -%}
  {%- if argument is none -%}{{ return('warn') }}{%- endif -%}
  {{ return(dbt_inc_join._choice('on_restated_input', argument, accepted)) }}
{% endmacro %}

{% macro _restated_text(restated, time_uom) %}
  {%- set parts = [] -%}
  {%- for row in restated -%}
    {%- set part = row.input ~ ' ' ~ dbt_inc_join._unit_label(row.unit, time_uom) -%}
    {%- if row.rows_then is none -%}
      {%- do parts.append(part ~ ' (redone by its model)') -%}
    {%- else -%}
      {%- do parts.append(part ~ ' (rows ' ~ row.rows_then ~ ' → ' ~ row.rows_now ~ ')') -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(parts | join(', ')) }}
{% endmacro %}

{% macro _redo_command(model_name, unit_text, time_uom) %}
  {{ return("dbt run --select " ~ model_name ~ " --vars '{inc_join_redo_from: \"" ~ dbt_inc_join._unit_label(unit_text, time_uom) ~ "\"}'") }}
{% endmacro %}

{% macro _restated_message(target, model_name, restated, time_uom, mode) %}
  {#- The warning (mode warn) or the error (mode fail) of a run that found restated units. -#}
  {%- set first = restated[0].unit -%}
  {{ return('inc_join ' ~ target ~ ': inputs changed after a committed run read them: '
            ~ dbt_inc_join._restated_text(restated, time_uom) ~ '. The table from '
            ~ dbt_inc_join._unit_label(first, time_uom) ~ ' on can differ from one run over the current inputs'
            ~ ' (on_restated_input=' ~ mode ~ ': ' ~ ('written as usual' if mode == 'warn' else 'nothing was written')
            ~ '). Redo it with: ' ~ dbt_inc_join._redo_command(model_name, first, time_uom)) }}
{% endmacro %}

{% macro _check_redo_strategy(strategy, parameter) %}
  {#- A redo replaces the table's partitions from a unit on: only insert_overwrite can. -#}
  {%- if strategy != 'insert_overwrite' -%}
    {{ exceptions.raise_compiler_error("inc_join: " ~ parameter ~ " needs incremental_strategy='insert_overwrite' (got "
       ~ dbt_inc_join._repr(strategy) ~ "): a redo replaces the table's partitions from the restated unit on; any "
       ~ "other strategy would keep the rows it replaces, or write them twice.") }}
  {%- endif -%}
{% endmacro %}

{% macro _is_writing_run() %}
  {#- A dbt command that writes the model (dbt compile or show render it too, and must not change a thing). -#}
  {{ return(execute and flags.WHICH in ['run', 'build', 'retry']) }}
{% endmacro %}

{% macro _check_redo_config(mode, inc_col) %}
  {#- Before any data is read: a redo (on_restated_input=redo, var inc_join_redo_from) replaces the partitions of
      this from a unit on, which only insert_overwrite over partitions of the arrival column can. -#}
  {%- if config.get('materialized') != 'incremental' -%}{{ return(none) }}{%- endif -%}
  {%- set parameters = [] -%}
  {%- if mode == 'redo' -%}{%- do parameters.append('on_restated_input=redo') -%}{%- endif -%}
  {%- if var('inc_join_redo_from', none) not in [none, ''] -%}{%- do parameters.append('var inc_join_redo_from') -%}{%- endif -%}
  {%- for parameter in parameters -%}
    {%- do dbt_inc_join._check_redo_strategy(config.get('incremental_strategy'), parameter) -%}
    {%- set partition_by = config.get('partition_by') or [] -%}
    {%- set partition_by = [partition_by] if partition_by is string else partition_by -%}
    {%- if inc_col | lower not in partition_by | map('lower') | list -%}
      {{ exceptions.raise_compiler_error("inc_join: " ~ parameter ~ " needs partition_by=['" ~ inc_col
         ~ "'] (the output's arrival column; got " ~ dbt_inc_join._repr(config.get('partition_by')) ~ ").") }}
    {%- endif -%}
  {%- endfor -%}
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
  {%- set queries = [] -%}
  {%- for side in sides if ranges.get(side.name) -%}
    {%- set bounds = ranges[side.name] -%}
    {%- do queries.append(dbt_inc_join._fingerprint_query(side, dbt_inc_join._parse_text_value(bounds[0], time_uom),
                                                          dbt_inc_join._parse_text_value(bounds[1], time_uom), time_uom)) -%}
  {%- endfor -%}
  {%- if not queries -%}{{ return({}) }}{%- endif -%}
  {{ return(dbt_inc_join._units_of(run_query(queries | join('\nUNION ALL\n')).rows)) }}
{% endmacro %}

{% macro _check_restated(window, sides, reaches, mode) %}
  {#- What a run that records its runs finds of its inputs, before it writes (spec §14): the fingerprints of
      its read ranges, and the units among them that differ from what the table's last committed run read.
      A first run (or full refresh) only fingerprints what the next run reads again. -#}
  {%- set check = {'units': {}, 'queried': {}, 'restated': [], 'mode': mode, 'redone': {}} -%}
  {%- if window.empty or window.get('in_sql') or dbt_inc_join._ledger_for_this_model() is none
         or not dbt_inc_join._is_writing_run() -%}
    {{ return(check) }}
  {%- endif -%}
  {%- set time_uom = window.time_uom -%}
  {%- if window.start is none -%}
    {%- set queried = dbt_inc_join._reach_ranges(reaches, dbt_inc_join._shift_value(window.end, 1, time_uom), window.end, time_uom) -%}
  {%- else -%}
    {%- set queried = dbt_inc_join._reach_ranges(reaches, window.start, window.end, time_uom) -%}
  {%- endif -%}
  {%- set units = dbt_inc_join._fingerprints(sides, queried, time_uom) -%}
  {%- do check.update({'units': units, 'queried': queried}) -%}
  {%- set redone = dbt_inc_join._upstream_redos() -%}
  {%- do check.update({'redone': redone}) -%}
  {%- if is_incremental() -%}
    {%- set previous = dbt_inc_join._table_properties(this).get('inc_join.fingerprints') -%}
    {%- set previous = fromjson(previous) if previous else none -%}
    {%- set found = dbt_inc_join._restated_units(previous, units, queried) + dbt_inc_join._upstream_restated(previous, redone, time_uom) -%}
    {%- do check.update({'restated': found | sort(attribute='input') | sort(attribute='unit')}) -%}
  {%- endif -%}
  {%- if check.restated and mode != 'redo' -%}
    {%- set message = dbt_inc_join._restated_message(this, model.name, check.restated, time_uom, mode) -%}
    {%- if mode == 'fail' -%}
      {{ exceptions.raise_compiler_error(message) }}
    {%- endif -%}
    {%- do exceptions.warn(message) -%}
  {%- endif -%}
  {{ return(check) }}
{% endmacro %}

{% macro _redo_of(check, window) %}
  {#- The redo a run with on_restated_input=redo makes of its restated units: start at the earliest (no output
      row a unit can change is placed before it, spec §14), or none when the window already starts there. -#}
  {%- if check.mode != 'redo' or not check.restated -%}{{ return(none) }}{%- endif -%}
  {%- set earliest = dbt_inc_join._parse_text_value(check.restated[0].unit, window.time_uom) -%}
  {%- if window.start is not none and earliest >= window.start -%}{{ return(none) }}{%- endif -%}
  {{ return({'start': earliest, 'reason': 'on_restated_input=redo: restated ' ~ dbt_inc_join._restated_text(check.restated, window.time_uom)}) }}
{% endmacro %}

{% macro _restated_record(check, window, sides, reaches, inc_col) %}
  {#- The fingerprints the run records (the units the next run reads again), and, for a run that redoes the
      table from a unit on, the start of that redo: set as a table property before the partitions from there
      on are dropped, so a redo killed anywhere is done again by the next run (_start_after_this). -#}
  {%- if window.get('redo_from') is not none and not window.empty and is_incremental() and dbt_inc_join._is_writing_run() -%}
    {%- do dbt_inc_join._begin_redo(this, inc_col, window.redo_from, window.time_uom) -%}
  {%- endif -%}
  {%- if window.empty or window.get('in_sql') or dbt_inc_join._ledger_for_this_model() is none
         or not dbt_inc_join._is_writing_run() -%}
    {{ return({'fingerprints': none, 'restated': check.restated}) }}
  {%- endif -%}
  {%- set time_uom = window.time_uom -%}
  {%- set following = dbt_inc_join._reach_ranges(reaches, dbt_inc_join._shift_value(window.end, 1, time_uom), window.end, time_uom) -%}
  {%- set units = check.units -%}
  {%- set missing = {} -%}
  {%- for name, bounds in following.items() -%}
    {%- set queried = check.queried.get(name) -%}
    {%- if not queried or not dbt_inc_join._inside(bounds[0], queried[0], queried[1]) or not dbt_inc_join._inside(bounds[1], queried[0], queried[1]) -%}
      {%- do missing.update({name: bounds}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if missing -%}
    {#- a redo cut by max_window_units ends before the units the check read: fingerprint those the next run reads -#}
    {%- set units = dbt_inc_join._fingerprints(sides, missing, time_uom) -%}
  {%- endif -%}
  {{ return({'fingerprints': dbt_inc_join._fingerprint_record(units, following, check.redone), 'restated': check.restated}) }}
{% endmacro %}

{% macro _begin_redo(relation, inc_col, start, time_uom) %}
  {#- Before a redo writes: remember its start, then drop the table's partitions from it on (insert_overwrite
      replaces only the partitions it writes; one that the inputs no longer fill would keep its old rows). -#}
  {%- set first = dbt_inc_join._unit_text(start) -%}
  {%- do dbt_inc_join._set_table_property(relation, 'inc_join.redo_from', first) -%}
  {#- the catalog's partitions (no data read): 'RecDate=2025-03-06', or 'ts=2025-03-06 05%3A00%3A00' -#}
  {%- set partitions = [] -%}
  {%- for row in run_query('SHOW PARTITIONS ' ~ relation).rows -%}
    {%- set value = row[0].split('=', 1)[1].replace('%3A', ':').replace('%20', ' ') -%}
    {%- if (value ~ ' 00:00:00')[:19] >= first -%}
      {%- do partitions.append('PARTITION (' ~ dbt_inc_join._quote(inc_col) ~ " = '" ~ value ~ "')") -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if partitions -%}
    {%- do run_query('ALTER TABLE ' ~ relation ~ ' DROP IF EXISTS ' ~ partitions | join(', ')) -%}
  {%- endif -%}
{% endmacro %}

{% macro _fingerprint_sides(window, names, columns_of) %}
  {#- The inputs as the fingerprints read them: {'name', 'relation', 'columns', 'arrival', 'raw_type'}, from the
      sides the window was decided on (a, then each B input), named `names`. -#}
  {%- set found = [] -%}
  {%- for side in window.get('sides') or [] -%}
    {%- set columns = [] -%}
    {%- for column in columns_of[loop.index0] -%}
      {%- do columns.append((column.name, column.dtype)) -%}
    {%- endfor -%}
    {%- do found.append({'name': names[loop.index0], 'relation': side[1], 'columns': columns,
                         'arrival': side[2].name, 'raw_type': side[3]}) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}
