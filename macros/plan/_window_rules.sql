{#- The rules of the output window (spec §6), for SQL and Python models: the inputs' arrival sides, the given
    bounds, a redo's earlier start, the earliest arrival's start, the end and its cap, the watermark; and the same
    rules as SQL over a unit test's given rows (_window_in_sql). The steps that read state and call these are
    orchestration/_resolve_window.sql's and io/_ledger_state.sql's (_start_after_this). -#}

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

{% macro _window_end(explicit, start, seen, max_window_units, time_uom, names=none) %}
  {#- The end: the one given, else the watermark; always capped at the watermark (none while it is none), then
      at max_window_units units from the start. names: the inputs (inc_join_many: a, then each input's name). -#}
  {%- set who = 'a or b' if not names or names | length < 2 else names[:-1] | join(', ') ~ ' or ' ~ names[-1] -%}
  {%- set end, end_reason = explicit.end, explicit.end_reason -%}
  {%- set watermark, watermark_text = seen.watermark, seen.text -%}
  {%- if watermark is none -%}
    {%- set end = none -%}
    {#- the inputs without an arrival from the start on, where the watermark's query told them -#}
    {%- set stalled = seen.get('stalled') or [] -%}
    {%- set since = (dbt_inc_join._in_words(stalled) ~ (' has' if stalled | length == 1 else ' have')) if stalled else who ~ ' has' -%}
    {%- set end_reason = ('no arrivals yet in ' ~ who if start is none else since ~ ' no arrival from ' ~ start ~ ' on yet') ~ ': watermark ' ~ watermark_text -%}
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

{% macro _batch_cut_text(target, model_name, first, last, window, lookback, time_uom) %}
  {#- The warning of a microbatch batch the availability watermark cut (spec §6): what it wrote, why, and what
      writes the rest. first, last: the batch's first and last units; window: _resolve_window's; lookback: the
      model's config (dbt's default 1). -#}
  {%- set texts = [dbt_inc_join._unit_text(first), dbt_inc_join._unit_text(last)] -%}
  {%- set written = 'nothing' if window.empty else 'up to ' ~ dbt_inc_join._unit_label(dbt_inc_join._unit_text(window.end), time_uom) -%}
  {{ return('inc_join ' ~ target ~ ': microbatch batch ' ~ dbt_inc_join._unit_label(texts[0], time_uom) ~ '..'
            ~ dbt_inc_join._unit_label(texts[1], time_uom) ~ ' wrote ' ~ written ~ ' (' ~ window.end_reason ~ '). '
            ~ 'The rest is written by a later run whose batches cover it again: its lookback (' ~ (lookback or 1)
            ~ ' batch(es)) if the inputs are loaded by then, else `'
            ~ dbt_inc_join._batches_command(model_name, texts[0], texts[1], time_uom)[0] ~ '`.') }}
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

{% macro _window_in_sql(sides, inc_col, time_uom, how, explicit, max_window_units) %}
  {#- The output window of spec §6 decided by SQL over the given rows: the same rules as _resolve_window, with
      the largest output arrival in `this`, the earliest arrivals and the watermark as scalar subqueries over the
      fixtures' CTEs. The bounds come out as SQL bounds ({'sql', 'units', 'time_uom'}: _shift_value and _sql_literal take them).
      `sides` as _arrival_sides gives them: with inc_join_many's further inputs the watermark is the earliest of all. -#}
  {%- set arrivals = dbt_inc_join._arrival_subqueries(sides, inc_col, time_uom) -%}
  {%- set start = dbt_inc_join._start_in_sql(explicit, how, inc_col, time_uom) -%}
  {%- set end = dbt_inc_join._end_in_sql(explicit, sides, max_window_units, time_uom) -%}
  {%- set ctes -%}
_inc_join_window as (
    select window_start,
           {{ end.sql }} as window_end
    from (
        select {{ start.sql }} as window_start,
               {{ end.watermark_sql }} as watermark
        from (
            select {{ arrivals | join(',\n                   ') }}
        ) _inc_join_arrivals
    ) _inc_join_window_parts
),
  {%- endset -%}
  {%- set bound = {'units': 0, 'time_uom': time_uom} -%}
  {{ return({'start': dict(bound, sql='(SELECT window_start FROM _inc_join_window)'),
             'end': dict(bound, sql='(SELECT window_end FROM _inc_join_window)'),
             'empty': false, 'in_sql': true, 'ctes': ctes ~ '\n',
             'start_reason': start.reason, 'end_reason': end.reason,
             'watermark': none, 'a_max': none, 'b_max': none, 'time_uom': time_uom, 'units_behind': 0}) }}
{% endmacro %}

{% macro _arrival_subqueries(sides, inc_col, time_uom) %}
  {#- The arrivals the rules read, each one scalar subquery over a CTE: <side>_max, <side>_min, this_max. -#}
  {%- set unit_type = dbt_inc_join._unit_type(time_uom) -%}
  {%- set arrivals = [] -%}
  {%- for side, relation, column, raw_type in sides -%}
    {%- set arrival = dbt_inc_join._truncate_sql(dbt_inc_join._quote(column.name), time_uom) -%}
    {%- do arrivals.append('(SELECT max(' ~ arrival ~ ') FROM ' ~ relation ~ ') AS ' ~ side ~ '_max') -%}
    {%- do arrivals.append('(SELECT min(' ~ arrival ~ ') FROM ' ~ relation ~ ') AS ' ~ side ~ '_min') -%}
  {%- endfor -%}
  {%- set this_arrival = dbt_inc_join._truncate_sql(dbt_inc_join._quote(inc_col), time_uom) -%}
  {%- do arrivals.append(('CAST(NULL AS ' ~ unit_type ~ ')' if this is none else '(SELECT max(' ~ this_arrival ~ ') FROM ' ~ this ~ ')') ~ ' AS this_max') -%}
  {{ return(arrivals) }}
{% endmacro %}

{% macro _start_in_sql(explicit, how, inc_col, time_uom) %}
  {#- start: an explicit bound, else after the largest output arrival in `this` (no rows given: none), else the
      earliest arrival (_earliest_of). -#}
  {%- set earliest = dbt_inc_join._earliest_of(how) -%}
  {%- set names = [] -%}
  {%- for side in earliest.sides -%}{%- do names.append(side ~ '_min') -%}{%- endfor -%}
  {#- Spark's least skips NULLs: the earliest of the sides that have rows -#}
  {%- set earliest_sql = names[0] if names | length == 1 else 'least(' ~ names | join(', ') ~ ')' -%}
  {%- if explicit.start is not none -%}
    {{ return({'sql': dbt_inc_join._sql_literal(explicit.start, dbt_inc_join._unit_type(time_uom)), 'reason': explicit.start_reason}) }}
  {%- elif is_incremental() -%}
    {{ return({'sql': 'coalesce(' ~ dbt_inc_join._add_units_sql('this_max', 1, time_uom) ~ ', ' ~ earliest_sql ~ ')',
               'reason': 'max(' ~ inc_col ~ ') in this + 1 ' ~ time_uom ~ ', else the ' ~ earliest.text}) }}
  {%- endif -%}
  {{ return({'sql': earliest_sql, 'reason': earliest.text}) }}
{% endmacro %}

{% macro _end_in_sql(explicit, sides, max_window_units, time_uom) %}
  {#- end: an explicit bound or the watermark, capped at the watermark (none while a side has no rows), then
      at max_window_units units. {'sql', 'reason', 'watermark_sql'} -#}
  {%- set unit_type = dbt_inc_join._unit_type(time_uom) -%}
  {%- set maxima = [] -%}
  {%- for side in sides -%}{%- do maxima.append(side[0] ~ '_max') -%}{%- endfor -%}
  {%- set watermark_sql = dbt_inc_join._watermark_of(maxima, dbt_inc_join._least_sql) -%}
  {%- set declared = dbt_inc_join._declared_watermark(time_uom) -%}
  {%- if declared is not none -%}
    {%- set watermark_sql = dbt_inc_join._sql_literal(declared, unit_type) -%}
  {%- endif -%}
  {%- set end_sql = 'watermark' -%}
  {%- set end_reason = 'availability watermark' -%}
  {%- if explicit.end is not none -%}
    {%- set end_sql = dbt_inc_join._least_sql(dbt_inc_join._sql_literal(explicit.end, unit_type), 'watermark') -%}
    {%- set end_reason = explicit.end_reason ~ ', capped at the availability watermark' -%}
  {%- endif -%}
  {%- set cap = dbt_inc_join._max_window_units(max_window_units) -%}
  {%- if cap is not none -%}
    {%- set end_sql = 'CASE WHEN window_start IS NULL THEN ' ~ end_sql ~ ' ELSE ' ~ dbt_inc_join._least_sql(end_sql, dbt_inc_join._add_units_sql('window_start', cap - 1, time_uom)) ~ ' END' -%}
    {%- set end_reason = end_reason ~ '; max_window_units=' ~ cap -%}
  {%- endif -%}
  {{ return({'sql': end_sql, 'reason': end_reason, 'watermark_sql': watermark_sql}) }}
{% endmacro %}

{% macro _is_cte(relation) %}
  {#- An input that exists only as a CTE of the query: a unit test's given rows, or an ephemeral model. -#}
  {%- set identifier = relation.identifier if relation.identifier is defined else (relation | string) -%}
  {{- return((identifier or '').startswith('__dbt__cte__')) -}}
{% endmacro %}

{% macro _declared_watermark(time_uom) %}
  {#- The watermark declared by var inc_join_available_until (quiet days leave no rows to show it), or none. -#}
  {%- set declared = var('inc_join_available_until', none) -%}
  {{ return(none if declared in [none, ''] else dbt_inc_join._parse_bound(declared, 'inc_join_available_until', time_uom)) }}
{% endmacro %}

{% macro _earliest_of(how) %}
  {#- Where a first run starts: the earliest arrival of a (of a or b for how = full); the sides and the text. -#}
  {%- set sides = ['a', 'b'] if how == 'full' else ['a'] -%}
  {{ return({'sides': sides, 'text': 'earliest arrival of ' ~ sides | join(' or ')}) }}
{% endmacro %}

{% macro _watermark_of(maxima, least) %}
  {#- The earliest of the latest arrivals, none while one of them is none. `least`
      takes two of them: _least_value for values, _least_sql for SQL over them. -#}
  {%- set found = namespace(value=maxima[0]) -%}
  {%- for latest in maxima[1:] -%}
    {%- set found.value = least(found.value, latest) -%}
  {%- endfor -%}
  {{ return(found.value) }}
{% endmacro %}

{% macro _least_value(first, second) %}
  {#- The smaller of two unit values, none when either is none. -#}
  {{- return(none if (first is none or second is none) else [first, second] | min) -}}
{% endmacro %}

{% macro _least_sql(first, second) %}
  {#- The smaller of two unit values, none when either is none (Spark's least skips NULLs). -#}
  {{- return('CASE WHEN ' ~ first ~ ' IS NULL OR ' ~ second ~ ' IS NULL THEN NULL ELSE least(' ~ first ~ ', ' ~ second ~ ') END') -}}
{% endmacro %}

{% macro _watermark_from(row, sides, declared, time_uom, names=none) %}
  {#- {'a_max', 'b_max', 'watermark', 'text'}: b_max is the earliest of the inputs' latest arrivals (several
      inputs: none while one has none); text says how the watermark came about, with `names` (inc_join_many:
      a, then each input's name) naming each latest arrival and the inputs that hold the watermark back. -#}
  {%- if declared is not none -%}
    {{ return({'a_max': none, 'b_max': none, 'watermark': declared,
               'text': declared ~ ' declared by var inc_join_available_until'}) }}
  {%- endif -%}
  {%- set maxima = [] -%}
  {%- for side in sides -%}
    {%- do maxima.append(dbt_inc_join._parse_text_value(row[side[0] ~ '_max'], time_uom)) -%}
  {%- endfor -%}
  {%- set a_max = maxima[0] -%}
  {%- set b_max = dbt_inc_join._watermark_of(maxima[1:], dbt_inc_join._least_value) -%}
  {%- if names is none -%}
    {%- set text = dbt_inc_join._watermark_text(a_max, b_max) -%}
  {%- else -%}
    {%- set text = dbt_inc_join._named_watermark_text(names, maxima) -%}
  {%- endif -%}
  {%- set stalled = [] -%}
  {%- for side in sides -%}
    {%- if maxima[loop.index0] is none -%}
      {%- do stalled.append(side[0] if names is none else names[loop.index0]) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'a_max': a_max, 'b_max': b_max, 'watermark': dbt_inc_join._watermark_of([a_max, b_max], dbt_inc_join._least_value),
             'text': text, 'stalled': stalled}) }}
{% endmacro %}

{% macro _watermark_text(a_max, b_max) %}
  {#- How the watermark came about, naming the input that holds it back. -#}
  {{ return('min(max a ' ~ (a_max or 'none') ~ ', max b ' ~ (b_max or 'none') ~ ')') }}
{% endmacro %}

{% macro _named_watermark_text(names, maxima) %}
  {#- inc_join_many's watermark: each input's latest arrival under its name, and the inputs that hold the
      watermark back. -#}
  {%- set listed = [] -%}
  {%- for name in names -%}
    {%- do listed.append('max ' ~ name ~ ' ' ~ (maxima[loop.index0] or 'none')) -%}
  {%- endfor -%}
  {{ return('min(' ~ listed | join(', ') ~ '), held back by ' ~ dbt_inc_join._in_words(dbt_inc_join._watermark_holders(names, maxima))) }}
{% endmacro %}

{% macro _watermark_holders(names, maxima) %}
  {#- The inputs that hold the watermark back: those without an arrival, else those whose latest arrival is
      the watermark (ties name each). -#}
  {%- set stalled = [] -%}
  {%- for name in names -%}
    {%- if maxima[loop.index0] is none -%}{%- do stalled.append(name) -%}{%- endif -%}
  {%- endfor -%}
  {%- if stalled -%}
    {{ return(stalled) }}
  {%- endif -%}
  {%- set earliest = maxima | min -%}
  {%- set holders = [] -%}
  {%- for name in names -%}
    {%- if maxima[loop.index0] == earliest -%}{%- do holders.append(name) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(holders) }}
{% endmacro %}
