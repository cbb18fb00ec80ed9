{#- Fails when the share of the listed JoinTypes among the recent rows is above max_share or below min_share.
    Returns one row (total_rows, matching_rows, share, bounds) when it fails, none otherwise. -#}
{% test join_type_share(model, join_types, max_share=none, min_share=none, last_n=none, min_rows=1,
                        inc_col=none, time_uom='day', join_type_column='JoinType') %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col) -%}
  {%- do dbt_inc_join._require_model_columns(model, [['inc_col', inc_col], dbt_inc_join._join_type_requirement(join_type_column)],
                                             [inc_col, time_uom]) -%}
  {{ return(adapter.dispatch('test_join_type_share', 'dbt_inc_join')(model, join_types, max_share, min_share, last_n,
                                                                  min_rows, inc_col, time_uom, join_type_column)) }}
{% endtest %}

{% macro default__test_join_type_share(model, join_types, max_share, min_share, last_n, min_rows, inc_col, time_uom,
                                       join_type_column='JoinType') %}
  {%- set codes = dbt_inc_join._join_type_codes(join_types, 'join_types') -%}
  {%- set max_share = dbt_inc_join._share_bound('max_share', max_share) -%}
  {%- set min_share = dbt_inc_join._share_bound('min_share', min_share) -%}
  {%- if max_share is none and min_share is none -%}
    {{ dbt_inc_join._fail('join_type_share needs max_share, min_share or both.') }}
  {%- endif -%}
  {%- set last_n = dbt_inc_join._positive_count('last_n', last_n) -%}
  {%- set min_rows = dbt_inc_join._positive_count('min_rows', min_rows, allow_none=false) -%}
  {%- set unit = dbt_inc_join._choice('time_uom', time_uom, ['day', 'hour', 'minute']) -%}
  {%- set arrival = dbt_inc_join._truncate_sql(dbt_inc_join._quote(inc_col), unit) %}
with recent as (
    select {{ dbt_inc_join._quote(join_type_column) }} as JoinType from {{ model }}
    where {{ dbt_inc_join._recent_sql(arrival, model, last_n, unit) }}
),
summary as (
    select count(*) as total_rows,
           coalesce(sum(case when JoinType in ({{ codes | join(', ') }}) then 1 else 0 end), 0) as matching_rows
    from recent
)
select total_rows, matching_rows, matching_rows / total_rows as share,
       '{{ codes | join(",") }}' as join_types,
       {{ min_share if min_share is not none else 'CAST(NULL AS DOUBLE)' }} as min_share,
       {{ max_share if max_share is not none else 'CAST(NULL AS DOUBLE)' }} as max_share
from summary
where total_rows >= {{ min_rows }}
  and ({{ ('matching_rows / total_rows > ' ~ max_share) if max_share is not none else 'false' }}
       or {{ ('matching_rows / total_rows < ' ~ min_share) if min_share is not none else 'false' }})
{% endmacro %}
