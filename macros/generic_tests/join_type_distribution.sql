{#- Per period (day or hour) of the last last_n periods, each bounded JoinType's share must lie in its
    [min, max]. bounds: {a_timed_out: {max: 0.05}, same_time: {min: 0.5}, ...} (names or codes). Failing rows
    name the period, the type and the share. -#}
{% test join_type_distribution(model, bounds, period='day', last_n=none, min_rows=1, inc_col=none,
                                join_type_column='JoinType') %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col) -%}
  {%- do dbt_inc_join._require_model_columns(model, [['inc_col', inc_col], dbt_inc_join._join_type_requirement(join_type_column)]) -%}
  {{ return(adapter.dispatch('test_join_type_distribution', 'dbt_inc_join')(model, bounds, period, last_n, min_rows,
                                                                         inc_col, join_type_column)) }}
{% endtest %}

{% macro default__test_join_type_distribution(model, bounds, period, last_n, min_rows, inc_col,
                                              join_type_column='JoinType') %}
  {%- if bounds is not mapping or bounds | length == 0 -%}
    {{ dbt_inc_join._fail("bounds must map JoinTypes to {min: share, max: share}, e.g. {a_timed_out: {max: 0.05}} (got " ~ dbt_inc_join._repr(bounds) ~ ').') }}
  {%- endif -%}
  {%- set rows = [] -%}
  {%- for join_type, limits in bounds.items() -%}
    {%- set code = dbt_inc_join._join_type_code(join_type, 'bounds') -%}
    {%- if limits is not mapping or not (limits.keys() | list) or (limits.keys() | reject('in', ['min', 'max']) | list) -%}
      {{ dbt_inc_join._fail('bounds of ' ~ join_type ~ " must be {min: share}, {max: share} or both (got " ~ dbt_inc_join._repr(limits) ~ ').') }}
    {%- endif -%}
    {%- do rows.append([code, dbt_inc_join._share_bound('bounds ' ~ join_type ~ ' min', limits.get('min')),
                        dbt_inc_join._share_bound('bounds ' ~ join_type ~ ' max', limits.get('max'))]) -%}
  {%- endfor -%}
  {%- set last_n = dbt_inc_join._positive_count('last_n', last_n) -%}
  {%- set min_rows = dbt_inc_join._positive_count('min_rows', min_rows, allow_none=false) -%}
  {%- set period_sql = dbt_inc_join._period_sql(dbt_inc_join._quote(inc_col), period) %}
with rows_in_periods as (
    select {{ period_sql }} as period, {{ dbt_inc_join._quote(join_type_column) }} as JoinType from {{ model }}
    where {{ dbt_inc_join._recent_sql(period_sql, model, last_n, period | lower) }}
),
periods as (select period, count(*) as total_rows from rows_in_periods group by period),
counts as (select period, JoinType, count(*) as join_type_rows from rows_in_periods group by period, JoinType),
bounds as ({{ dbt_inc_join._bounds_values(rows) }}),
shares as (
    select p.period, b.join_type, b.join_type_name, coalesce(c.join_type_rows, 0) as join_type_rows, p.total_rows,
           coalesce(c.join_type_rows, 0) / p.total_rows as share, b.min_share, b.max_share
    from periods p
    cross join bounds b
    left join counts c on c.period = p.period and c.JoinType = b.join_type
    where p.total_rows >= {{ min_rows }}
)
select * from shares
where (max_share is not null and share > max_share) or (min_share is not null and share < min_share)
{% endmacro %}
