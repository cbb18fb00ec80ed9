{#- inc_join_many's inputs (spec §12), read side by side with src/dbt_inc_join/orchestration/many.py (_prepare_input):
    each prepared, and the run's log line; their checks are in plan/_many_inputs.sql, the SQL of one run in
    _many_render.sql.
    Macros share one namespace, so many.py's private names take the prefix _many_ here. -#}

{% macro _many_input(spec, a_table, a_columns, time_uom) %}
  {#- One input, checked and planned as inc_join's one-row-per-A plan (how = left). -#}
  {%- set suffix = spec.get('suffix') or ('_' ~ spec.name) -%}
  {%- set aggregate = spec.get('aggregate') -%}
  {%- set partner = 'all' if aggregate is not none else (spec.get('partner') or 'first') -%}
  {%- set spelling = dbt_inc_join._input_spelling(spec.name) -%}
  {%- set params = dbt_inc_join._check_parameters({
      'join_cols': spec.join_cols,
      'inc_col': spec.get('inc_col', 'RecDate'),
      'how': 'left',
      'look_back_time': spec.look_back_time,
      'max_waiting_time': spec.max_waiting_time,
      'time_uom': time_uom,
      'suffixes': ['_A', suffix],
      'partner': partner,
      'partner_order_by': spec.get('partner_order_by'),
      'aggregate': aggregate,
      'null_fill': spec.get('null_fill'),
      'join_cond': spec.get('join_cond'),
      'many_rows_per_key': spec.get('many_rows_per_key', 'auto'),
  }, spelling) -%}
  {%- set relation = dbt_inc_join._unfiltered(spec.relation) -%}
  {%- set b_table = dbt_inc_join._table_of(relation, 'b') -%}
  {%- set b_columns = adapter.get_columns_in_relation(b_table) -%}
  {%- set prepared = dbt_inc_join._prepare_join(params, a_table, b_table, a_columns, b_columns, spelling.input,
                                                spelling) -%}
  {{ return({'name': spec.name, 'suffix': suffix, 'relation': relation, 'b_columns': b_columns, 'params': params,
             'inputs': prepared.inputs, 'plan': prepared.plan}) }}
{% endmacro %}

{% macro _many_input_plans(a, prepared, window, a_lower) %}
  {#- Each input's plan (spec §15): set by its many_rows_per_key, plain when the input's read range is short
      (_range_plan), or chosen by _pairs_plan from one query for every other input: the first rows of A's slice
      and, per input, the rows of its last join window with their keys. A unit test's window is decided in SQL
      over its given rows: nothing to sample there. -#}
  {%- set unit = window.time_uom -%}
  {%- set a_inputs = prepared[0].inputs -%}
  {%- set plans = {} -%}
  {%- set reaches = {} -%}
  {%- set b_lowers = {} -%}
  {%- set widths = [] -%}
  {%- for item in prepared -%}
    {%- set fixed = dbt_inc_join._forced_plan(item.params, window.end is none or window.empty) -%}
    {%- if fixed is none and window.get('in_sql') -%}
      {%- set fixed = dbt_inc_join._plan_choice(false, "a unit test's given rows") -%}
    {%- endif -%}
    {%- set b_lower = none if a_lower is none else dbt_inc_join._shift_value(a_lower, -item.params.look_back_time, unit) -%}
    {%- if fixed is none -%}
      {%- set fixed = dbt_inc_join._range_plan(b_lower, window.end, item.params.look_back_time,
                                               item.params.max_waiting_time, unit) -%}
    {%- endif -%}
    {%- if fixed is not none -%}
      {%- do plans.update({loop.index0: fixed}) -%}
    {%- else -%}
      {%- do b_lowers.update({loop.index0: b_lower}) -%}
      {%- do widths.append(dbt_inc_join._bucket_width(item.params.look_back_time, item.params.max_waiting_time)) -%}
    {%- endif -%}
  {%- endfor -%}
  {#- one sample of A serves every undecided input: its first window is the widest of their join windows -#}
  {%- for index, b_lower in b_lowers | dictsort -%}
    {%- set params = prepared[index].params -%}
    {%- set reach = dbt_inc_join._pairs_ranges([[a_lower, window.end], [b_lower, window.end]], window.start,
                                               window.end, params.look_back_time, params.max_waiting_time, unit,
                                               widths | max) -%}
    {%- do reaches.update({index: reach}) -%}
  {%- endfor -%}
  {%- set bounds = dbt_inc_join._pairs_sample_range(reaches.values() | list) if reaches else none -%}
  {%- set sides = [] -%}
  {%- if bounds is not none -%}
    {%- for index, reach in reaches | dictsort if reach.a is not none -%}
      {%- set item = prepared[index] -%}
      {%- do sides.append({
          'index': index,
          'relation': item.relation,
          'a_keys': item.inputs['keys'] | map(attribute=0) | list,
          'b_keys': item.inputs['keys'] | map(attribute=1) | list,
          'range_sql': dbt_inc_join._arrival_range_sql(item.inputs.inc_col[1], item.inputs.raw_types[1], reach.b[0],
                                                       reach.b[1], unit),
      }) -%}
    {%- endfor -%}
    {%- set a_range = dbt_inc_join._arrival_range_sql(a_inputs.inc_col[0], a_inputs.raw_types[0], bounds[0], bounds[1],
                                                      unit) -%}
    {%- set found = dbt_inc_join._pairs_query(a, a_range, sides, true) -%}
    {%- for side in sides -%}
      {%- do plans.update({side.index: dbt_inc_join._pairs_plan(dbt_inc_join._pairs_found(found, loop.index0),
                                                                 reaches[side.index], unit)}) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- for index, reach in reaches | dictsort if index not in plans -%}
    {%- do plans.update({index: dbt_inc_join._pairs_plan(none, reach, unit)}) -%}
  {%- endfor -%}
  {%- set ordered = [] -%}
  {%- for item in prepared -%}{%- do ordered.append(plans[loop.index0]) -%}{%- endfor -%}
  {{ return(ordered) }}
{% endmacro %}

{% macro _many_plans_text(prepared, plans) %}
  {#- The plans of a run, input by input: the end of its log line and the ledger's plan. -#}
  {%- set texts = [] -%}
  {%- for item in prepared -%}{%- do texts.append(item.name ~ ' ' ~ plans[loop.index0].text) -%}{%- endfor -%}
  {{ return(texts | join('; ')) }}
{% endmacro %}

{% macro _many_read_ranges(window, prepared) %}
  {#- What a run of inc_join_many reads of A and of each input (spec §12; with the open state read, §18: A from
      the window's start, each input look_back_time before it): {'a': [lower, upper], name: [lower, upper], ...},
      or none for an empty window. -#}
  {%- if window.empty -%}{{ return(none) }}{%- endif -%}
  {%- set reach = dbt_inc_join._many_reaches(prepared).a -%}
  {%- set a_lower = none if window.start is none else dbt_inc_join._shift_value(window.start, -reach, window.time_uom) -%}
  {%- if (window.get('open_state') or {}).get('relation') is not none -%}
    {%- set a_lower = window.start -%}
  {%- endif -%}
  {%- set ranges = {'a': [a_lower, window.end]} -%}
  {%- for item in prepared -%}
    {%- set lower = none if a_lower is none else dbt_inc_join._shift_value(a_lower, -item.params.look_back_time, window.time_uom) -%}
    {%- do ranges.update({item.name: [lower, window.end]}) -%}
  {%- endfor -%}
  {{ return(ranges) }}
{% endmacro %}

{% macro _many_rows_read(window, prepared, fingerprints, state_rows=none) %}
  {#- The rows a run of inc_join_many read of A, each input and its open state (_rows_read), for its log line
      and record. -#}
  {%- set ranges = dbt_inc_join._many_read_ranges(window, prepared) -%}
  {{ return(none if ranges is none else dbt_inc_join._rows_read(fingerprints, ranges, state_rows)) }}
{% endmacro %}

{% macro _log_many_run(window, prepared, plans_text) %}
  {#- One line per run: the window and what decided it, then each input's read range, the rows it read (when its
      fingerprints counted them), then each input's plan. -#}
  {%- set ranges = none -%}
  {%- set reads = [] -%}
  {%- set found = dbt_inc_join._many_read_ranges(window, prepared) -%}
  {%- if found is not none -%}
    {%- set ranges = [found.a, found.a] -%}
    {%- for item in prepared -%}
      {%- do reads.append(item.name ~ ' ' ~ (found[item.name][0] or 'beginning') ~ '..' ~ found[item.name][1]) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set target = this if (this is defined and this is not none) else 'run-operation' -%}
  {%- if dbt_inc_join._in_unit_test() -%}
    {%- set target = 'unit test ' ~ model.name -%}
  {%- endif -%}
  {%- set line = dbt_inc_join._run_log_line(target, window, ranges) -%}
  {%- if reads and not window.get('in_sql') -%}
    {#- inc_join's line names a and b; here a and each input by its name -#}
    {%- set line = line.split(', b ')[0] ~ ', ' ~ reads | join(', ') -%}
  {%- endif -%}
  {{ log(line.replace('inc_join ', 'inc_join_many ', 1) ~ dbt_inc_join._rows_read_text(window) ~ '; plan: '
         ~ plans_text, info=True) }}
{% endmacro %}
