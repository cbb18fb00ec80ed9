{#- Which plan pairs the rows of one run (docs/spec.md §15): the plain key join, or the grouped plan of spec §11.
    The core renders the pure rules (src/dbt_inc_join/plan/plan_choice.py) and takes its samples itself; the sample
    size and threshold come from the shared table (macros/tables/generated/_plan_choice_settings.sql). -#}

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
  {#- The choice of many_rows_per_key='auto' from A's sample and, when A's is dense, B's. -#}
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
  {#- The plan of a run: _fixed_plan, _range_plan, the grouped plan for one row per A, or _auto_plan over samples
      of the read ranges (spec §4). A unit test's window is decided in SQL over its given rows: nothing to sample
      there. -#}
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
  {%- set samples = [] -%}
  {%- for relation in [a, b] -%}
    {%- set index = loop.index0 -%}
    {%- if index == 0 or samples[0].shared >= dbt_inc_join._plan_choice_settings().shared_rows -%}
      {%- set keys = inputs['keys'] | map(attribute=index) | list -%}
      {%- set range_sql = dbt_inc_join._arrival_range_sql(inputs.inc_col[index], inputs.raw_types[index],
                                                          ranges[index][0], ranges[index][1], unit) -%}
      {%- do samples.append(dbt_inc_join._sample_sharing(relation, keys, range_sql)) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(dbt_inc_join._auto_plan(samples[0], samples[1] if samples | length > 1 else none)) }}
{% endmacro %}

{% macro _sample_sharing(relation, keys, range_sql) %}
  {#- The key sharing of a side's first sample_rows rows in range_sql: one Spark job. -#}
  {%- set quoted = [] -%}
  {%- for key in keys -%}{%- do quoted.append(dbt_inc_join._quote(key)) -%}{%- endfor -%}
  {#- COALESCE(1): one partition read in order, a single job even when the first split holds fewer rows than the sample -#}
  {%- set found = run_query('select /*+ COALESCE(1) */ ' ~ quoted | join(', ') ~ ' from ' ~ relation
                            ~ ' where ' ~ dbt_inc_join._sample_predicate(keys, range_sql)
                            ~ ' limit ' ~ dbt_inc_join._plan_choice_settings().sample_rows) -%}
  {{ return(dbt_inc_join._key_sharing(found.rows)) }}
{% endmacro %}
