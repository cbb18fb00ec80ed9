{#- spec §10: of the a_timed_out rows placed in the last last_n periods, the share whose key has a B row just outside
    the A row's window (arrived too late, after a + max_waiting_time, or too early, before a - look_back_time).
    Fails above max_share. A rising a_timed_out share then says whether partners come outside the window
    (widen it, or set late_match_time) or never come at all.
    Cheap: it reads only the B rows of the timed-out keys, within search_units of their windows, between literal
    bounds found first from the timed-out rows, so Spark prunes B's partitions. B rows late matched
    (late_match_time, code 7) are accounted for, not missed. On an inc_join_many model, once per input: its
    join_type_column (JoinType_<name>), its relation as b and its windows. -#}
{% test missed_partners(model, b, join_cols, look_back_time, max_waiting_time, late_match_time=0, max_share=0,
                        last_n=7, period='day', search_units=none, b_join_cols=none, inc_col=none,
                        a_arrival_col=none, b_inc_col=none, time_uom='day', min_rows=1,
                        join_type_column='JoinType') %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col) -%}
  {%- set keys = dbt_inc_join._name_list('join_cols', join_cols) -%}
  {%- set required = [] -%}
  {%- for key in keys -%}{%- do required.append(['join_cols', key]) -%}{%- endfor -%}
  {%- do required.append(['inc_col', inc_col]) -%}
  {%- do required.append(['a_arrival_col', a_arrival_col or (inc_col ~ '_A')]) -%}
  {%- do required.append(dbt_inc_join._join_type_requirement(join_type_column)) -%}
  {%- do dbt_inc_join._require_model_columns(model, required, [inc_col, time_uom]) -%}
  {#- B's keys and arrival column, checked before the read range is queried -#}
  {%- set b_required = [] -%}
  {%- set b_keys = keys if b_join_cols is none else dbt_inc_join._name_list('b_join_cols', b_join_cols) -%}
  {%- for key in b_keys -%}{%- do b_required.append(['join_cols' if b_join_cols is none else 'b_join_cols', key]) -%}{%- endfor -%}
  {%- do b_required.append(['b_inc_col', b_inc_col or inc_col]) -%}
  {%- do dbt_inc_join._require_input_columns(b, 'b', b_required) -%}
  {{ return(adapter.dispatch('test_missed_partners', 'dbt_inc_join')(model, b, join_cols, look_back_time,
      max_waiting_time, late_match_time, max_share, last_n, period, search_units, b_join_cols, inc_col, a_arrival_col,
      b_inc_col, time_uom, min_rows, join_type_column)) }}
{% endtest %}

{% macro default__test_missed_partners(model, b, join_cols, look_back_time, max_waiting_time, late_match_time,
                                       max_share, last_n, period, search_units, b_join_cols, inc_col, a_arrival_col,
                                       b_inc_col, time_uom, min_rows, join_type_column='JoinType') %}
  {#- The arguments checked (_missed_partners_arguments), B's read range found (_missed_partners_b_range), then
      one query template (over 60 lines on purpose: read top to bottom like the statement it renders): the
      timed-out rows, the B rows near them, per row the nearest too late and too early, per period the share. -#}
  {%- set args = dbt_inc_join._missed_partners_arguments(join_cols, b_join_cols, look_back_time, max_waiting_time,
                                                          late_match_time, search_units, max_share, last_n, min_rows,
                                                          time_uom) -%}
  {%- set keys, b_keys, unit = args['keys'], args.b_keys, args.unit -%}
  {%- set lb, mw, late, search = args.lb, args.mw, args.late, args.search -%}
  {%- set b_inc_col = b_inc_col or inc_col -%}
  {%- set b_type = dbt_inc_join._missed_partners_b_type(b, b_inc_col) -%}
  {%- set a_at = dbt_inc_join._truncate_sql(dbt_inc_join._quote(a_arrival_col or (inc_col ~ '_A')), unit) -%}
  {%- set placed = dbt_inc_join._period_sql(dbt_inc_join._quote(inc_col), period) -%}
  {%- set timed_out_code = dbt_inc_join._join_type('a_timed_out').code -%}
  {%- set key_tests = [] -%}
  {%- for key in keys -%}{%- do key_tests.append(dbt_inc_join._quote(key) ~ ' IS NOT NULL') -%}{%- endfor -%}
  {%- set timed_out_where = dbt_inc_join._quote(join_type_column) ~ ' = ' ~ timed_out_code ~ ' AND ' ~ a_at ~ ' IS NOT NULL AND ' ~ key_tests | join(' AND ')
                            ~ ' AND ' ~ dbt_inc_join._recent_sql(placed, model, args.last_n, period) -%}
  {%- set lower, upper = dbt_inc_join._missed_partners_b_range(model, a_at, timed_out_where, lb, mw, search, unit) -%}
  {%- set projected = [] -%}
  {%- set b_projected = [] -%}
  {%- set same_keys = [] -%}
  {%- for key in keys -%}
    {%- do projected.append(dbt_inc_join._quote(key) ~ ' AS _k' ~ loop.index0) -%}
    {%- do b_projected.append(dbt_inc_join._quote(b_keys[loop.index0]) ~ ' AS _k' ~ loop.index0) -%}
    {%- do same_keys.append('t._k' ~ loop.index0 ~ ' = n._k' ~ loop.index0) -%}
  {%- endfor -%}
  {%- set key_names = [] -%}{%- for key in keys -%}{%- do key_names.append('_k' ~ loop.index0) -%}{%- endfor -%}
  {%- set b_at = dbt_inc_join._truncate_sql(dbt_inc_join._quote(b_inc_col), unit) -%}
  {%- set too_late = 'n._b > ' ~ dbt_inc_join._add_units_sql('t._a', mw + late, unit) -%}
  {%- set too_early = 'n._b < ' ~ dbt_inc_join._add_units_sql('t._a', -lb, unit) %}
with timed_out as (
    select {{ projected | join(', ') }}, {{ a_at }} as _a, {{ placed }} as _period,
           monotonically_increasing_id() as _row
    from {{ model }}
    where {{ timed_out_where }}
),
near as (
    select {{ b_projected | join(', ') }}, {{ b_at }} as _b
    from {{ b }}
    where {{ dbt_inc_join._arrival_range_sql(b_inc_col, b_type, lower, upper, unit) if lower is not none else 'false' }}
),
near_of_timed_out_keys as (
    select n.*
    from near n
    LEFT SEMI JOIN (select distinct {{ key_names | join(', ') }} from timed_out) t
      on {{ same_keys | join(' AND ') }}
),
per_row as (
    select t._row, t._period,
           min(case when {{ too_late }} then {{ dbt_inc_join._diff_units_sql('n._b', 't._a', unit) }} end) as late_by,
           min(case when {{ too_early }} then {{ dbt_inc_join._diff_units_sql('t._a', 'n._b', unit) }} end) as early_by
    from timed_out t
    LEFT JOIN near_of_timed_out_keys n
      on {{ same_keys | join(' AND ') }}
     and n._b >= {{ dbt_inc_join._add_units_sql('t._a', -(lb + search), unit) }}
     and n._b <= {{ dbt_inc_join._add_units_sql('t._a', mw + search, unit) }}
    group by t._row, t._period
),
per_period as (
    select _period,
           count(*) as timed_out_rows,
           count(late_by) as partner_too_late,
           count(early_by) as partner_too_early,
           count(case when late_by is not null or early_by is not null then 1 end) as missed,
           max(late_by) as latest,
           max(early_by) as earliest
    from per_row
    group by _period
)
select _period as period,
       timed_out_rows,
       partner_too_late,
       partner_too_early,
       missed / timed_out_rows as share,
       concat('look_back_time=', greatest({{ lb }}, coalesce(earliest, 0)),
              ', max_waiting_time=', greatest({{ mw }}, coalesce(latest, 0)),
              case when latest is not null then concat(' (or late_match_time=', latest - {{ mw }}, ')') else '' end)
         as catching_window
from per_period
where timed_out_rows >= {{ args.min_rows }}
  and missed / timed_out_rows > {{ args.max_share }}
{% endmacro %}
