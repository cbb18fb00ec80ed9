{#- missed_partners' steps: its arguments checked, B's column type, and B's read range as literals. -#}

{% macro _missed_partners_arguments(join_cols, b_join_cols, look_back_time, max_waiting_time, late_match_time,
                                    search_units, max_share, last_n, min_rows, time_uom) %}
  {%- set keys = dbt_inc_join._name_list('join_cols', join_cols) -%}
  {%- set b_keys = keys if b_join_cols is none else dbt_inc_join._name_list('b_join_cols', b_join_cols) -%}
  {%- if b_keys | length != keys | length -%}
    {{ dbt_inc_join._fail('b_join_cols must name one B column per join_cols column (got ' ~ b_keys | length ~ ' for ' ~ keys | length ~ ').') }}
  {%- endif -%}
  {%- set lb = dbt_inc_join._window_length('look_back_time', look_back_time) -%}
  {%- set mw = dbt_inc_join._window_length('max_waiting_time', max_waiting_time) -%}
  {%- set late = dbt_inc_join._window_length('late_match_time', late_match_time) -%}
  {%- set search = 4 * (lb + mw) if search_units is none else dbt_inc_join._positive_count('search_units', search_units, allow_none=false) -%}
  {%- set search = [search, late + 1] | max -%}
  {{ return({'keys': keys, 'b_keys': b_keys, 'lb': lb, 'mw': mw, 'late': late, 'search': search,
             'max_share': dbt_inc_join._share_bound('max_share', max_share),
             'last_n': dbt_inc_join._positive_count('last_n', last_n),
             'min_rows': dbt_inc_join._positive_count('min_rows', min_rows, allow_none=false),
             'unit': dbt_inc_join._choice('time_uom', time_uom, ['day', 'hour', 'minute'])}) }}
{% endmacro %}

{% macro _missed_partners_b_type(b, b_inc_col) %}
  {#- B's arrival type for its read range (date or timestamp); B must have the column. -#}
  {%- set b_columns = adapter.get_columns_in_relation(b) if execute else [] -%}
  {%- set b_raw = dbt_inc_join._find_column(b_columns, b_inc_col) if execute else none -%}
  {%- if execute and b_raw is none -%}
    {{ dbt_inc_join._fail("b_inc_col column '" ~ b_inc_col ~ "' is missing from " ~ b ~ '.') }}
  {%- endif -%}
  {{ return('date' if b_raw is none or b_raw.dtype | lower == 'date' else 'timestamp') }}
{% endmacro %}

{% macro _missed_partners_b_range(model, a_at, timed_out_where, lb, mw, search, unit) %}
  {#- B's read range, as literals: the timed-out arrivals' windows widened by search_units ([none, none]: no
      timed-out row, or parsing). -#}
  {%- set lower, upper = none, none -%}
  {%- if execute -%}
    {%- set found = run_query("select date_format(min(" ~ a_at ~ "), 'yyyy-MM-dd HH:mm:ss'), date_format(max(" ~ a_at ~ "), 'yyyy-MM-dd HH:mm:ss') from " ~ model ~ " where " ~ timed_out_where) -%}
    {%- set first_a = dbt_inc_join._parse_text_value(found.rows[0][0], unit) -%}
    {%- set last_a = dbt_inc_join._parse_text_value(found.rows[0][1], unit) -%}
    {%- if first_a is not none -%}
      {%- set lower = dbt_inc_join._shift_value(first_a, -(lb + search), unit) -%}
      {%- set upper = dbt_inc_join._shift_value(last_a, mw + search, unit) -%}
    {%- endif -%}
  {%- endif -%}
  {{ return([lower, upper]) }}
{% endmacro %}
