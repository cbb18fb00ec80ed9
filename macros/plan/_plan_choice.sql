{#- Which plan pairs the rows of one run (docs/spec.md §15): the plain key join, or the grouped plan of spec §11.
    The core renders the rules and the query of 'auto' (src/dbt_inc_join/plan/plan_choice.py) and runs it itself;
    the sample size and threshold come from the shared table (macros/tables/generated/_plan_choice_settings.sql). -#}

{% macro _fixed_plan(params, reads_nothing) %}
  {#- The plan when the read ranges need not be known ({'grouped', 'reason', 'text'}), or none
      (many_rows_per_key='auto': _range_plan, then the samples or, for one row per A, the grouped plan decide). -#}
  {%- if params.mode == 'all' -%}
    {%- if params.late_match_time -%}
      {{ return(dbt_inc_join._plan_choice(false, 'late matches use the plain plan')) }}
    {%- elif not params.enforce_sliding_join_window -%}
      {{ return(dbt_inc_join._plan_choice(false, 'compatibility mode')) }}
    {%- endif -%}
  {%- endif -%}
  {{ return(dbt_inc_join._forced_plan(params, reads_nothing)) }}
{% endmacro %}

{% macro _forced_plan(params, reads_nothing) %}
  {#- The plan many_rows_per_key sets, or the plain one for a run that reads nothing; none: 'auto' decides (also
      for each input of inc_join_many, whose one row per A may take either plan). -#}
  {%- if params.many_rows_per_key is boolean -%}
    {{ return(dbt_inc_join._plan_choice(params.many_rows_per_key, 'set by many_rows_per_key')) }}
  {%- elif reads_nothing -%}
    {{ return(dbt_inc_join._plan_choice(false, 'the run reads nothing')) }}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro _plan_choice(grouped, reason, pairs_a_rows=false) %}
  {#- pairs_a_rows: the plain plan may pair B with A's rows as they are (A's sample showed (nearly) unique keys),
      so a pick needs no distinct (keys, arrival) of A first; an aggregate always takes it (spec §15). -#}
  {{ return({
      'grouped': grouped,
      'reason': reason,
      'pairs_a_rows': pairs_a_rows,
      'text': ('grouped' if grouped else 'plain') ~ ' (' ~ reason ~ ')',
  }) }}
{% endmacro %}

{% macro _range_plan(b_lower, end, look_back_time, max_waiting_time, time_uom) %}
  {#- The plain plan when B's read range [b_lower, end] spans at most range_windows join windows (the grouped
      plan's bucket width), or none: then the samples decide. No data is read. -#}
  {%- if b_lower is none -%}{{ return(none) }}{%- endif -%}
  {%- set units = dbt_inc_join._units_between(end, b_lower, time_uom) + 1 -%}
  {%- set width = dbt_inc_join._bucket_width(look_back_time, max_waiting_time) -%}
  {%- set windows = dbt_inc_join._plan_choice_settings().range_windows -%}
  {%- if units > windows * width -%}{{ return(none) }}{%- endif -%}
  {{ return(dbt_inc_join._plan_choice(false, "auto: B's read range of " ~ dbt_inc_join._units_text(units, time_uom)
                                             ~ ' is at most ' ~ windows ~ ' join windows of '
                                             ~ dbt_inc_join._units_text(width, time_uom))) }}
{% endmacro %}

{% macro _sample_predicate(keys, range_sql) %}
  {#- The rows a side's sample is drawn from: its read range, keys not NULL (they never pair). -#}
  {%- set parts = ['(' ~ range_sql ~ ')'] -%}
  {%- for key in keys -%}{%- do parts.append(dbt_inc_join._quote(key) ~ ' IS NOT NULL') -%}{%- endfor -%}
  {{ return(parts | join(' AND ')) }}
{% endmacro %}

{% macro _choose_join_plan(a, b, params, inputs, window) %}
  {#- The plan of a run: _fixed_plan, _range_plan, the grouped plan for one row per A, or _pairs_plan from one
      query over A's sample and B's last join window (spec §4's read ranges). A unit test's window is decided in
      SQL over its given rows: nothing to sample there. -#}
  {%- set fixed = dbt_inc_join._fixed_plan(params, window.end is none or window.empty) -%}
  {%- if fixed is not none -%}{{ return(fixed) }}{%- endif -%}
  {%- if window.get('in_sql') -%}
    {{ return(dbt_inc_join._plan_choice(false, "a unit test's given rows")) }}
  {%- endif -%}
  {%- set unit = params.time_uom -%}
  {%- set ranges = dbt_inc_join._read_ranges(window.start, window.end, params.how, params.look_back_time,
                                              params.max_waiting_time, unit, 0) -%}
  {%- set short = dbt_inc_join._range_plan(ranges[1][0], ranges[1][1], params.look_back_time,
                                           params.max_waiting_time, unit) -%}
  {%- if short is not none -%}{{ return(short) }}{%- endif -%}
  {%- if params.mode != 'all' -%}
    {#- one row per A (partner first, last, aggregate) reduces B per A's (keys, arrival) either way; over a long
        range the buckets win, and A is often an earlier step's output, which a sample would compute -#}
    {{ return(dbt_inc_join._plan_choice(true, 'one row per A row')) }}
  {%- endif -%}
  {%- set reach = dbt_inc_join._pairs_ranges(ranges, window.start, window.end, params.look_back_time,
                                             params.max_waiting_time, unit) -%}
  {%- if reach.a is none -%}{{ return(dbt_inc_join._pairs_plan(none, reach, unit)) }}{%- endif -%}
  {%- set a_range = dbt_inc_join._arrival_range_sql(inputs.inc_col[0], inputs.raw_types[0], reach.a[0], reach.a[1],
                                                    unit) -%}
  {%- set side = {
      'relation': b,
      'a_keys': inputs['keys'] | map(attribute=0) | list,
      'b_keys': inputs['keys'] | map(attribute=1) | list,
      'range_sql': dbt_inc_join._arrival_range_sql(inputs.inc_col[1], inputs.raw_types[1], reach.b[0], reach.b[1], unit),
  } -%}
  {%- set found = dbt_inc_join._pairs_query(a, a_range, [side]) -%}
  {{ return(dbt_inc_join._pairs_plan(dbt_inc_join._pairs_found(found, 0), reach, unit)) }}
{% endmacro %}

{% macro _pairs_ranges(ranges, start, end, look_back_time, max_waiting_time, time_uom, sample_width=none) %}
  {#- What the one query of 'auto' reads on a long run of partner = all: B's last join window [end - w + 1, end]
      (w = look_back_time + max_waiting_time + 1), and A's sample from the start of its read range to the end of
      the output window's first join window [start, start + w - 1] (where a first run's data begins), never past
      end - w - mw, so that the sample's own partners all arrive before B's window: a key of the sample found
      there has rows far apart in time.
      b_units: the length of B's read range (none: it has no lower bound); a: none when nothing lies before.
      sample_width: the first window's width when one sample serves several inputs (inc_join_many: the widest). -#}
  {%- set width = dbt_inc_join._bucket_width(look_back_time, max_waiting_time) -%}
  {%- set a_upper = dbt_inc_join._shift_value(end, -(width + max_waiting_time), time_uom) -%}
  {%- set a_lower = ranges[0][0] -%}
  {%- if a_lower is not none -%}
    {#- a first join window is enough for a sample, and lists few partitions -#}
    {%- set first_window = dbt_inc_join._shift_value(start, (sample_width or width) - 1, time_uom) -%}
    {%- set a_upper = [a_upper, first_window] | min -%}
  {%- endif -%}
  {%- set b_lower = ranges[1][0] -%}
  {{ return({
      'a': none if a_lower is not none and a_upper < a_lower else [a_lower, a_upper],
      'b': [dbt_inc_join._shift_value(end, 1 - width, time_uom), end],
      'b_units': none if b_lower is none else dbt_inc_join._units_between(end, b_lower, time_uom) + 1,
      'far_units': width,
  }) }}
{% endmacro %}

{% macro _pairs_sample_sql(a, a_range_sql, sides, shared=false) %}
  {#- One query, one row, for one or more B sides (inc_join's B, or inc_join_many's undecided inputs), each
      {'relation', 'a_keys', 'b_keys', 'range_sql'} (range_sql: the side's last join window). The sample: the first
      sample_rows rows of a_range_sql with some side's keys. Side i's columns: sample_rows_i, the sample's rows with
      its keys; pairs_i, the pairs of a sample row and a B row of its window with equal keys (what the plain key
      join compares there); with shared, shared_i, the sample's rows each of them shares its keys with, summed
      (A's key sharing times sample_rows_i). COALESCE(1): one partition read in order, so each reference to the
      sample reads the same rows. The sample's keys, each with its number of rows (_m), are broadcast, and each B
      window only probes them: B's rows are neither grouped nor moved, however many keys it has. -#}
  {%- set columns = [] -%}
  {%- set keyed = [] -%}
  {%- set counted = [] -%}
  {%- set names = [] -%}
  {%- set counts = [] -%}
  {%- set probes = [] -%}
  {%- for side in sides -%}
    {%- set i = loop.index0 -%}
    {%- set sample_keys = [] -%}
    {%- set equal = [] -%}
    {%- for index in range(side.a_keys | length) -%}
      {%- set name = '_s' ~ i ~ 'k' ~ index -%}
      {%- do columns.append(dbt_inc_join._quote(side.a_keys[index]) ~ ' AS ' ~ name) -%}
      {%- do sample_keys.append(name) -%}
      {%- do equal.append('_keys.' ~ name ~ ' = _b.' ~ dbt_inc_join._quote(side.b_keys[index])) -%}
    {%- endfor -%}
    {%- set a_not_null = [] -%}
    {%- for key in side.a_keys -%}{%- do a_not_null.append(dbt_inc_join._quote(key) ~ ' IS NOT NULL') -%}{%- endfor -%}
    {%- do keyed.append('(' ~ a_not_null | join(' AND ') ~ ')') -%}
    {%- set has_keys = sample_keys | join(' IS NOT NULL AND ') ~ ' IS NOT NULL' -%}
    {#- the sample's branch counts sample_rows_i (and shared_i); side i's probe counts pairs_i -#}
    {%- do names.append('sample_rows_' ~ i) -%}
    {%- do counts.append('CAST((' ~ has_keys ~ ') AS INT)') -%}
    {%- do names.append('pairs_' ~ i) -%}
    {%- do counts.append('0') -%}
    {%- if shared -%}
      {%- do counted.append('count(*) OVER (PARTITION BY ' ~ sample_keys | join(', ') ~ ') AS _c' ~ i) -%}
      {%- do names.append('shared_' ~ i) -%}
      {%- do counts.append('CASE WHEN ' ~ has_keys ~ ' THEN _c' ~ i ~ ' ELSE 0 END') -%}
    {%- endif -%}
    {%- set sample_keyed = 'SELECT ' ~ sample_keys | join(', ') ~ ', count(*) AS _m FROM _sample WHERE ' ~ has_keys
                           ~ ' GROUP BY ' ~ sample_keys | join(', ') -%}
    {%- do probes.append({
        'column': 'pairs_' ~ i,
        'from': side.relation ~ ' AS _b JOIN (' ~ sample_keyed ~ ') AS _keys ON ' ~ equal | join(' AND '),
        'where': dbt_inc_join._sample_predicate(side.b_keys, side.range_sql),
    }) -%}
  {%- endfor -%}
  {%- set sample = 'SELECT /*+ COALESCE(1) */ ' ~ columns | join(', ') ~ ' FROM ' ~ a
                   ~ ' WHERE (' ~ a_range_sql ~ ') AND (' ~ keyed | join(' OR ') ~ ')'
                   ~ ' LIMIT ' ~ dbt_inc_join._plan_choice_settings().sample_rows -%}
  {%- set rows_from = ('(SELECT *, ' ~ counted | join(', ') ~ ' FROM _sample) AS _sample') if shared else '_sample' -%}
  {%- set row = [] -%}
  {%- for name in names -%}{%- do row.append(counts[loop.index0] ~ ' AS ' ~ name) -%}{%- endfor -%}
  {%- set branches = ['SELECT ' ~ row | join(', ') ~ ' FROM ' ~ rows_from] -%}
  {%- for probe in probes -%}
    {%- set row = [] -%}
    {%- for name in names -%}{%- do row.append(('_m' if name == probe.column else '0') ~ ' AS ' ~ name) -%}{%- endfor -%}
    {%- do branches.append('SELECT /*+ BROADCAST(_keys) */ ' ~ row | join(', ') ~ ' FROM ' ~ probe['from']
                           ~ ' WHERE ' ~ probe.where) -%}
  {%- endfor -%}
  {%- set totals = [] -%}
  {%- for name in names -%}{%- do totals.append('coalesce(sum(' ~ name ~ '), 0) AS ' ~ name) -%}{%- endfor -%}
  {{ return('WITH _sample AS (' ~ sample ~ ') SELECT ' ~ totals | join(', ')
            ~ ' FROM (' ~ branches | join(' UNION ALL ') ~ ') AS _counted') }}
{% endmacro %}

{% macro _pairs_query(a, a_range_sql, sides, shared=false) %}
  {#- _pairs_sample_sql run by dbt: its one row as a mapping of its columns. -#}
  {%- set found = run_query(dbt_inc_join._pairs_sample_sql(a, a_range_sql, sides, shared)) -%}
  {%- set values = {} -%}
  {%- for name in found.column_names -%}{%- do values.update({name: found.rows[0][loop.index0]}) -%}{%- endfor -%}
  {{ return(values) }}
{% endmacro %}

{% macro _pairs_found(values, index) %}
  {#- Side index's counts from _pairs_sample_sql's row (a mapping of its columns), as _pairs_plan takes them. -#}
  {{ return({
      'sample_rows': values['sample_rows_' ~ index],
      'pairs': values['pairs_' ~ index],
      'shared': values.get('shared_' ~ index),
  }) }}
{% endmacro %}

{% macro _pairs_sample_range(reaches) %}
  {#- The sample range of one query for several sides (inc_join_many's inputs): from A's read range's start (the
      same for every side) to the earliest end of the sides' own sample ranges (_pairs_ranges' a); none when no
      side has one. -#}
  {%- set bounds = [] -%}
  {%- for reach in reaches if reach.a is not none -%}{%- do bounds.append(reach.a) -%}{%- endfor -%}
  {{ return(none if not bounds else [bounds[0][0], bounds | map(attribute=1) | min]) }}
{% endmacro %}

{% macro _pairs_plan(found, reach, time_uom) %}
  {#- The choice of 'auto' for a long run of partner = all, or an input of inc_join_many, from _pairs_found's
      counts ({'sample_rows', 'pairs', 'shared'}, or none: nothing to sample): the B rows the plain key join would
      compare with each A row, measured in B's last join window and scaled to B's read range. From shared_rows of
      them on, the grouped plan. With shared (inc_join_many), a plain plan pairs B with A's rows as they are when
      the sample's keys are (nearly) unique: fewer than shared_rows rows a key. -#}
  {%- set threshold = dbt_inc_join._plan_choice_settings().shared_rows -%}
  {%- set far = dbt_inc_join._units_text(reach.far_units, time_uom) -%}
  {%- if found is none or found['sample_rows'] == 0 -%}
    {{ return(dbt_inc_join._plan_choice(false, 'auto: no A rows with keys to sample before the last ' ~ far
                                               ~ " of B's read range")) }}
  {%- endif -%}
  {%- set rows = found['sample_rows'] -%}
  {%- set shared = none if found.get('shared') is none else found['shared'] / rows -%}
  {%- set each = found['pairs'] / rows -%}
  {%- set text = 'auto: ' ~ rows ~ ' A rows of a sample'
                 ~ ('' if shared is none else ' (' ~ '%.1f' | format(shared) ~ ' rows a key)')
                 ~ ' meet ' ~ '%.1f' | format(each) ~ ' B rows each in the last ' ~ far ~ " of B's read range" -%}
  {%- set whole = each -%}
  {%- if reach.b_units is not none -%}
    {%- set whole = each * reach.b_units / reach.far_units -%}
    {%- set text = text ~ ', about ' ~ '%.0f' | format(whole) ~ ' in its '
                   ~ dbt_inc_join._units_text(reach.b_units, time_uom) -%}
  {%- endif -%}
  {%- set grouped = whole >= threshold -%}
  {{ return(dbt_inc_join._plan_choice(grouped, text ~ (', at least ' if grouped else ', below ') ~ threshold,
                                      not grouped and shared is not none and shared < threshold)) }}
{% endmacro %}
