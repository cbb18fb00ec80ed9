{#- The two inputs of an inc_join model: fails when their latest arrivals differ by more than max_lag units. The
    slower input holds the availability watermark (spec §2), so the model silently stops advancing: no error,
    just no new rows. The failing row names the input that is behind, its latest arrival (since when it has
    not loaded), the other input's, and the lag. Declared on the model, with its two inputs as a and b (on an
    inc_join_many model, once per input). A's arrival column is inc_col, B's b_inc_col (default inc_col). -#}
{% test input_lag(model, a, b, max_lag=1, inc_col=none, b_inc_col=none, time_uom='day') %}
  {%- set a_inc_col = dbt_inc_join._arrival_column(inc_col) -%}
  {%- do dbt_inc_join._require_input_columns(a, 'a', [['inc_col', a_inc_col]]) -%}
  {%- do dbt_inc_join._require_input_columns(b, 'b', [['b_inc_col', b_inc_col or a_inc_col]]) -%}
  {%- do dbt_inc_join._require_model_unit(model, a_inc_col, time_uom) -%}
  {{ return(adapter.dispatch('test_input_lag', 'dbt_inc_join')(model, a, b, max_lag, inc_col, b_inc_col, time_uom)) }}
{% endtest %}

{% macro default__test_input_lag(model, a, b, max_lag, inc_col, b_inc_col, time_uom) %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col) -%}
  {%- set b_inc_col = b_inc_col or inc_col -%}
  {%- set max_lag = dbt_inc_join._window_length('max_lag', max_lag) -%}
  {%- set unit = dbt_inc_join._choice('time_uom', time_uom, ['day', 'hour', 'minute']) -%}
  {%- set a_latest = 'max(' ~ dbt_inc_join._truncate_sql(dbt_inc_join._quote(inc_col), unit) ~ ')' -%}
  {%- set b_latest = 'max(' ~ dbt_inc_join._truncate_sql(dbt_inc_join._quote(b_inc_col), unit) ~ ')' %}
with latest as (
    select (select {{ a_latest }} from {{ a }}) as a_latest,
           (select {{ b_latest }} from {{ b }}) as b_latest
),
compared as (
    select a_latest, b_latest, {{ dbt_inc_join._diff_units_sql('a_latest', 'b_latest', unit) }} as a_ahead_by,
           b_latest is null or a_latest > b_latest as b_behind
    from latest
)
select case when b_behind then '{{ b }}' else '{{ a }}' end as input_behind,
       case when b_behind then b_latest else a_latest end as behind_since,
       case when b_behind then '{{ a }}' else '{{ b }}' end as input_ahead,
       case when b_behind then a_latest else b_latest end as ahead_latest,
       abs(a_ahead_by) as lag,
       {{ max_lag }} as max_lag,
       '{{ unit }}' as time_uom
from compared
where abs(a_ahead_by) > {{ max_lag }}
   or (a_latest is null) <> (b_latest is null)
{% endmacro %}
