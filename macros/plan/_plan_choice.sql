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

{% macro _key_sharing(keys) %}
  {#- A sample of key tuples: its rows, and how many rows of the sample a row shares its key with, on average
      over the rows (sum of squared key counts / rows). -#}
  {%- set counts = {} -%}
  {%- for key in keys -%}
    {%- set name = key | list | map('string') | join('|~|') -%}
    {%- do counts.update({name: counts.get(name, 0) + 1}) -%}
  {%- endfor -%}
  {%- set rows = counts.values() | sum -%}
  {%- set squares = [] -%}
  {%- for n in counts.values() -%}{%- do squares.append(n * n) -%}{%- endfor -%}
  {{ return({'rows': rows, 'shared': (squares | sum) / rows if rows else 0.0}) }}
{% endmacro %}

{% macro _auto_plan(a, b) %}
  {#- The choice of many_rows_per_key='auto' for an input of inc_join_many from A's sample and, when A's is
      dense, the input's. -#}
  {%- set threshold = dbt_inc_join._plan_choice_settings().shared_rows -%}
  {%- set a_text = 'auto: ' ~ '%.1f' | format(a.shared) ~ ' rows a key in a sample of ' ~ a.rows ~ ' A rows' -%}
  {%- if b is none or a.shared < threshold -%}
    {{ return(dbt_inc_join._plan_choice(false, a_text ~ ', below ' ~ threshold, a.shared < threshold)) }}
  {%- endif -%}
  {%- set b_text = '%.1f' | format(b.shared) ~ ' in a sample of ' ~ b.rows ~ ' B rows' -%}
  {%- if b.shared < threshold -%}
    {{ return(dbt_inc_join._plan_choice(false, a_text ~ ', ' ~ b_text ~ ', below ' ~ threshold)) }}
  {%- endif -%}
  {{ return(dbt_inc_join._plan_choice(true, a_text ~ ', ' ~ b_text ~ ', both at least ' ~ threshold)) }}
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
  {%- set reach = dbt_inc_join._pairs_ranges(ranges, window.end, params.look_back_time, params.max_waiting_time,
                                             unit) -%}
  {%- if reach.a is none -%}{{ return(dbt_inc_join._pairs_plan(none, reach, unit)) }}{%- endif -%}
  {%- set range_sqls = [] -%}
  {%- for index in [0, 1] -%}
    {%- set bounds = reach.a if index == 0 else reach.b -%}
    {%- do range_sqls.append(dbt_inc_join._arrival_range_sql(inputs.inc_col[index], inputs.raw_types[index],
                                                             bounds[0], bounds[1], unit)) -%}
  {%- endfor -%}
  {%- set found = run_query(dbt_inc_join._pairs_sample_sql(a, b, inputs['keys'] | map(attribute=0) | list,
                                                           inputs['keys'] | map(attribute=1) | list,
                                                           range_sqls[0], range_sqls[1])) -%}
  {{ return(dbt_inc_join._pairs_plan(found.rows[0], reach, unit)) }}
{% endmacro %}

{% macro _sample_sharing(relation, keys, range_sql) %}
  {#- The key sharing of a side's first sample_rows rows in range_sql (inc_join_many): one Spark job. -#}
  {%- set quoted = [] -%}
  {%- for key in keys -%}{%- do quoted.append(dbt_inc_join._quote(key)) -%}{%- endfor -%}
  {#- COALESCE(1): one partition read in order, a single job even when the first split holds fewer rows than the sample -#}
  {%- set found = run_query('select /*+ COALESCE(1) */ ' ~ quoted | join(', ') ~ ' from ' ~ relation
                            ~ ' where ' ~ dbt_inc_join._sample_predicate(keys, range_sql)
                            ~ ' limit ' ~ dbt_inc_join._plan_choice_settings().sample_rows) -%}
  {{ return(dbt_inc_join._key_sharing(found.rows)) }}
{% endmacro %}

{% macro _pairs_ranges(ranges, end, look_back_time, max_waiting_time, time_uom) %}
  {#- What the one query of 'auto' reads on a long run of partner = all: B's last join window [end - w + 1, end]
      (w = look_back_time + max_waiting_time + 1), and A's sample from the first join window of its read range, up
      to end - w - mw at most, whose own partners all arrive before B's window: a key of the sample found there has
      rows far apart in time.
      b_units: the length of B's read range (none: it has no lower bound); a: none when nothing lies before. -#}
  {%- set width = dbt_inc_join._bucket_width(look_back_time, max_waiting_time) -%}
  {%- set a_upper = dbt_inc_join._shift_value(end, -(width + max_waiting_time), time_uom) -%}
  {%- set a_lower = ranges[0][0] -%}
  {%- if a_lower is not none -%}
    {#- the first join window of A's range is enough for a sample, and lists few partitions -#}
    {%- set first_window = dbt_inc_join._shift_value(a_lower, width - 1, time_uom) -%}
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

{% macro _pairs_sample_sql(a, b, a_keys, b_keys, a_range_sql, b_range_sql) %}
  {#- One query, one row: how many A rows the sample holds (the first sample_rows of a_range_sql with keys), and
      how many B rows of b_range_sql (B's last join window) share a key with them, summed over the sample's rows:
      the pairs the plain key join compares there. COALESCE(1): one partition read in order, as the sample of
      inc_join_many. -#}
  {%- set sample = [] -%}
  {%- set found = [] -%}
  {%- set found_keys = [] -%}
  {%- set equal = [] -%}
  {%- for index in range(a_keys | length) -%}
    {%- do sample.append(dbt_inc_join._quote(a_keys[index]) ~ ' AS _sk' ~ index) -%}
    {%- do found.append(dbt_inc_join._quote(b_keys[index]) ~ ' AS _fk' ~ index) -%}
    {%- do found_keys.append('_fk' ~ index) -%}
    {%- do equal.append('_sample._sk' ~ index ~ ' = _found._fk' ~ index) -%}
  {%- endfor -%}
  {{ return(
      'SELECT count(*) AS sample_rows, coalesce(sum(_found._n), 0) AS pairs'
      ~ ' FROM (SELECT /*+ COALESCE(1) */ ' ~ sample | join(', ') ~ ' FROM ' ~ a
      ~ ' WHERE ' ~ dbt_inc_join._sample_predicate(a_keys, a_range_sql)
      ~ ' LIMIT ' ~ dbt_inc_join._plan_choice_settings().sample_rows ~ ') AS _sample'
      ~ ' LEFT JOIN (SELECT ' ~ found_keys | join(', ') ~ ', count(*) AS _n FROM (SELECT ' ~ found | join(', ')
      ~ ' FROM ' ~ b ~ ' WHERE ' ~ dbt_inc_join._sample_predicate(b_keys, b_range_sql) ~ ') AS _b'
      ~ ' GROUP BY ' ~ found_keys | join(', ') ~ ') AS _found'
      ~ ' ON ' ~ equal | join(' AND ')
  ) }}
{% endmacro %}

{% macro _pairs_plan(found, reach, time_uom) %}
  {#- The choice of 'auto' for a long run of partner = all, from _pairs_sample_sql's row ({'sample_rows',
      'pairs'}, or none: nothing to sample): the B rows the plain key join would compare with each A row, measured
      in B's last join window and scaled to B's read range. From shared_rows of them on, the grouped plan. -#}
  {%- set threshold = dbt_inc_join._plan_choice_settings().shared_rows -%}
  {%- set far = dbt_inc_join._units_text(reach.far_units, time_uom) -%}
  {%- if found is none or found['sample_rows'] == 0 -%}
    {{ return(dbt_inc_join._plan_choice(false, 'auto: no A rows with keys to sample before the last ' ~ far
                                               ~ " of B's read range")) }}
  {%- endif -%}
  {%- set each = found['pairs'] / found['sample_rows'] -%}
  {%- set text = 'auto: ' ~ found['sample_rows'] ~ ' A rows of a sample meet ' ~ '%.1f' | format(each)
                 ~ ' B rows each in the last ' ~ far ~ " of B's read range" -%}
  {%- set whole = each -%}
  {%- if reach.b_units is not none -%}
    {%- set whole = each * reach.b_units / reach.far_units -%}
    {%- set text = text ~ ', about ' ~ '%.0f' | format(whole) ~ ' in its '
                   ~ dbt_inc_join._units_text(reach.b_units, time_uom) -%}
  {%- endif -%}
  {%- set grouped = whole >= threshold -%}
  {{ return(dbt_inc_join._plan_choice(grouped, text ~ (', at least ' if grouped else ', below ') ~ threshold)) }}
{% endmacro %}
