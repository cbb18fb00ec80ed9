{#- The output window of a dbt run (spec §6): which units this run finalises, and why. The rules are in
    orchestration/_resolve_window.sql, which Python models run too (orchestration/python_models/port.py). -#}

{% macro output_window(a, b, inc_col='RecDate', time_uom='day', how='left', output_window_start=none,
                       output_window_end=none, max_window_units=none) %}
  {{ return(adapter.dispatch('output_window', 'dbt_inc_join')(a, b, inc_col, time_uom, how, output_window_start,
                                                           output_window_end, max_window_units)) }}
{% endmacro %}

{% macro default__output_window(a, b, inc_col, time_uom, how, output_window_start, output_window_end, max_window_units) %}
  {#- start: argument > var inc_join_output_window_start > microbatch batch start > largest output arrival in
      this + 1 unit > earliest arrival of a (of a or b for how = full).
      end: argument > var inc_join_output_window_end > microbatch batch end − 1 unit > watermark; always capped
      at the availability watermark min(max a, max b), or at var inc_join_available_until when set; then at most
      max_window_units units from the start (argument > var inc_join_max_window_units).
      Returns a dict; the caller logs it. -#}
  {%- if not execute -%}
    {{ return({'start': none, 'end': none, 'empty': true, 'start_reason': 'parse', 'end_reason': 'parse',
               'watermark': none, 'a_max': none, 'b_max': none, 'time_uom': time_uom, 'units_behind': 0}) }}
  {%- endif -%}
  {%- set time_uom = dbt_inc_join._choice('time_uom', time_uom, ['day', 'hour', 'minute']) -%}
  {%- set how = dbt_inc_join._choice('how', how, ['inner', 'left', 'full', 'left_anti']) -%}
  {%- set a, b = dbt_inc_join._unfiltered(a), dbt_inc_join._unfiltered(b) -%}
  {%- set a_columns = adapter.get_columns_in_relation(dbt_inc_join._table_of(a, 'a')) -%}
  {%- set b_columns = adapter.get_columns_in_relation(dbt_inc_join._table_of(b, 'b')) -%}
  {{ return(dbt_inc_join._resolve_window(a, b, a_columns, b_columns, inc_col, time_uom, how, output_window_start,
                                     output_window_end, max_window_units)) }}
{% endmacro %}
