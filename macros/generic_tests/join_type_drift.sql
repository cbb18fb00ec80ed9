{#- The latest period's share of each JoinType may differ from its median over the previous baseline_periods
    periods (those present in the table) by at most max_change. Failing rows name the type, the latest
    share, the baseline median and the change. -#}
{% test join_type_drift(model, max_change=0.1, baseline_periods=7, period='day', join_types=none, min_rows=1,
                        inc_col=none, join_type_column='JoinType') %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col) -%}
  {%- do dbt_inc_join._require_model_columns(model, [['inc_col', inc_col], dbt_inc_join._join_type_requirement(join_type_column)]) -%}
  {{ return(adapter.dispatch('test_join_type_drift', 'dbt_inc_join')(model, max_change, baseline_periods, period,
                                                                  join_types, min_rows, inc_col, join_type_column)) }}
{% endtest %}

{% macro default__test_join_type_drift(model, max_change, baseline_periods, period, join_types, min_rows, inc_col,
                                       join_type_column='JoinType') %}
  {%- set max_change = dbt_inc_join._share_bound('max_change', max_change) -%}
  {%- if max_change is none -%}{{ dbt_inc_join._fail('max_change must be a share between 0 and 1, e.g. 0.1.') }}{%- endif -%}
  {%- set baseline_periods = dbt_inc_join._positive_count('baseline_periods', baseline_periods, allow_none=false) -%}
  {%- set min_rows = dbt_inc_join._positive_count('min_rows', min_rows, allow_none=false) -%}
  {%- set codes = dbt_inc_join._join_type_codes(join_types if join_types is not none else dbt_inc_join._join_type_names().keys() | list, 'join_types') -%}
  {%- set typed = [] -%}{%- for code in codes -%}{%- do typed.append([code, none, none]) -%}{%- endfor -%}
  {%- set period_sql = dbt_inc_join._period_sql(dbt_inc_join._quote(inc_col), period) %}
with rows_in_periods as (select {{ period_sql }} as period, {{ dbt_inc_join._quote(join_type_column) }} as JoinType from {{ model }}),
periods as (
    select period, total_rows, row_number() over (order by period desc) as recency
    from (select period, count(*) as total_rows from rows_in_periods group by period)
    where total_rows >= {{ min_rows }}
),
counts as (select period, JoinType, count(*) as join_type_rows from rows_in_periods group by period, JoinType),
types as ({{ dbt_inc_join._bounds_values(typed) }}),
shares as (
    select p.period, p.recency, t.join_type, t.join_type_name, coalesce(c.join_type_rows, 0) / p.total_rows as share
    from periods p
    cross join types t
    left join counts c on c.period = p.period and c.JoinType = t.join_type
    where p.recency <= {{ baseline_periods + 1 }}
),
latest as (select join_type, join_type_name, period, share as latest_share from shares where recency = 1),
baseline as (
    select join_type, percentile(share, 0.5) as baseline_median, count(*) as baseline_count
    from shares where recency > 1 group by join_type
)
select l.period, l.join_type, l.join_type_name, l.latest_share, b.baseline_median, b.baseline_count,
       abs(l.latest_share - b.baseline_median) as change, {{ max_change }} as max_change
from latest l join baseline b on b.join_type = l.join_type
where abs(l.latest_share - b.baseline_median) > {{ max_change }}
{% endmacro %}
