{{ config(materialized='table', tags=['matrix']) }}
-- One run of the macro with arguments taken from vars: the tests compare it with the PySpark core.
{%- set m = var('matrix', {}) %}
{{ dbt_inc_join.inc_join(ref(m.get('a', 'gen_a')), ref(m.get('b', 'gen_b')), join_cols=m.get('join_cols', 'TrxId'),
                     inc_col=m.get('inc_col', 'RecDate'), how=m.get('how', 'left'),
                     look_back_time=m.get('look_back_time', 2), max_waiting_time=m.get('max_waiting_time', 4),
                     output_window_start=m.get('start'), output_window_end=m.get('end'),
                     time_uom=m.get('time_uom', 'day'),
                     enforce_sliding_join_window=m.get('enforce_sliding_join_window', true),
                     include_waiting=m.get('include_waiting', false), output_select=m.get('output_select'),
                     suffixes=m.get('suffixes', ['_A', '_B']), partner=m.get('partner', 'all'),
                     partner_order_by=m.get('partner_order_by'), aggregate=m.get('aggregate'),
                     null_fill=m.get('null_fill'), many_rows_per_key=m.get('many_rows_per_key', false),
                     late_match_time=m.get('late_match_time', 0)) }}
