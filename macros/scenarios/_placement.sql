{#- Placement helpers the scenarios share (scenarios.py: _a_row, _window_closes, _matched_arrival), and the
    pairing rule's two tests (scenarios.py: keys_equal_sql, sliding_window_sql). -#}

{% macro _keys_equal_sql(key_count, a_key='_ak') %}
  {#- A's keys (named <a_key><i>) equal B's (plain SQL equality: NULL never matches). -#}
  {%- set tests = [] -%}
  {%- for index in range(key_count) -%}
    {%- do tests.append(a_key ~ index ~ ' = _bk' ~ index) -%}
  {%- endfor -%}
  {{ return(tests | join(' AND ')) }}
{% endmacro %}

{% macro _sliding_window_sql(lb, mw, time_uom, a_arrival='_a_arrival') %}
  {#- b inside the sliding window [a - lb, a + mw] of the A arrival `a_arrival`. -#}
  {%- set lower = '_b_arrival >= ' ~ dbt_inc_join._add_units_sql(a_arrival, -lb, time_uom) -%}
  {%- set upper = '_b_arrival <= ' ~ dbt_inc_join._add_units_sql(a_arrival, mw, time_uom) -%}
  {{ return(lower ~ ' AND ' ~ upper) }}
{% endmacro %}

{% macro _a_row(ctx, where) %}
  {#- `where` for rows of an A row itself, never of its late copy (spec §10). -#}
  {{ return(where ~ ' AND NOT _a_late' if ctx.late_match else where) }}
{% endmacro %}

{% macro _window_closes(ctx) %}
  {{ return(dbt_inc_join._add_units_sql('_a_arrival', ctx.mw, ctx.time_uom)) }}
{% endmacro %}

{% macro _matched_arrival(ctx, arrival) %}
  {#- Where a partner row is placed: when it is known. The last partner is known only when A's window closes
      (spec §11); any pair, and the first partner, as soon as both rows are there. -#}
  {{ return(dbt_inc_join._window_closes(ctx) if ctx.mode == 'last' else arrival) }}
{% endmacro %}
