{#- A enriched from several inputs in one run, one row per A row (spec §12). Read side by side with
    src/dbt_inc_join/orchestration/many.py (same steps, same internal names). -#}

{% macro inc_join_many(a, inputs) %}
  {#- a and inputs by position or name; every other argument (macros/tables/generated/_arguments.sql: names, defaults,
      checks) by name, or by position in the table's order. -#}
  {%- set arguments = dbt_inc_join._call_arguments('inc_join_many', ['a', 'inputs'], varargs, kwargs) -%}
  {{ return(adapter.dispatch('inc_join_many', 'dbt_inc_join')(a, inputs, arguments)) }}
{% endmacro %}

{% macro default__inc_join_many(a, inputs, arguments) %}
  {#- arguments: every argument but the inputs, by name (_call_arguments). The open state's hooks (spec §18) are
      set while parsing, as inc_join's. -#}
  {%- if not execute and model is defined and model.get('resource_type', 'model') == 'model' -%}
    {%- do config(pre_hook=['{{ dbt_inc_join._open_state_before() }}'],
                  post_hook=['{{ dbt_inc_join._open_state_after() }}']) -%}
  {%- endif -%}
  {%- if not execute -%}
    {{ return('select 1 as inc_join_placeholder') }}
  {%- endif -%}
  {%- set include_waiting = dbt_inc_join._check_argument('include_waiting', arguments.include_waiting) -%}
  {%- set specs = dbt_inc_join._many_specs(inputs) -%}
  {%- set time_uom = dbt_inc_join._check_argument('time_uom', arguments.time_uom) -%}
  {%- set max_window_units = dbt_inc_join._max_window_units(arguments.max_window_units) -%}
  {%- set on_restated = dbt_inc_join._on_restated_input_mode(arguments.on_restated_input) -%}
  {%- set horizon = dbt_inc_join._restated_horizon(arguments.restated_horizon) -%}
  {%- set keeps_state = dbt_inc_join._check_argument('open_state', arguments.open_state) -%}
  {%- set a = dbt_inc_join._unfiltered(a) -%}
  {%- set a_table = dbt_inc_join._table_of(a, 'a') -%}
  {%- set a_columns = adapter.get_columns_in_relation(a_table) -%}
  {%- set prepared = [] -%}
  {%- for spec in specs -%}
    {%- do prepared.append(dbt_inc_join._many_input(spec, a_table, a_columns, time_uom)) -%}
  {%- endfor -%}
  {%- do dbt_inc_join._check_many_arrivals(prepared | map(attribute='inputs') | map(attribute='inc_col') | map('first') | list) -%}
  {%- set first = prepared[0] -%}
  {%- do dbt_inc_join._check_model_config({'include_waiting': include_waiting, 'time_uom': time_uom,
                                            'inc_col': first.params.inc_col}) -%}
  {%- set more = [] -%}
  {%- for item in prepared[1:] -%}
    {%- do more.append({'relation': item.relation, 'columns': item.b_columns, 'inc_col': item.params.inc_cols}) -%}
  {%- endfor -%}
  {%- do dbt_inc_join._check_redo_config(on_restated) -%}
  {#- `dbt show` of a committed window as its run's inputs were, beside the table and the inputs now (spec §17) -#}
  {%- if var('inc_join_audit', none) not in [none, ''] -%}
    {{ return(dbt_inc_join._audit_many_sql(a, a_columns, prepared, time_uom, arguments.output_select, include_waiting,
                                           var('inc_join_audit'))) }}
  {%- endif -%}
  {%- set names = ['a'] + prepared | map(attribute='name') | list -%}
  {#- inputs rewritten after a committed run read them (spec §14): checked in the run's own read ranges, which
      the window's query fingerprints -#}
  {%- set reaches = dbt_inc_join._with_horizon(dbt_inc_join._many_reaches(prepared), horizon) -%}
  {#- the open state's table (spec §18), whose rows the watermark's query counts (found in dbt's cache) -#}
  {%- set state_table = dbt_inc_join._open_state_table_counted(keeps_state) -%}
  {%- set window = dbt_inc_join._resolve_window(a, first.relation, a_columns, first.b_columns, first.params.inc_cols,
                                            time_uom, 'left', arguments.output_window_start,
                                            arguments.output_window_end, max_window_units, more, names,
                                            reaches=reaches, state_table=state_table,
                                            count_a=dbt_inc_join._open_state_counts_a(keeps_state)) -%}
  {%- set sides = window.get('fingerprint_sides', []) -%}
  {%- set check = dbt_inc_join._check_restated(window, sides, reaches, on_restated, horizon) -%}
  {%- set redo = dbt_inc_join._redo_of(check, window) -%}
  {%- if redo is not none -%}
    {#- the redo's window counts no rows: the new rows of A the run's own window counted decide its open state -#}
    {%- set versions, counted = window.input_versions, window.get('a_rows') -%}
    {%- set window = dbt_inc_join._resolve_window(a, first.relation, a_columns, first.b_columns, first.params.inc_cols,
                                              time_uom, 'left', arguments.output_window_start,
                                              arguments.output_window_end, max_window_units, more, names, redo) -%}
    {%- do window.update({'input_versions': versions, 'a_rows': counted}) -%}
  {%- endif -%}
  {%- set restated = dbt_inc_join._restated_record(check, window, sides, reaches, first.params.inc_col) -%}
  {#- the open state (spec §18): what the run reads of the state, and the statement that writes it after -#}
  {%- set state = dbt_inc_join._many_open_state_use(a, prepared, window, restated, keeps_state, include_waiting) -%}
  {%- if state is not none -%}
    {%- do window.update({'open_state': {'kind': state.kind, 'relation': state.relation}}) -%}
  {%- endif -%}
  {#- each input's plan (spec §15): with many_rows_per_key='auto', from samples of the read ranges (A's from the
      start when the run reads the state) -#}
  {%- set plans = dbt_inc_join._many_input_plans(a, prepared, window,
                                                 dbt_inc_join._many_read_ranges(window, prepared).a[0]
                                                 if not window.empty else none) -%}
  {%- set plans_text = dbt_inc_join._many_plans_text(prepared, plans) -%}
  {%- do window.update({'rows_read': dbt_inc_join._many_rows_read(window, prepared,
                                                                  restated.get('fingerprints'),
                                                                  (state or {}).get('rows'))}) -%}
  {%- do dbt_inc_join._log_many_run(window, prepared, plans_text) -%}
  {%- set marker = '' -%}
  {%- if not window.get('in_sql') -%}
    {%- set record = dbt_inc_join._run_record(window, first.params.inc_col, 'sql', restated, plans_text) -%}
    {%- set marker = dbt_inc_join._run_marker(record) -%}
    {%- do dbt_inc_join._set_commit_metadata(record) -%}
  {%- endif -%}
  {%- if state is not none -%}
    {%- set texts = dbt_inc_join._render_many(a, a_columns, prepared, window, arguments.output_select,
                                              include_waiting, plans, 'texts') -%}
    {{ return(marker ~ '\n' ~ dbt_inc_join._open_state_marker(state, texts.state, texts.kept) ~ '\n' ~ texts.rows) }}
  {%- endif -%}
  {{ return(marker ~ '\n' ~ dbt_inc_join._render_many(a, a_columns, prepared, window, arguments.output_select, include_waiting, plans)) }}
{% endmacro %}
