{#- The SQL of one run: slice both inputs, join them once, then one SELECT per scenario, UNION ALL. -#}

{% macro _render_join(a, b, params, inputs, plan, window) %}
  {%- set unit = params.time_uom -%}
  {%- set unit_type = inc_join._unit_type(unit) -%}
  {%- set end = window.end -%}
  {%- set start = window.start -%}
  {%- if window.empty -%}
    {#- Same columns and types, no rows: a false filter that Spark folds into an empty relation. -#}
    {%- set end = end or start or modules.datetime.date(1970, 1, 1) -%}
    {%- set start = none -%}
  {%- endif -%}
  {%- set ctx = {'time_uom': unit, 'lb': params.look_back_time, 'mw': params.max_waiting_time,
                 'start_sql': none if start is none else inc_join._sql_literal(start, unit_type),
                 'end_sql': inc_join._sql_literal(end, unit_type)} -%}

  {#- SPEC §4: what this run may read of each input -#}
  {%- set a_reach = params.max_waiting_time + (params.look_back_time if params.how == 'full' else 0) -%}
  {%- set b_reach = params.max_waiting_time + params.look_back_time -%}
  {%- set slices = [] -%}
  {%- for index, side, reach, columns in [(0, 'a', a_reach, plan.a_columns), (1, 'b', b_reach, plan.b_columns)] -%}
    {%- set lower = none if start is none else inc_join._shift(start, -reach, unit) -%}
    {%- set predicate = 'false' if window.empty else inc_join._arrival_range_sql(inputs.inc_col[index], inputs.raw_types[index], lower, end, unit) -%}
    {%- set projection = [] -%}
    {%- for pair in inputs['keys'] -%}
      {%- do projection.append(inc_join._quote(pair[index]) ~ ' AS _' ~ side ~ 'k' ~ loop.index0) -%}
    {%- endfor -%}
    {%- for column in columns -%}
      {%- do projection.append(inc_join._quote(column.input_name) ~ ' AS _' ~ side ~ loop.index0) -%}
    {%- endfor -%}
    {%- do projection.append(inc_join._truncate_sql(inc_join._quote(inputs.inc_col[index]), unit) ~ ' AS _' ~ side ~ '_arrival') -%}
    {%- do projection.append('true AS _' ~ side ~ '_present') -%}
    {%- do slices.append({'sql': projection | join(', '), 'source': (a if side == 'a' else b) | string,
                          'predicate': predicate, 'lower': lower}) -%}
  {%- endfor -%}

  {#- partners: equal keys (NULL never matches) and b inside A's sliding window -#}
  {%- set partner = [] -%}
  {%- for pair in inputs['keys'] -%}{%- do partner.append('_ak' ~ loop.index0 ~ ' = _bk' ~ loop.index0) -%}{%- endfor -%}
  {%- if params.enforce_sliding_join_window -%}
    {%- do partner.append('_b_arrival >= ' ~ inc_join._add_units_sql('_a_arrival', -params.look_back_time, unit)) -%}
    {%- do partner.append('_b_arrival <= ' ~ inc_join._add_units_sql('_a_arrival', params.max_waiting_time, unit)) -%}
  {%- elif start is not none -%}
    {#- compatibility mode: partners bounded only by the slices this run reads -#}
    {%- do partner.append('(_b_arrival >= _a_arrival OR _b_arrival >= ' ~ inc_join._sql_literal(inc_join._shift(start, -params.look_back_time, unit), unit_type) ~ ')') -%}
  {%- endif -%}
  {%- set join_kind = {'inner': 'INNER', 'left': 'LEFT OUTER', 'left_anti': 'LEFT OUTER', 'full': 'FULL OUTER'}[params.how] -%}

  {%- set scenarios = [] -%}
  {%- if params.how != 'left_anti' -%}
    {%- do scenarios.extend([inc_join._scenario_same_time(ctx), inc_join._scenario_a_late(ctx), inc_join._scenario_b_late(ctx)]) -%}
  {%- endif -%}
  {%- if params.how != 'inner' -%}
    {%- do scenarios.append(inc_join._scenario_a_timed_out(ctx)) -%}
    {%- if params.include_waiting -%}{%- do scenarios.append(inc_join._scenario_a_waiting(ctx)) -%}{%- endif -%}
  {%- endif -%}
  {%- if params.how == 'full' -%}
    {%- do scenarios.append(inc_join._scenario_b_timed_out(ctx)) -%}
  {%- endif -%}
with _inc_join_a as (
    select {{ slices[0].sql }}
    from {{ slices[0].source }}
    where {{ slices[0].predicate }}
),
_inc_join_b as (
    select {{ slices[1].sql }}
    from {{ slices[1].source }}
    where {{ slices[1].predicate }}
),
_inc_join_pairs as (
    select *
    from _inc_join_a
    {{ join_kind }} JOIN _inc_join_b
      on {{ partner | join('\n     and ') }}
)
{% for scenario in scenarios %}
{%- if not loop.first %}
union all
{% endif -%}
-- {{ scenario.code }} {{ scenario.name }}
select {{ inc_join._scenario_columns(scenario, plan, params, ctx) | join(',\n       ') }}
from _inc_join_pairs
where {{ scenario.where }}
{% endfor -%}
{% endmacro %}

{% macro _scenario_columns(scenario, plan, params, ctx) %}
  {%- set unit = params.time_uom -%}
  {%- set columns = [] -%}
  {%- for column in plan.selected -%}
    {%- set name = inc_join._quote(column.name) -%}
    {%- if column.source == 'key' -%}
      {%- set value = 'coalesce(_ak' ~ column.index ~ ', _bk' ~ column.index ~ ')' -%}
    {%- elif column.source == 'arrival' -%}
      {%- set value = scenario.arrival -%}
    {%- elif column.source in ['a', 'b'] -%}
      {%- set value = '_' ~ column.source ~ column.index -%}
    {%- elif column.name == 'DiffArrivalTime' -%}
      {%- set value = 'CAST(' ~ (inc_join._diff_units_sql('_b_arrival', '_a_arrival', unit) if scenario.code <= 3 else 'NULL') ~ ' AS INT)' -%}
    {%- elif column.name == 'WaitingTime' -%}
      {%- set waited = {4: params.max_waiting_time, 5: inc_join._diff_units_sql(ctx.end_sql, '_a_arrival', unit), 6: params.look_back_time} -%}
      {%- set value = 'CAST(' ~ waited.get(scenario.code, 'NULL') ~ ' AS INT)' -%}
    {%- elif column.name == 'JoinType' -%}
      {%- set value = 'CAST(' ~ scenario.code ~ ' AS INT)' -%}
    {%- else -%}
      {%- set value = "CAST('" ~ scenario.name ~ "' AS STRING)" -%}
    {%- endif -%}
    {%- do columns.append(value ~ ' AS ' ~ name) -%}
  {%- endfor -%}
  {{ return(columns) }}
{% endmacro %}
