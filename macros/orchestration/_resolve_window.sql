{#- The output window of spec §6, step by step, for SQL and Python models (orchestration/python_models/port.py):
    the inputs' arrival sides, the given bounds, where the run starts after what the table holds, the watermark's
    query; every rule applied between them is plan/_window_rules.sql's. -#}

{% macro _resolve_window(a, b, a_columns, b_columns, inc_col, time_uom, how, output_window_start, output_window_end,
                         max_window_units=none, more_inputs=[], names=none, redo=none, reaches=none,
                         state_table=none, count_a=false) %}
  {#- output_window for inputs already read from the batch filter and described: inc_join calls this with the
      columns it described, so a run describes each input once. inc_join_many passes its first input as b and
      the others as more_inputs ({'relation', 'columns', 'inc_col'}): the watermark is the earliest of all;
      and `names` (a, then each input's name), which the end's reason gives each latest arrival. redo: the
      earlier start ({'start', 'reason'}) of a run that redoes its restated units (spec §14). reaches: how far
      before the start each input is read ({name: units}, names as the fingerprints name them), given by a run
      that checks its inputs for restated units: it fingerprints them in the watermark's query (read_units).
      state_table: the model's open state table (spec §18), when there is one: that query also counts the rows of
      the state as of the unit before the start (open_state_rows), which the run reads if the state is that.
      count_a: the same query also counts A's rows from the start on (a_rows: {'rows', 'units'}, for
      open_state='auto'; none where the watermark is declared). -#}
  {%- set arrivals = dbt_inc_join._arrival_sides(a, b, a_columns, b_columns, inc_col, time_uom, more_inputs) -%}
  {%- set inc_col, sides = arrivals.inc_col, arrivals.sides -%}
  {%- set batch = model.batch if (model is defined and model is not none and model.batch is defined) else none -%}
  {%- set explicit = dbt_inc_join._explicit_bounds(output_window_start, output_window_end, batch, time_uom) -%}
  {%- if dbt_inc_join._is_cte(a) or dbt_inc_join._is_cte(b) -%}
    {#- a unit test's given rows: the same rules, decided by SQL over them (_fixtures.sql) -#}
    {{ return(dbt_inc_join._window_in_sql(sides, inc_col, time_uom, how, explicit, max_window_units)) }}
  {%- endif -%}
  {#- the inputs as the fingerprints of restated units read them (spec §14), named a, b or a and each input's name -#}
  {%- set columns_of = [a_columns, b_columns] + more_inputs | map(attribute='columns') | list -%}
  {%- set checked = dbt_inc_join._fingerprint_sides(sides, names or ['a', 'b'], columns_of) -%}
  {%- set begin = dbt_inc_join._start_after_this(explicit, inc_col, time_uom, redo) -%}
  {#- the versions of its Delta and Iceberg inputs and their logs since the last committed run's, read before the
      model's query reads their rows (spec §17); a redo's second resolve (redo given) keeps the first's (its caller
      carries them over) -#}
  {%- set recorded = (begin.get('committed_fingerprints') or {}).get('input_versions') -%}
  {%- set logged = dbt_inc_join._input_state_parts(checked, fromjson(recorded) if recorded else [], time_uom)
                   if redo is none and dbt_inc_join._checks_inputs() and dbt_inc_join._reads_input_logs()
                   else {'versions': [], 'logs': {}, 'parts': []} -%}
  {#- the watermark (and the earliest arrival on a first run), in one query. An orchestrator that knows both
      inputs are loaded up to a unit (quiet days leave no rows to show it) declares it with a var instead. -#}
  {%- set declared = dbt_inc_join._declared_watermark(time_uom) -%}
  {%- set need_earliest = begin.start is none -%}
  {%- set read = none -%}
  {#- a run that checks its inputs (spec §14) fingerprints its read ranges in the query that finds the watermark:
      the check reads nothing more. Not a run given an end or max_window_units: its read ends there, the
      watermark (which the record and units_behind keep) may lie beyond. -#}
  {%- set open_ended = explicit.end is none and dbt_inc_join._max_window_units(max_window_units) is none -%}
  {%- set state_rows = none -%}
  {#- the rows of the state as of the unit before the start, for the run's rows_read: counted in this query -#}
  {%- set counted = [] -%}
  {%- if state_table is not none and begin.start is not none and dbt_inc_join._checks_inputs() -%}
    {%- set before = dbt_inc_join._moment_text(dbt_inc_join._shift_value(begin.start, -1, time_uom)) -%}
    {%- do counted.append(('open_state', dbt_inc_join._open_state_rows_sql(state_table, before))) -%}
  {%- endif -%}
  {%- if reaches and not need_earliest and declared is none and open_ended and dbt_inc_join._checks_inputs() -%}
    {#- the logs ride on this query: the log check adds no statement (spec §17); so does the state's count -#}
    {%- set read = dbt_inc_join._read_units(checked, reaches, begin.start, time_uom, logged.parts + counted) -%}
    {%- set logs = read.riders -%}
    {%- set state_rows = (logs.get('open_state') or [[none]])[0][0] -%}
    {%- set latest = dbt_inc_join._latest_units(read, checked | map(attribute='name') | list, begin.start) -%}
    {%- set row = {} -%}
    {%- for side in sides -%}
      {%- do row.update({side[0] ~ '_max': latest[loop.index0]}) -%}
    {%- endfor -%}
  {%- else -%}
    {%- set logs = dbt_inc_join._one_statement(logged.parts) -%}
    {%- set row = dbt_inc_join._latest_arrivals(sides, begin.start, declared, need_earliest, time_uom, count_a,
                                                counted) -%}
    {%- set state_rows = (row or {}).get('open_state') -%}
  {%- endif -%}
  {%- set inputs = dbt_inc_join._input_state(logged, logs) -%}
  {%- set seen = dbt_inc_join._watermark_from(row, sides, declared, time_uom, names) -%}
  {%- if need_earliest -%}
    {%- set begin = dbt_inc_join._earliest_start(row, how, begin.ledger_reason, time_uom) -%}
  {%- endif -%}
  {%- set end = dbt_inc_join._window_end(explicit, begin.start, seen, max_window_units, time_uom, names) -%}
  {%- set by_batch = (explicit.start_reason or '').startswith('microbatch')
                    and (explicit.end_reason or '').startswith('microbatch') -%}
  {%- if batch and by_batch and (end.empty or end.end < explicit.end) -%}
    {#- a batch no later run of dbt's may cover again: said where the scheduler sees it -#}
    {%- do exceptions.warn(dbt_inc_join._batch_cut_text(this, model.name, explicit.start, explicit.end,
                                                        {'empty': end.empty, 'end': end.end, 'end_reason': end.reason},
                                                        config.get('lookback'), time_uom)) -%}
  {%- endif -%}
  {%- set a_rows = dbt_inc_join._new_a_rows(read, row, sides[0][0], begin.start, seen.a_max, time_uom)
                   if count_a else none -%}
  {{ return({'start': begin.start, 'end': end.end, 'empty': end.empty, 'start_reason': begin.reason,
             'end_reason': end.reason, 'watermark': seen.watermark, 'a_max': seen.a_max, 'b_max': seen.b_max,
             'time_uom': time_uom, 'units_behind': end.units_behind, 'redo_from': begin.get('redo_from'),
             'sides': sides, 'committed_fingerprints': begin.get('committed_fingerprints'), 'read_units': read,
             'fingerprint_sides': checked, 'start_snapshot': begin.get('start_snapshot'),
             'input_versions': inputs.versions, 'input_logs': inputs.logs, 'open_state_rows': state_rows,
             'a_rows': a_rows}) }}
{% endmacro %}

{% macro _new_a_rows(read, row, side, start, a_max, time_uom) %}
  {#- {'rows', 'units'}: A's rows from `start` (a first run: its earliest arrival) to its latest arrival a_max, as
      the watermark's query counted them: in the fingerprints of a run that checks its inputs (read), else the
      count beside A's maximum (<side>_rows of row); none when the query did not count them. -#}
  {%- if read is none and (row is none or row.get(side ~ '_rows') is none) -%}{{ return(none) }}{%- endif -%}
  {%- if a_max is none -%}{{ return({'rows': 0, 'units': 1}) }}{%- endif -%}
  {%- if read is not none -%}
    {%- set counted = (dbt_inc_join._rows_read(read, {side: [start, a_max]}) or {}).get(side) -%}
    {%- if counted is none -%}{{ return(none) }}{%- endif -%}
  {%- else -%}
    {%- set counted = row[side ~ '_rows'] | int -%}
    {%- if start is none -%}
      {%- set start = dbt_inc_join._parse_text_value(row[side ~ '_min'], time_uom) -%}
    {%- endif -%}
  {%- endif -%}
  {{ return({'rows': counted, 'units': [dbt_inc_join._units_between(a_max, start, time_uom) + 1, 1] | max}) }}
{% endmacro %}
