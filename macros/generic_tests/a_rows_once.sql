{#- No A row (its join keys and raw A arrival) is both timed out and matched, or timed out twice; no output
    row is duplicated. A timed-out A row may have late matches (late_match_time, spec §10), a matched one not. With one_row_per_a (partner first/last, aggregate: spec §11) no A row has more than one
    final row; a_id_cols adds the A columns that tell apart A rows with the same keys and arrival. A rows with a
    NULL key or arrival cannot be identified and are not checked. On an inc_join_many model (one row per A row by
    construction) join_type_column names one input's JoinType_<name>: the same checks over that column. -#}
{% test a_rows_once(model, join_cols, inc_col=none, a_arrival_col=none, one_row_per_a=false, a_id_cols=none,
                    join_type_column='JoinType') %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col) -%}
  {%- set required = [] -%}
  {%- for key in dbt_inc_join._name_list('join_cols', join_cols) -%}{%- do required.append(['join_cols', key]) -%}{%- endfor -%}
  {%- do required.append(['a_arrival_col', a_arrival_col or (inc_col ~ '_A')]) -%}
  {%- set one_row_per_a = dbt_inc_join._flag('one_row_per_a', one_row_per_a) -%}
  {%- set id_cols = [] if a_id_cols is none else dbt_inc_join._name_list('a_id_cols', a_id_cols) -%}
  {%- for column in id_cols -%}{%- do required.append(['a_id_cols', column]) -%}{%- endfor -%}
  {%- do required.append(dbt_inc_join._join_type_requirement(join_type_column)) -%}
  {%- do dbt_inc_join._require_model_columns(model, required) -%}
  {{ return(adapter.dispatch('test_a_rows_once', 'dbt_inc_join')(model, join_cols, inc_col, a_arrival_col, one_row_per_a, id_cols,
                                                              join_type_column)) }}
{% endtest %}

{% macro default__test_a_rows_once(model, join_cols, inc_col, a_arrival_col, one_row_per_a=false, a_id_cols=[],
                                   join_type_column='JoinType') %}
  {%- set keys = dbt_inc_join._name_list('join_cols', join_cols) -%}
  {%- set a_arrival = a_arrival_col or (inc_col ~ '_A') -%}
  {%- set identity = [] -%}{%- for k in keys + [a_arrival] + a_id_cols -%}{%- do identity.append(dbt_inc_join._quote(k)) -%}{%- endfor -%}
  {%- set described = [] -%}{%- for c in identity -%}{%- do described.append('CAST(' ~ c ~ ' AS STRING)') -%}{%- endfor -%}
  {%- set all_columns = [] -%}
  {%- for column in adapter.get_columns_in_relation(model) -%}{%- do all_columns.append(dbt_inc_join._quote(column.name)) -%}{%- endfor -%}
  {%- set not_null = [] -%}{%- for c in identity -%}{%- do not_null.append(c ~ ' IS NOT NULL') -%}{%- endfor -%}
  {%- set timed_out_code = dbt_inc_join._join_type('a_timed_out').code -%}
  {%- set late_code = dbt_inc_join._join_type('late_match').code -%}
  {%- set in_window_codes = dbt_inc_join._matched_codes() | reject('equalto', late_code) | list -%}
  {%- set join_type = dbt_inc_join._quote(join_type_column) %}
with a_rows as (
    select {{ identity | join(', ') }},
           sum(case when {{ join_type }} = {{ timed_out_code }} then 1 else 0 end) as timed_out,
           sum(case when {{ join_type }} in ({{ in_window_codes | join(', ') }}) then 1 else 0 end) as matched,
           sum(case when {{ join_type }} = {{ late_code }} then 1 else 0 end) as late
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
union all
select 'late match of a matched A row', concat_ws(', ', {{ described | join(', ') }}), matched + late
from a_rows where matched > 0 and late > 0
{%- if one_row_per_a %}
union all
select 'more than one row for one A row', concat_ws(', ', {{ described | join(', ') }}), timed_out + matched
from a_rows where timed_out + matched > 1
{%- endif %}
{%- if all_columns %}
union all
select 'duplicated output row', concat_ws(', ', {{ described | join(', ') }}), occurrences
from (select {{ all_columns | join(', ') }}, count(*) as occurrences from {{ model }}
      group by {{ all_columns | join(', ') }} having count(*) > 1)
{%- endif %}
{% endmacro %}
