{#- Placement helpers the scenarios share, the pairing rule's two tests (_keys_equal_sql, _sliding_window_sql), and
    the names of a joined pair's arrivals and of its sides' presence, written once. -#}

{% macro _arrival_a() %}{{ return('_a_arrival') }}{% endmacro %}

{% macro _arrival_b() %}{{ return('_b_arrival') }}{% endmacro %}

{% macro _late_copy() %}
  {#- the flag of A's second copy of a timed-out row (spec §10) -#}
  {{ return('_a_late') }}
{% endmacro %}

{% macro _both() %}
  {#- a pair: both sides present -#}
  {{ return(dbt_inc_join._arrival_a() ~ ' IS NOT NULL AND ' ~ dbt_inc_join._arrival_b() ~ ' IS NOT NULL') }}
{% endmacro %}

{% macro _a_only() %}
  {#- an A row without partner -#}
  {{ return(dbt_inc_join._arrival_a() ~ ' IS NOT NULL AND ' ~ dbt_inc_join._arrival_b() ~ ' IS NULL') }}
{% endmacro %}

{% macro _b_only() %}
  {#- a B row without A row (how = full) -#}
  {{ return(dbt_inc_join._arrival_a() ~ ' IS NULL') }}
{% endmacro %}

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
  {%- set lower = dbt_inc_join._arrival_b() ~ ' >= ' ~ dbt_inc_join._add_units_sql(a_arrival, -lb, time_uom) -%}
  {%- set upper = dbt_inc_join._arrival_b() ~ ' <= ' ~ dbt_inc_join._add_units_sql(a_arrival, mw, time_uom) -%}
  {{ return(lower ~ ' AND ' ~ upper) }}
{% endmacro %}

{% macro _a_row(ctx, where) %}
  {#- `where` for rows of an A row itself, never of its late copy (spec §10). -#}
  {{ return(where ~ ' AND NOT ' ~ dbt_inc_join._late_copy() if ctx.late_match else where) }}
{% endmacro %}

{% macro _delta(ctx) %}
  {#- DiffArrivalTime of a pair: b - a in units -#}
  {{ return(dbt_inc_join._diff_units_sql(dbt_inc_join._arrival_b(), dbt_inc_join._arrival_a(), ctx.time_uom)) }}
{% endmacro %}

{% macro _window_closes(ctx) %}
  {{ return(dbt_inc_join._add_units_sql(dbt_inc_join._arrival_a(), ctx.mw, ctx.time_uom)) }}
{% endmacro %}

{% macro _matched_arrival(ctx, arrival) %}
  {#- Where a partner row is placed: when it is known. The last partner is known only when A's window closes
      (spec §11); any pair, and the first partner, as soon as both rows are there. -#}
  {{ return(dbt_inc_join._window_closes(ctx) if ctx.mode == 'last' else arrival) }}
{% endmacro %}
