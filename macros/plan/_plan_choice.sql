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
      query over A's sample and B's last join window (spec §4's read ranges; §18's when the run reads the open
      state, window.open_state). A unit test's window is decided in SQL over its given rows: nothing to sample
      there. -#}
  {%- set fixed = dbt_inc_join._fixed_plan(params, window.end is none or window.empty) -%}
  {%- if fixed is not none -%}{{ return(fixed) }}{%- endif -%}
  {%- if window.get('in_sql') -%}
    {{ return(dbt_inc_join._plan_choice(false, "a unit test's given rows")) }}
  {%- endif -%}
  {%- set unit = params.time_uom -%}
  {%- set state = window.get('open_state') or {} -%}
  {%- set ranges = dbt_inc_join._read_ranges(window.start, window.end, params.how, params.look_back_time,
                                              params.max_waiting_time, unit, 0,
                                              state.kind if state.get('relation') is not none else none) -%}
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

{% macro _pairs_sample_sql(a, a_range_sql, sides) %}
  {#- The sample of 'auto''s query, for one or more B sides (inc_join's B, or inc_join_many's undecided inputs), each
      {'relation', 'a_keys', 'b_keys', 'range_sql'} (range_sql: the side's last join window): the first sample_rows
      rows of a_range_sql with some side's keys. Side i's key j as text (_si_kj, 'v' first, so that dbt's agate
      never reads it as a number or a date; NULL for a NULL key) and its type (_si_tj). COALESCE(1): one partition
      read in order, so the LIMIT stops the scan early. -#}
  {%- set columns = [] -%}
  {%- set keyed = [] -%}
  {%- for side in sides -%}
    {%- set i = loop.index0 -%}
    {%- set not_null = [] -%}
    {%- for key in side.a_keys -%}
      {%- set quoted = dbt_inc_join._quote(key) -%}
      {%- do columns.append("concat('v', CAST(" ~ quoted ~ ' AS STRING)) AS _s' ~ i ~ 'k' ~ loop.index0) -%}
      {%- do columns.append('typeof(' ~ quoted ~ ') AS _s' ~ i ~ 't' ~ loop.index0) -%}
      {%- do not_null.append(quoted ~ ' IS NOT NULL') -%}
    {%- endfor -%}
    {%- do keyed.append('(' ~ not_null | join(' AND ') ~ ')') -%}
  {%- endfor -%}
  {{ return('SELECT /*+ COALESCE(1) */ ' ~ columns | join(', ') ~ ' FROM ' ~ a
            ~ ' WHERE (' ~ a_range_sql ~ ') AND (' ~ keyed | join(' OR ') ~ ')'
            ~ ' LIMIT ' ~ dbt_inc_join._plan_choice_settings().sample_rows) }}
{% endmacro %}

{% macro _key_literal(text, type_name) %}
  {#- A sampled key (its text and Spark's typeof) as a literal of its type, or none for a type whose text does not
      cast back (binary, arrays, maps, structs): such a key is not sampled. -#}
  {%- set plain = ['float', 'double', 'boolean', 'date', 'timestamp', 'timestamp_ntz'] -%}
  {%- if type_name in ['tinyint', 'smallint', 'int', 'bigint'] -%}
    {{ return(text) }}  {#- Spark's own digits: the cheapest literal to parse, a thousand of them in a query -#}
  {%- elif type_name.startswith('string') or type_name.startswith('char(') or type_name.startswith('varchar(') -%}
    {{ return(dbt_inc_join._text_literal(text)) }}
  {%- elif type_name in plain or type_name.startswith('decimal(') -%}
    {{ return('CAST(' ~ dbt_inc_join._text_literal(text) ~ ' AS ' ~ type_name ~ ')') }}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro _pairs_keys(rows, index, width) %}
  {#- Side index's keys in the sample's rows: {'rows': the rows with its keys, 'shared': the rows each of them
      shares its keys with, summed, 'by_count': {rows of a key: [the keys' literals, as one tuple each]}}. -#}
  {%- set counts = {} -%}
  {%- for row in rows -%}
    {%- set literals = [] -%}
    {%- for j in range(width) -%}
      {%- set text = row['_s' ~ index ~ 'k' ~ j] -%}
      {%- if text is not none -%}
        {%- set literal = dbt_inc_join._key_literal(text[1:], row['_s' ~ index ~ 't' ~ j]) -%}
        {%- if literal is not none -%}{%- do literals.append(literal) -%}{%- endif -%}
      {%- endif -%}
    {%- endfor -%}
    {%- if literals | length == width -%}
      {%- set found = literals[0] if width == 1 else '(' ~ literals | join(', ') ~ ')' -%}
      {%- do counts.update({found: counts.get(found, 0) + 1}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set by_count = {} -%}
  {%- set squares = [] -%}
  {%- for found, count in counts | dictsort -%}
    {%- do by_count.setdefault(count, []).append(found) -%}
    {%- do squares.append(count * count) -%}
  {%- endfor -%}
  {{ return({'rows': counts.values() | sum, 'shared': squares | sum, 'by_count': by_count}) }}
{% endmacro %}

{% macro _pairs_probe_sql(sides, keys) %}
  {#- The second query of 'auto': for each side i with sampled keys (keys[i], _pairs_keys'), pairs_i, the pairs of
      a sample row and a B row of its window with equal keys (what the plain key join compares there): B's
      window filtered by the sample's keys as literals (a filter Spark pushes to the scan), each B row counting
      its key's sample rows. B's rows are neither grouped nor moved, however many keys it has. -#}
  {%- set branches = [] -%}
  {%- for i in range(sides | length) if keys[i].rows > 0 -%}
    {%- set side = sides[i] -%}
    {%- set by_count = keys[i].by_count -%}
    {%- set columns = [] -%}
    {%- for key in side.b_keys -%}{%- do columns.append('_b.' ~ dbt_inc_join._quote(key)) -%}{%- endfor -%}
    {%- set probe = columns[0] if columns | length == 1 else '(' ~ columns | join(', ') ~ ')' -%}
    {%- set every = [] -%}
    {%- set weight = ['CASE'] -%}
    {%- for count, found in by_count | dictsort -%}
      {%- do every.extend(found) -%}
      {%- do weight.append('WHEN ' ~ probe ~ ' IN (' ~ found | join(', ') ~ ') THEN ' ~ count) -%}
    {%- endfor -%}
    {%- set weight = (by_count.keys() | first) if by_count | length == 1 else weight | join(' ') ~ ' END' -%}
    {%- set row = [] -%}
    {%- for other in sides -%}
      {%- do row.append((weight if loop.index0 == i else '0') ~ ' AS pairs_' ~ loop.index0) -%}
    {%- endfor -%}
    {%- do branches.append('SELECT ' ~ row | join(', ') ~ ' FROM ' ~ side.relation ~ ' AS _b WHERE '
                           ~ dbt_inc_join._sample_predicate(side.b_keys, side.range_sql)
                           ~ ' AND ' ~ probe ~ ' IN (' ~ every | join(', ') ~ ')') -%}
  {%- endfor -%}
  {%- set totals = [] -%}
  {%- for side in sides -%}
    {%- do totals.append('coalesce(sum(pairs_' ~ loop.index0 ~ '), 0) AS pairs_' ~ loop.index0) -%}
  {%- endfor -%}
  {{ return('SELECT ' ~ totals | join(', ') ~ ' FROM (' ~ branches | join(' UNION ALL ') ~ ') AS _counted') }}
{% endmacro %}

{% macro _pairs_query(a, a_range_sql, sides, shared=false) %}
  {#- 'auto''s two small queries, run by dbt (or the core's port): A's sample (one short job), then, for the sides
      with sampled keys, their B windows probed by the keys (_pairs_probe_sql). The counts of the sample's keys
      are taken here, from its rows. Each side i's sample_rows_i, pairs_i and, with shared, shared_i (A's key
      sharing times sample_rows_i), as a mapping. -#}
  {%- set sample = run_query(dbt_inc_join._pairs_sample_sql(a, a_range_sql, sides)) -%}
  {%- set keys = [] -%}
  {%- for side in sides -%}
    {%- do keys.append(dbt_inc_join._pairs_keys(sample.rows, loop.index0, side.a_keys | length)) -%}
  {%- endfor -%}
  {%- set pairs = {} -%}
  {%- if keys | selectattr('rows') | list -%}
    {%- set found = run_query(dbt_inc_join._pairs_probe_sql(sides, keys)) -%}
    {%- for name in found.column_names -%}{%- do pairs.update({name: found.rows[0][loop.index0]}) -%}{%- endfor -%}
  {%- endif -%}
  {%- set values = {} -%}
  {%- for side in sides -%}
    {%- set i = loop.index0 -%}
    {%- do values.update({'sample_rows_' ~ i: keys[i].rows, 'pairs_' ~ i: pairs.get('pairs_' ~ i, 0)}) -%}
    {%- if shared -%}{%- do values.update({'shared_' ~ i: keys[i].shared}) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(values) }}
{% endmacro %}

{% macro _pairs_found(values, index) %}
  {#- Side index's counts from _pairs_query's mapping, as _pairs_plan takes them. -#}
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
