{#- dbt run-operation dbt_inc_join.suggest_windows --args '{a: trx_financial, b: trx_sepa, join_cols: [TrxId],
    inc_col: RecDate, coverage: 0.999}'
    inc_col defaults to the var inc_join_inc_col, else 'RecDate'.
    partner='all' (the default) prints the distribution of Δ = b − a over the partner pairs of the whole
    history (equal keys, any arrival) and the smallest look_back_time and max_waiting_time that keep `coverage`
    of them. partner='first', 'last' or 'aggregate' (one row per A, spec §11) counts A rows instead: an A row
    is kept when at least one partner arrives in [a − lb, a + mw]; it prints the nearest partner before and
    after each A row and the smallest window that keeps `coverage` of the A rows that have a partner. The same
    numbers as dbt_inc_join.suggest_windows in Python (for one row per A, the same text with '-' for '−').
    The query counts rows per (keys, arrival) on each side and never forms the pairs, so a key with thousands
    of rows a day costs its distinct arrivals, not its rows squared.
    look_back_time and max_waiting_time (both or neither): the window in use; with partner='all' the report counts,
    for a few late_match_time values (spec §10), the pairs with mw < delta <= mw + late_match_time, which that
    window would pair late (the suggested window when none is given).
    Over a live history only the A rows whose whole candidate window [a - max lb, a + max mw] (the largest the
    suggestion considers) lies at or before the watermark (min of the latest arrivals of a and b) count: the
    partners of the others may not have arrived yet. The report says how many it left out;
    complete_history=true counts every A row. -#}

{% macro suggest_windows(a, b, join_cols, inc_col=none, time_uom='day', coverage=0.999, partner='all',
                         look_back_time=none, max_waiting_time=none, complete_history=false) %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col, allow_pair=true) -%}
  {{ return(adapter.dispatch('suggest_windows', 'dbt_inc_join')(a, b, join_cols, inc_col, time_uom, coverage, partner,
                                                            look_back_time, max_waiting_time, complete_history)) }}
{% endmacro %}

{% macro default__suggest_windows(a, b, join_cols, inc_col, time_uom, coverage, partner='all', look_back_time=none,
                                  max_waiting_time=none, complete_history=false) %}
  {#- sizing/spark.py: suggest_windows; the queries in _sizing_queries.sql, the rules in _sizing_pairs.sql and
      _sizing_a_rows.sql, the reports in _sizing_reports.sql -#}
  {%- set coverage = dbt_inc_join._check_coverage(coverage) -%}
  {%- set window = dbt_inc_join._current_window(look_back_time, max_waiting_time) -%}
  {%- do dbt_inc_join._flag('complete_history', complete_history) -%}
  {%- set partner = dbt_inc_join._choice('partner', partner, ['all', 'first', 'last', 'aggregate']) -%}
  {%- set params = dbt_inc_join._check_parameters({'join_cols': join_cols, 'inc_col': inc_col, 'how': 'inner', 'time_uom': time_uom}) -%}
  {%- set a, b = dbt_inc_join._relation_argument(a, 'a'), dbt_inc_join._relation_argument(b, 'b') -%}
  {%- set inputs = dbt_inc_join._resolve_inputs(params, adapter.get_columns_in_relation(a), adapter.get_columns_in_relation(b)) -%}
  {%- set unit = params.time_uom -%}
  {%- set counts = [dbt_inc_join._arrival_counts(a, 'a', 0, inputs, unit), dbt_inc_join._arrival_counts(b, 'b', 1, inputs, unit)] -%}
  {%- if partner == 'all' -%}
    {%- set counted = dbt_inc_join._delta_histogram(counts, inputs, unit, complete_history) -%}
    {%- set suggestion = dbt_inc_join._suggest_from_histogram(counted.histogram, coverage, window) -%}
    {%- do suggestion.update({'censoring': counted.censoring}) -%}
    {%- do print(dbt_inc_join._format_report(suggestion, unit)) -%}
    {{ return(suggestion) }}
  {%- endif -%}
  {%- set nearest = dbt_inc_join._nearest_partners(counts, inputs, unit, complete_history) -%}
  {%- set suggestion = dbt_inc_join._suggest_from_nearest(nearest.points, nearest.without_partner, coverage, partner) -%}
  {%- do suggestion.update({'censoring': nearest.censoring}) -%}
  {%- do print(dbt_inc_join._format_a_row_report(suggestion, unit)) -%}
  {{ return(suggestion) }}
{% endmacro %}
