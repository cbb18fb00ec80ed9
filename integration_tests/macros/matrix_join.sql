{% macro matrix_join(m) %}
  {#- One call of the macro with the arguments of one matrix case (a dict; absent keys take the macro's
      defaults, except the integration inputs and windows the tests use). The model sql_matrix renders one case
      from var('matrix'); tests/integration/test_sql_matches_core.py renders all cases in one `dbt compile`. -#}
{{ dbt_inc_join.inc_join(
    ref(m.get('a', 'gen_a')),
    ref(m.get('b', 'gen_b')),
    join_cols=m.get('join_cols', 'TrxId'),
    inc_col=m.get('inc_col', 'RecDate'),
    how=m.get('how', 'left'),
    look_back_time=m.get('look_back_time', 2),
    max_waiting_time=m.get('max_waiting_time', 4),
    output_window_start=m.get('start'),
    output_window_end=m.get('end'),
    time_uom=m.get('time_uom', 'day'),
    enforce_sliding_join_window=m.get('enforce_sliding_join_window', true),
    include_waiting=m.get('include_waiting', false),
    output_select=m.get('output_select'),
    suffixes=m.get('suffixes', ['_A', '_B']),
    partner=m.get('partner', 'all'),
    partner_order_by=m.get('partner_order_by'),
    aggregate=m.get('aggregate'),
    null_fill=m.get('null_fill'),
    many_rows_per_key=m.get('many_rows_per_key', 'auto'),
    late_match_time=m.get('late_match_time', 0),
    join_cond=m.get('join_cond')
) }}
{% endmacro %}

{% macro matrix_cases(cases, separator) %}
  {#- Every case of `cases`, rendered one after the other, `separator` (an SQL comment line) between them. -#}
  {%- for m in cases %}
{{ matrix_join(m) }}
{%- if not loop.last %}
{{ separator }}
{%- endif %}
  {%- endfor %}
{% endmacro %}
