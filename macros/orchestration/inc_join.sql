{#- The public macro: the SQL of one incremental-join run (spec §2-§5). -#}

{% macro inc_join(a, b, join_cols) %}
  {#- a, b and join_cols by position or name; every other argument (macros/tables/generated/_arguments.sql: names,
      defaults, checks) by name, or by position in the table's order. -#}
  {%- set arguments = dbt_inc_join._call_arguments('inc_join', ['a', 'b', 'join_cols'], varargs, kwargs) -%}
  {%- do arguments.update({'join_cols': join_cols}) -%}
  {{ return(adapter.dispatch('inc_join', 'dbt_inc_join')(a, b, arguments)) }}
{% endmacro %}

{% macro default__inc_join(a, b, arguments) %}
  {#- arguments: every argument by name (_call_arguments). -#}
  {#- dbt renders every model while parsing the project (disabled ones too); check and plan only when running.
      The hooks that keep the open state (spec §18) are set while parsing, as the model's own config. -#}
  {%- if not execute and model is defined and model.get('resource_type', 'model') == 'model' -%}
    {%- do config(pre_hook=['{{ dbt_inc_join._open_state_before() }}'],
                  post_hook=['{{ dbt_inc_join._open_state_after() }}']) -%}
  {%- endif -%}
  {%- if not execute -%}
    {{ return('select 1 as inc_join_placeholder') }}
  {%- endif -%}
  {%- set params = dbt_inc_join._check_parameters(arguments) -%}
  {%- set max_window_units = dbt_inc_join._max_window_units(arguments.max_window_units) -%}
  {%- set on_restated = dbt_inc_join._on_restated_input_mode(arguments.on_restated_input) -%}
  {%- set horizon = dbt_inc_join._restated_horizon(arguments.restated_horizon) -%}
  {%- set keeps_state = dbt_inc_join._check_argument('open_state', arguments.open_state) -%}
  {%- do dbt_inc_join._check_redo_config(on_restated) -%}
  {%- set a, b = dbt_inc_join._unfiltered(a), dbt_inc_join._unfiltered(b) -%}
  {#- the tables to describe, found once (for a unit test's given rows, a catalog search: _fixtures.sql) -#}
  {%- set b_table = dbt_inc_join._table_of(b, 'b') -%}
  {%- set a_table = dbt_inc_join._table_of(a, 'a') -%}
  {%- set a_columns = adapter.get_columns_in_relation(a_table) -%}
  {%- set b_columns = adapter.get_columns_in_relation(b_table) -%}
  {%- set prepared = dbt_inc_join._prepare_join(params, a_table, b_table, a_columns, b_columns) -%}
  {%- set inputs, plan = prepared.inputs, prepared.plan -%}
  {#- after the inputs' columns: an arrival column misspelled is named as such, not as a partition_by to change -#}
  {%- do dbt_inc_join._check_model_config({'include_waiting': params.include_waiting, 'time_uom': params.time_uom,
                                            'inc_col': params.inc_col}) -%}
  {#- `dbt show` of a committed window as its run's inputs were, beside the table and the inputs now (spec §17) -#}
  {%- if var('inc_join_audit', none) not in [none, ''] -%}
    {{ return(dbt_inc_join._audit_sql(a, b, params, inputs, plan, var('inc_join_audit'))) }}
  {%- endif -%}
  {#- inputs rewritten after a committed run read them (spec §14): checked in the run's own read ranges, which
      the window's query fingerprints -#}
  {%- set reaches = dbt_inc_join._with_horizon(dbt_inc_join._join_reaches(params), horizon) -%}
  {#- the open state's table (spec §18), whose rows the watermark's query counts (found in dbt's cache) -#}
  {%- set state_table = dbt_inc_join._open_state_table_counted(keeps_state) -%}
  {%- set window = dbt_inc_join._resolve_window(a, b, a_columns, b_columns, params.inc_cols, params.time_uom, params.how,
                                            arguments.output_window_start, arguments.output_window_end,
                                            max_window_units, reaches=reaches, state_table=state_table,
                                            count_a=dbt_inc_join._open_state_counts_a(keeps_state)) -%}
  {%- set sides = window.get('fingerprint_sides', []) -%}
  {%- set check = dbt_inc_join._check_restated(window, sides, reaches, on_restated, horizon) -%}
  {%- set redo = dbt_inc_join._redo_of(check, window) -%}
  {%- if redo is not none -%}
    {#- the redo's window counts no rows: the new rows of A the run's own window counted decide its open state -#}
    {%- set versions, counted = window.input_versions, window.get('a_rows') -%}
    {%- set window = dbt_inc_join._resolve_window(a, b, a_columns, b_columns, params.inc_cols, params.time_uom, params.how,
                                              arguments.output_window_start, arguments.output_window_end,
                                              max_window_units, redo=redo) -%}
    {%- do window.update({'input_versions': versions, 'a_rows': counted}) -%}
  {%- endif -%}
  {%- set restated = dbt_inc_join._restated_record(check, window, sides, reaches, params.inc_col) -%}
  {#- the open state (spec §18): what the run reads of the state, and the statement that writes it after -#}
  {%- set state = dbt_inc_join._open_state_use(a, b, params, inputs, window, restated, keeps_state) -%}
  {%- if state is not none -%}
    {%- do window.update({'open_state': {'kind': state.kind, 'relation': state.relation}}) -%}
  {%- endif -%}
  {#- the plan that pairs the rows (spec §15): with many_rows_per_key='auto', from samples of the read ranges -#}
  {%- set choice = dbt_inc_join._choose_join_plan(a, b, params, inputs, window) -%}
  {%- do window.update({'rows_read': dbt_inc_join._join_rows_read(params, window, restated.get('fingerprints'),
                                                                  (state or {}).get('rows'))}) -%}
  {%- do dbt_inc_join._log_run(params, window, choice) -%}
  {#- the run's record, for the post-hook record_run (spec §13), rides in the compiled code -#}
  {%- set marker = '' -%}
  {%- if not window.get('in_sql') -%}
    {%- set record = dbt_inc_join._run_record(window, params.inc_col, 'sql', restated, choice.text) -%}
    {%- set marker = dbt_inc_join._run_marker(record) -%}
    {%- do dbt_inc_join._set_commit_metadata(record) -%}
  {%- endif -%}
  {%- if state is not none -%}
    {%- set texts = dbt_inc_join._render_join(a, b, params, inputs, plan, window, choice, 'texts') -%}
    {{ return(marker ~ '\n' ~ dbt_inc_join._open_state_marker(state, texts.state, texts.kept) ~ '\n' ~ texts.rows) }}
  {%- endif -%}
  {{ return(marker ~ '\n' ~ dbt_inc_join._render_join(a, b, params, inputs, plan, window, choice)) }}
{% endmacro %}

{% macro _prepare_join(params, a_table, b_table, a_columns, b_columns, b_side='b', spelling='sql') %}
  {#- The checked inputs and column plan of one join of A with B (join.py: prepare_join), for inc_join and for each
      input of inc_join_many: keys and arrivals on both sides, the output columns, aggregates checked by Spark,
      null_fill literals, join_cond rewritten and checked. Schemas only, no data. b_side names B
      in the messages (an input of inc_join_many: "input '<name>'", checked in its spelling, _input_spelling). -#}
  {%- set inputs = dbt_inc_join._resolve_inputs(params, a_columns, b_columns, b_side, spelling) -%}
  {%- set plan = dbt_inc_join._plan_columns(params, inputs, spelling) -%}
  {%- if params.aggregate -%}
    {%- do dbt_inc_join._check_aggregates(b_table, params.aggregate, inputs.b_names, spelling) -%}
  {%- endif -%}
  {%- do plan.update({'aggregate_fills': dbt_inc_join._aggregate_fills(params)}) -%}
  {%- do dbt_inc_join._resolve_join_cond(params, inputs, a_table, b_table, spelling) -%}
  {{ return({'inputs': inputs, 'plan': plan}) }}
{% endmacro %}

{% macro _join_reaches(params) %}
  {#- How far before a window's start inc_join reads A and B ({'a': units, 'b': units}; spec §4): the read
      ranges of any one-unit window, here 2000-01-01's. -#}
  {%- set any_unit = modules.datetime.datetime(2000, 1, 1) -%}
  {%- set any_unit = any_unit.date() if params.time_uom == 'day' else any_unit -%}
  {%- set ranges = dbt_inc_join._read_ranges(any_unit, any_unit, params.how, params.look_back_time,
                                              params.max_waiting_time, params.time_uom, params.late_match_time) -%}
  {{ return(dbt_inc_join._reaches({'a': ranges[0], 'b': ranges[1]}, any_unit, params.time_uom)) }}
{% endmacro %}

{% macro _join_read_ranges(params, window) %}
  {#- What a run of inc_join reads of A and of B (spec §4, with the open state §18 when it reads it): [[a lower,
      upper], [b lower, upper]], or none for an empty window. -#}
  {%- if window.empty -%}{{ return(none) }}{%- endif -%}
  {%- set state = window.get('open_state') or {} -%}
  {{ return(dbt_inc_join._read_ranges(window.start, window.end, params.how, params.look_back_time,
                                      params.max_waiting_time, params.time_uom, params.late_match_time,
                                      state.kind if state.get('relation') is not none else none)) }}
{% endmacro %}

{% macro _join_rows_read(params, window, fingerprints, state_rows=none) %}
  {#- The rows a run of inc_join read of A, B and its open state (_rows_read), for its log line and record. -#}
  {%- set ranges = dbt_inc_join._join_read_ranges(params, window) -%}
  {%- if ranges is none -%}{{ return(none) }}{%- endif -%}
  {{ return(dbt_inc_join._rows_read(fingerprints, {'a': ranges[0], 'b': ranges[1]}, state_rows)) }}
{% endmacro %}

{% macro _log_run(params, window, choice) %}
  {#- One line per run in dbt's log (the same text as a Python model's), ending with the rows it read (when its
      fingerprints counted them) and its plan. -#}
  {%- set ranges = dbt_inc_join._join_read_ranges(params, window) -%}
  {%- set target = this if (this is defined and this is not none) else 'run-operation' -%}
  {%- if dbt_inc_join._in_unit_test() -%}
    {%- set target = 'unit test ' ~ model.name -%}
  {%- endif -%}
  {{ log(dbt_inc_join._run_log_line(target, window, ranges) ~ dbt_inc_join._rows_read_text(window) ~ '; plan: '
         ~ choice.text, info=True) }}
{% endmacro %}
