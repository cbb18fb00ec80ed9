{#- The output window of spec §6, step by step; the same rules as orchestration/python_models/resolve_window.py: resolve_dbt_window.
    A unit test's given rows take the same steps as SQL over them (_fixtures.sql: _window_in_sql); both paths
    share the inputs' arrival sides, the given bounds, the earliest arrival's rule and the watermark's
    (_watermark.sql). -#}

{% macro _resolve_window(a, b, a_columns, b_columns, inc_col, time_uom, how, output_window_start, output_window_end,
                         max_window_units=none, more_inputs=[], names=none, redo=none, reaches=none) %}
  {#- output_window for inputs already read from the batch filter and described: inc_join calls this with the
      columns it described, so a run describes each input once. inc_join_many passes its first input as b and
      the others as more_inputs ({'relation', 'columns', 'inc_col'}): the watermark is the earliest of all;
      and `names` (a, then each input's name), which the end's reason gives each latest arrival. redo: the
      earlier start ({'start', 'reason'}) of a run that redoes its restated units (spec §14). reaches: how far
      before the start each input is read ({name: units}, names as the fingerprints name them), given by a run
      that checks its inputs for restated units: it fingerprints them in the watermark's query (read_units). -#}
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
                   if redo is none and dbt_inc_join._checks_inputs() else {'versions': [], 'logs': {}, 'parts': []} -%}
  {#- the watermark (and the earliest arrival on a first run), in one query. An orchestrator that knows both
      inputs are loaded up to a unit (quiet days leave no rows to show it) declares it with a var instead. -#}
  {%- set declared = dbt_inc_join._declared_watermark(time_uom) -%}
  {%- set need_earliest = begin.start is none -%}
  {%- set read = none -%}
  {#- a run that checks its inputs (spec §14) fingerprints its read ranges in the query that finds the watermark:
      the check reads nothing more. Not a run given an end or max_window_units: its read ends there, the
      watermark (which the record and units_behind keep) may lie beyond. -#}
  {%- set open_ended = explicit.end is none and dbt_inc_join._max_window_units(max_window_units) is none -%}
  {%- if reaches and not need_earliest and declared is none and open_ended and dbt_inc_join._checks_inputs() -%}
    {#- the logs ride on this query: the log check adds no statement (spec §17) -#}
    {%- set read = dbt_inc_join._read_units(checked, reaches, begin.start, time_uom, logged.parts) -%}
    {%- set logs = read.riders -%}
    {%- set latest = dbt_inc_join._latest_units(read, checked | map(attribute='name') | list, begin.start) -%}
    {%- set row = {} -%}
    {%- for side in sides -%}
      {%- do row.update({side[0] ~ '_max': latest[loop.index0]}) -%}
    {%- endfor -%}
  {%- else -%}
    {%- set logs = dbt_inc_join._one_statement(logged.parts) -%}
    {%- set row = dbt_inc_join._latest_arrivals(sides, begin.start, declared, need_earliest, time_uom) -%}
  {%- endif -%}
  {%- set inputs = dbt_inc_join._input_state(logged, logs) -%}
  {%- set seen = dbt_inc_join._watermark_from(row, sides, declared, time_uom, names) -%}
  {%- if need_earliest -%}
    {%- set begin = dbt_inc_join._earliest_start(row, how, begin.ledger_reason, time_uom) -%}
  {%- endif -%}
  {%- set end = dbt_inc_join._window_end(explicit, begin.start, seen, max_window_units, time_uom) -%}
  {{ return({'start': begin.start, 'end': end.end, 'empty': end.empty, 'start_reason': begin.reason,
             'end_reason': end.reason, 'watermark': seen.watermark, 'a_max': seen.a_max, 'b_max': seen.b_max,
             'time_uom': time_uom, 'units_behind': end.units_behind, 'redo_from': begin.get('redo_from'),
             'sides': sides, 'committed_fingerprints': begin.get('committed_fingerprints'), 'read_units': read,
             'fingerprint_sides': checked, 'start_snapshot': begin.get('start_snapshot'),
             'input_versions': inputs.versions, 'input_logs': inputs.logs}) }}
{% endmacro %}

{% macro _arrival_sides(a, b, a_columns, b_columns, inc_col, time_uom, more_inputs) %}
  {#- The inputs whose arrivals decide the window, checked: {'inc_col': the output's arrival column (A's name,
      also the one of this), 'sides': [(name, relation, column, raw type), ...]}, named a, b, b1, b2, ... -#}
  {%- set inc_cols = dbt_inc_join._arrival_pair(inc_col) -%}
  {%- set a_column = dbt_inc_join._require_column(a_columns, inc_cols[0], 'inc_col', 'a') -%}
  {%- set b_column = dbt_inc_join._require_column(b_columns, inc_cols[1], 'inc_col', 'b') -%}
  {%- set sides = [] -%}
  {%- for side, relation, column in [('a', a, a_column), ('b', b, b_column)] -%}
    {%- set type_name = dbt_inc_join._type_name(column) -%}
    {%- do dbt_inc_join._check_arrival_type(type_name, inc_cols[0], side, time_uom) -%}
    {%- do sides.append((side, relation, column, dbt_inc_join._raw_type_name(type_name))) -%}
  {%- endfor -%}
  {%- for extra in more_inputs -%}
    {%- set column = dbt_inc_join._require_column(extra.columns, dbt_inc_join._arrival_pair(extra.inc_col)[1], 'inc_col', 'b') -%}
    {%- do sides.append(('b' ~ loop.index, extra.relation, column, dbt_inc_join._raw_type_name(dbt_inc_join._type_name(column)))) -%}
  {%- endfor -%}
  {{ return({'inc_col': inc_cols[0], 'sides': sides}) }}
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

{% macro _redo_start(found, redos) %}
  {#- The earliest redo ({'start', 'reason'}) that starts at or before `found` (a start none is the beginning):
      a redo replaces the table's partitions from its start, which a plain run from there would not. -#}
  {%- set found = found.copy() -%}
  {%- for redo in redos | sort(attribute='start') -%}
    {%- if found.start is not none and redo.start <= found.start and found.redo_from is none -%}
      {%- do found.update({'start': redo.start, 'reason': redo.reason, 'redo_from': redo.start}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _earliest_start(row, how, ledger_reason, time_uom) %}
  {#- A first run (or full refresh, or a ledger that knows no committed run) starts at the earliest arrival. -#}
  {%- set earliest = dbt_inc_join._earliest_of(how) -%}
  {%- set candidates = [] -%}
  {%- for side in earliest.sides -%}
    {%- do candidates.append(dbt_inc_join._parse_text_value(row[side ~ '_min'], time_uom)) -%}
  {%- endfor -%}
  {%- set candidates = candidates | reject('none') | list -%}
  {{ return({'start': candidates | min if candidates else none,
             'reason': (ledger_reason ~ '; so from the ' if ledger_reason else '') ~ earliest.text
                       ~ ('' if ledger_reason else ' (first run or full refresh)')}) }}
{% endmacro %}

{% macro _window_end(explicit, start, seen, max_window_units, time_uom) %}
  {#- The end: the one given, else the watermark; always capped at the watermark (none while it is none), then
      at max_window_units units from the start. -#}
  {%- set end, end_reason = explicit.end, explicit.end_reason -%}
  {%- set watermark, watermark_text = seen.watermark, seen.text -%}
  {%- if watermark is none -%}
    {%- set end = none -%}
    {%- set end_reason = ('no arrivals yet in a or b' if start is none else 'a or b has no arrival from ' ~ start ~ ' on yet') ~ ': watermark ' ~ watermark_text -%}
  {%- elif end is none -%}
    {%- set end = watermark -%}
    {%- set end_reason = 'availability watermark ' ~ watermark_text -%}
  {%- elif end > watermark -%}
    {%- set end_reason = end_reason ~ ' ' ~ end ~ ', capped at the availability watermark ' ~ watermark_text -%}
    {%- set end = watermark -%}
  {%- endif -%}
  {%- set empty = end is none or (start is not none and start > end) -%}
  {%- set capped = dbt_inc_join._cap_window(start, end, empty, max_window_units, time_uom) -%}
  {%- if capped.units_behind -%}
    {%- set end = capped.end -%}
    {%- set end_reason = end_reason ~ '; ' ~ capped.reason -%}
  {%- endif -%}
  {{ return({'end': end, 'reason': end_reason, 'empty': empty, 'units_behind': capped.units_behind}) }}
{% endmacro %}

{% macro _explicit_bounds(output_window_start, output_window_end, batch, time_uom) %}
  {#- The bounds a run is given rather than finds in the data: argument > var > microbatch batch (none where
      none is given), each with what decided it. -#}
  {%- set bounds = {'start': none, 'start_reason': none, 'end': none, 'end_reason': none} -%}
  {%- set start_var = var('inc_join_output_window_start', none) -%}
  {%- set end_var = var('inc_join_output_window_end', none) -%}
  {%- if output_window_start not in [none, ''] -%}
    {%- do bounds.update({'start': dbt_inc_join._parse_bound(output_window_start, 'output_window_start', time_uom), 'start_reason': 'argument output_window_start'}) -%}
  {%- elif start_var not in [none, ''] -%}
    {%- do bounds.update({'start': dbt_inc_join._parse_bound(start_var, 'inc_join_output_window_start', time_uom), 'start_reason': 'var inc_join_output_window_start'}) -%}
  {%- elif batch -%}
    {%- do bounds.update({'start': dbt_inc_join._parse_bound(batch.event_time_start, 'model.batch.event_time_start', time_uom), 'start_reason': 'microbatch batch start'}) -%}
  {%- endif -%}
  {%- if output_window_end not in [none, ''] -%}
    {%- do bounds.update({'end': dbt_inc_join._parse_bound(output_window_end, 'output_window_end', time_uom), 'end_reason': 'argument output_window_end'}) -%}
  {%- elif end_var not in [none, ''] -%}
    {%- do bounds.update({'end': dbt_inc_join._parse_bound(end_var, 'inc_join_output_window_end', time_uom), 'end_reason': 'var inc_join_output_window_end'}) -%}
  {%- elif batch -%}
    {%- set last_moment = batch.event_time_end - modules.datetime.timedelta(microseconds=1) -%}
    {%- do bounds.update({'end': dbt_inc_join._parse_bound(last_moment, 'model.batch.event_time_end', time_uom), 'end_reason': 'microbatch batch end - 1 ' ~ time_uom}) -%}
  {%- endif -%}
  {{ return(bounds) }}
{% endmacro %}
