{#- Whether a run of an inc_join SQL or Python model keeps the open state and reads it (docs/spec.md §18). The
    statements are in sql_text/_open_state.sql, the table and the hooks that write it in io/_open_state.sql. -#}

{% macro _open_state_fingerprint(a, b, params, inputs, kind) %}
  {#- What the state depends on besides the data: the inputs, the arguments of the join and the state's kind. -#}
  {{ return(dbt_inc_join._open_state_digest({'a': a | string, 'b': b | string, 'params': params,
                                               'keys': inputs['keys'], 'inc_col': inputs.inc_col,
                                               'condition': dbt_inc_join._condition_sql(inputs), 'kind': kind})) }}
{% endmacro %}

{% macro _many_open_state_fingerprint(a, prepared) %}
  {#- The same for inc_join_many: A and, per input, its table and arguments. -#}
  {%- set each = [] -%}
  {%- for item in prepared -%}
    {%- do each.append({'name': item.name, 'b': item.relation | string, 'params': item.params,
                        'keys': item.inputs['keys'], 'inc_col': item.inputs.inc_col,
                        'condition': dbt_inc_join._condition_sql(item.inputs)}) -%}
  {%- endfor -%}
  {{ return(dbt_inc_join._open_state_digest({'a': a | string, 'inputs': each, 'kind': 'many'})) }}
{% endmacro %}

{% macro _open_state_format() %}
  {#- The format of the model's table, which its state table takes (_file_format). -#}
  {{ return(dbt_inc_join._file_format()) }}
{% endmacro %}

{% macro _open_state_digest(made) %}
  {#- The fingerprint of what a state was made from. -#}
  {%- if dbt_inc_join._deletes_rows(dbt_inc_join._open_state_format()) -%}
    {#- the table replaced in one commit (io/_open_state.sql): a table kept in partitions by an earlier version is
        made again -#}
    {%- do made.update({'layout': 'replaced'}) -%}
  {%- endif -%}
  {{ return(local_md5(tojson(made, sort_keys=true))) }}
{% endmacro %}

{% macro _open_state_keeps(params, inputs, enabled, a_rows=none, unkept=none) %}
  {#- [kind, reason]: the state this run keeps, or none and why not. open_state='auto' keeps it from as many new
      rows of A a unit as _open_state_settings names for its kind (a_rows: {'rows', 'units'} as the watermark's
      query counted them; not counted: kept). unkept: why the caller keeps none, if it knows. -#}
  {{ return(dbt_inc_join._open_state_model_keeps(dbt_inc_join._open_state_kind(params, inputs.get('condition') is not none),
                                                  enabled, a_rows, unkept, params.time_uom)) }}
{% endmacro %}

{% macro _open_state_model_keeps(kind_reason, enabled, a_rows, unkept, time_uom) %}
  {#- [kind, reason] of a model whose join keeps kind_reason ([kind, none] or [none, why]): none where the
      argument, the caller, the materialization or the new rows of A say so. -#}
  {%- if not enabled -%}{{ return([none, 'open_state=false']) }}{%- endif -%}
  {%- if unkept -%}{{ return([none, unkept]) }}{%- endif -%}
  {%- set materialized = config.get('materialized') -%}
  {%- set strategy = config.get('incremental_strategy') or 'append' -%}
  {%- if materialized != 'incremental' -%}
    {{ return([none, 'materialized=' ~ materialized]) }}
  {%- elif strategy not in ['insert_overwrite', 'merge', 'microbatch'] -%}
    {{ return([none, 'incremental_strategy=' ~ strategy]) }}
  {%- endif -%}
  {%- set kind = kind_reason[0] -%}
  {%- if strategy == 'microbatch' and model is defined and model.language == 'python'
         and config.get('concurrent_batches') -%}
    {#- a Python model's batches each write and tag their state (io/_py_writer.sql): one after the other only -#}
    {{ return([none, 'a Python model whose microbatch batches run concurrently']) }}
  {%- endif -%}
  {%- set lookback = config.get('lookback', 1) if strategy == 'microbatch' else 0 -%}
  {%- if kind is not none and enabled == 'auto' and lookback -%}
    {#- dbt's microbatch run starts lookback batches before the new ones: the first re-does a unit after the state,
        so no run reads it unless the run's bounds are given (--event-time-start; open_state=true) -#}
    {{ return([none, 'microbatch with lookback ' ~ lookback ~ ': a run without --event-time-start re-does the '
                     ~ 'batches before its new ones and reads no state (lookback=0 reads it, and so does '
                     ~ 'open_state=true in runs given their bounds)']) }}
  {%- endif -%}
  {%- if kind is not none and enabled == 'auto' and a_rows is not none -%}
    {{ return(dbt_inc_join._open_state_pays(kind, a_rows, time_uom, dbt_inc_join._open_state_format())) }}
  {%- endif -%}
  {{ return(kind_reason) }}
{% endmacro %}

{% macro _open_state_pays(kind, a_rows, time_uom, file_format=none) %}
  {#- [kind, none] when A's new rows a unit reach the threshold of the kind and of the model's table format
      (parquet's for a format without its own), else [none, why]: below it the state's own statements cost more
      than the history it spares (docs/spec.md §18). -#}
  {%- set settings = dbt_inc_join._open_state_settings() -%}
  {%- set named = (file_format or 'parquet') | lower -%}
  {%- set named = named if named in settings else 'parquet' -%}
  {%- set least = settings[named][kind] -%}
  {%- if least is none -%}
    {#- a kind whose state this format never repays -#}
    {{ return([none, "open_state='auto' keeps none with partner='all' on " ~ named]) }}
  {%- endif -%}
  {%- set each = a_rows.rows / a_rows.units -%}
  {%- if each >= least -%}{{ return([kind, none]) }}{%- endif -%}
  {{ return([none, "open_state='auto': " ~ '{:,.0f}'.format(each) ~ ' new rows of A a ' ~ time_uom ~ ', below '
                   ~ '{:,}'.format(least) ~ ('' if named == 'parquet' else ' on ' ~ named)]) }}
{% endmacro %}

{% macro _open_state_use(a, b, params, inputs, window, restated, enabled, unkept=none) %}
  {#- The open state of this run: {'kind', 'relation' (read, or none), 'rows' (its rows, when read and the
      watermark's query counted them), 'target', 'end', 'fingerprint', 'reason'};
      none when the model keeps none. Logs one line that says whether the run reads it, and why not. a and b:
      the inputs' tables; unkept: why the run keeps none, when its caller knows (_open_state_keeps). -#}
  {%- if not dbt_inc_join._open_state_may_apply(window) -%}{{ return(none) }}{%- endif -%}
  {%- set kind, reason = dbt_inc_join._open_state_keeps(params, inputs, enabled, window.get('a_rows'), unkept) -%}
  {%- set fingerprint = none if kind is none else dbt_inc_join._open_state_fingerprint(a, b, params, inputs, kind) -%}
  {{ return(dbt_inc_join._open_state_decided(kind, reason, fingerprint, window, restated, params.time_uom)) }}
{% endmacro %}

{% macro _many_open_state_use(a, prepared, window, restated, enabled, include_waiting, unkept=none) %}
  {#- _open_state_use of an inc_join_many model (spec §18): its state when every input takes its first partner. -#}
  {%- if not dbt_inc_join._open_state_may_apply(window) -%}{{ return(none) }}{%- endif -%}
  {%- set kind, reason = dbt_inc_join._open_state_model_keeps(
      dbt_inc_join._many_open_state_kind(prepared, include_waiting), enabled, window.get('a_rows'), unkept,
      window.time_uom) -%}
  {%- set fingerprint = none if kind is none else dbt_inc_join._many_open_state_fingerprint(a, prepared) -%}
  {{ return(dbt_inc_join._open_state_decided(kind, reason, fingerprint, window, restated, window.time_uom)) }}
{% endmacro %}

{% macro _open_state_may_apply(window) %}
  {#- Whether a run of this window may keep or read a state: not an empty window, nor a unit test's given rows. -#}
  {{ return(not (window.empty or window.get('in_sql') or dbt_inc_join._in_unit_test())) }}
{% endmacro %}

{% macro _open_state_decided(kind, reason, fingerprint, window, restated, time_uom) %}
  {#- _open_state_use's answer for a model that keeps kind (none: keeps none, for reason) and a state made
      from fingerprint. -#}
  {%- if kind is none -%}
    {%- if config.get('materialized') == 'incremental' -%}
      {{ log('inc_join open state of ' ~ this ~ ': none kept (' ~ reason ~ ')', info=True) }}
    {%- endif -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set target = dbt_inc_join._open_state_relation(this) -%}
  {%- set wanted = none if window.start is none else dbt_inc_join._moment_text(
      dbt_inc_join._shift_value(window.start, -1, time_uom)) -%}
  {%- set why = none -%}
  {#- the state table's properties are read only when the run could read it -#}
  {%- set found = {'table_fingerprint': none} -%}
  {%- if window.start is none or flags.FULL_REFRESH or not is_incremental() -%}
    {%- set why = 'a first run or full refresh' -%}
  {%- elif (restated or {}).get('restated') -%}
    {%- set why = 'restated input units' -%}
  {%- else -%}
    {%- set found = dbt_inc_join._open_state_found(target) -%}
    {%- set tag = found.tag -%}
    {%- if tag is none and found.exists -%}
      {#- a run clears the tag before it writes the rows and sets it after: one was stopped in between -#}
      {%- set why = 'the state has no tag: the run that wrote it last did not finish' -%}
    {%- elif tag is none -%}
      {%- set why = 'no state yet' -%}
    {%- elif tag.get('fingerprint') != fingerprint -%}
      {%- set why = 'the arguments or inputs changed' -%}
    {%- elif tag.get('end') != wanted -%}
      {%- set why = 'the state is as of ' ~ dbt_inc_join._unit_label(tag.get('end') | string, time_uom)
                    ~ ', the window starts at ' ~ dbt_inc_join._unit_label(dbt_inc_join._moment_text(window.start),
                                                                             time_uom) -%}
    {%- endif -%}
  {%- endif -%}
  {%- if why is none -%}
    {{ log('inc_join open state of ' ~ this ~ ': read ' ~ target ~ ' (as of '
           ~ dbt_inc_join._unit_label(wanted, time_uom) ~ ')', info=True) }}
  {%- else -%}
    {{ log('inc_join open state of ' ~ this ~ ': not read (' ~ why ~ '); the run reads as without it and writes it'
           ~ ' again', info=True) }}
  {%- endif -%}
  {{ return({'kind': kind, 'relation': dbt_inc_join._open_state_read_sql(target, wanted) if why is none else none,
             'rows': window.get('open_state_rows') if why is none else none,
             'target': target, 'read_end': wanted if why is none else none,
             'table_fingerprint': found.table_fingerprint,
             'end': dbt_inc_join._moment_text(window.end), 'fingerprint': fingerprint, 'reason': why}) }}
{% endmacro %}

{% macro _open_state_marker(state, sql, kept) %}
  {#- What the hooks of io/_open_state.sql do around this run, as a comment in the model's compiled code: sql, the
      state's statement; kept, the relation it and the model's statement come from, cached by the pre-hook. -#}
  {%- set marker = dbt_inc_join._open_state_run_facts(state) -%}
  {%- do marker.update({'sql': sql, 'kept': kept}) -%}
  {{ return('/* inc_join_open_state ' ~ (marker | tojson).replace('*/', '*\\/') ~ ' */') }}
{% endmacro %}

{% macro _open_state_run_facts(state) %}
  {#- What the steps that write the state (io/_open_state.sql) need to know of this run's state (_open_state_use):
      the marker of a SQL model, and what a Python model hands them. -#}
  {{ return({'target': state.target | string, 'read': state.relation is not none, 'end': state.end,
             'read_end': state.read_end, 'table_fingerprint': state.table_fingerprint,
             'fingerprint': state.fingerprint, 'invocation_id': invocation_id,
             'file_format': dbt_inc_join._open_state_format()}) }}
{% endmacro %}

{% macro _open_state_counts_a(keeps_state) %}
  {#- Whether the watermark's query counts A's new rows (_resolve_window's count_a): for open_state='auto' of an
      incremental model, which keeps the state from a number of them (_open_state_pays). -#}
  {{ return(keeps_state == 'auto' and config.get('materialized') == 'incremental') }}
{% endmacro %}

{% macro _open_state_table_counted(keeps_state) %}
  {#- The model's open state table whose rows the watermark's query counts (_resolve_window's state_table): when
      the run may read it, an incremental run of a model that may keep it, found in dbt's relation cache (a
      Python model's port: Spark's catalog); else none. -#}
  {%- if not keeps_state or this is not defined or this is none or not is_incremental()
         or dbt_inc_join._in_unit_test() -%}
    {{ return(none) }}
  {%- endif -%}
  {{ return(dbt_inc_join._open_state_table(dbt_inc_join._open_state_relation(this))) }}
{% endmacro %}
