{#- No A row (its join keys and raw A arrival) is both timed out and matched, or timed out twice; no output
    row is duplicated. A rows with a NULL key or arrival cannot be identified and are not checked. -#}
{% test a_rows_once(model, join_cols, inc_col=none, a_arrival_col=none) %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col) -%}
  {%- set required = [] -%}
  {%- for key in dbt_inc_join._name_list('join_cols', join_cols) -%}{%- do required.append(['join_cols', key]) -%}{%- endfor -%}
  {%- do required.append(['a_arrival_col', a_arrival_col or (inc_col ~ '_A')]) -%}
  {%- do required.append(['JoinType', 'JoinType']) -%}
  {%- do dbt_inc_join._require_model_columns(model, required) -%}
  {{ return(adapter.dispatch('test_a_rows_once', 'dbt_inc_join')(model, join_cols, inc_col, a_arrival_col)) }}
{% endtest %}

{% macro default__test_a_rows_once(model, join_cols, inc_col, a_arrival_col) %}
  {%- set keys = dbt_inc_join._name_list('join_cols', join_cols) -%}
  {%- set a_arrival = a_arrival_col or (inc_col ~ '_A') -%}
  {%- set identity = [] -%}{%- for k in keys + [a_arrival] -%}{%- do identity.append(dbt_inc_join._quote(k)) -%}{%- endfor -%}
  {%- set described = [] -%}{%- for c in identity -%}{%- do described.append('CAST(' ~ c ~ ' AS STRING)') -%}{%- endfor -%}
  {%- set all_columns = [] -%}
  {%- for column in adapter.get_columns_in_relation(model) -%}{%- do all_columns.append(dbt_inc_join._quote(column.name)) -%}{%- endfor -%}
  {%- set not_null = [] -%}{%- for c in identity -%}{%- do not_null.append(c ~ ' IS NOT NULL') -%}{%- endfor -%}
  {%- set timed_out_code = dbt_inc_join._join_type('a_timed_out').code %}
with a_rows as (
    select {{ identity | join(', ') }},
           sum(case when JoinType = {{ timed_out_code }} then 1 else 0 end) as timed_out,
           sum(case when JoinType in ({{ dbt_inc_join._matched_codes() | join(', ') }}) then 1 else 0 end) as matched
    from {{ model }}
    where {{ not_null | join(' AND ') }}
    group by {{ identity | join(', ') }}
)
select 'timed out and matched' as problem, concat_ws(', ', {{ described | join(', ') }}) as a_row,
       timed_out + matched as occurrences
from a_rows where timed_out > 0 and matched > 0
union all
select 'timed out more than once', concat_ws(', ', {{ described | join(', ') }}), timed_out
from a_rows where timed_out > 1
{%- if all_columns %}
union all
select 'duplicated output row', concat_ws(', ', {{ described | join(', ') }}), occurrences
from (select {{ all_columns | join(', ') }}, count(*) as occurrences from {{ model }}
      group by {{ all_columns | join(', ') }} having count(*) > 1)
{%- endif %}
{% endmacro %}
