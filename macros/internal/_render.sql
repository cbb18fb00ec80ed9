{#- The SQL of one run: slice both inputs, join them once, classify every joined row by the scenarios'
    WHERE clauses (one CASE branch per scenario), keep the rows placed in the window.

    One SELECT, not one per scenario combined with UNION ALL: Spark inlines the joined CTE into every branch of a
    UNION ALL and pushes each branch's filter below the join, so each branch re-scanned both inputs and joined
    them again (4-5 scans per input, 2-3x the time of one join; see bench/). -#}

{% macro _render_join(a, b, params, inputs, plan, window) %}
  {%- set unit = params.time_uom -%}
  {%- set unit_type = dbt_inc_join._unit_type(unit) -%}
  {%- set end = window.end -%}
  {%- set start = window.start -%}
  {%- if window.empty -%}
    {#- Same columns and types, no rows: a false filter that Spark folds into an empty relation. -#}
    {%- set end = end or start or modules.datetime.date(1970, 1, 1) -%}
    {%- set start = none -%}
  {%- endif -%}
  {%- set ctx = {'time_uom': unit, 'lb': params.look_back_time, 'mw': params.max_waiting_time,
                 'start_sql': none if start is none else dbt_inc_join._sql_literal(start, unit_type),
                 'end_sql': dbt_inc_join._sql_literal(end, unit_type)} -%}

  {#- SPEC §4: what this run may read of each input -#}
  {%- set a_reach = params.max_waiting_time + (params.look_back_time if params.how == 'full' else 0) -%}
  {%- set b_reach = params.max_waiting_time + params.look_back_time -%}
  {%- set slices = [] -%}
  {%- set same_arrival = [unit == 'day' and inputs.raw_types[0] == 'date', unit == 'day' and inputs.raw_types[1] == 'date'] -%}
  {%- for index, side, reach, columns in [(0, 'a', a_reach, plan.a_columns), (1, 'b', b_reach, plan.b_columns)] -%}
    {%- set lower = none if start is none else dbt_inc_join._shift(start, -reach, unit) -%}
    {%- set predicate = 'false' if window.empty else dbt_inc_join._arrival_range_sql(inputs.inc_col[index], inputs.raw_types[index], lower, end, unit) -%}
    {#- Only what the output needs goes through the join. A side is present in a joined row exactly when its
        arrival is not NULL (the slice drops NULL arrivals), so no presence flag is carried; a DATE arrival in
        days is its own truncation, so the raw column is not carried twice. -#}
    {%- set projection = [] -%}
    {%- for pair in inputs['keys'] -%}
      {%- do projection.append(dbt_inc_join._quote(pair[index]) ~ ' AS _' ~ side ~ 'k' ~ loop.index0) -%}
    {%- endfor -%}
    {%- for column in columns -%}
      {%- if not (same_arrival[index] and column.input_name == inputs.inc_col[index]) -%}
        {%- do projection.append(dbt_inc_join._quote(column.input_name) ~ ' AS _' ~ side ~ loop.index0) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- do projection.append(dbt_inc_join._truncate_sql(dbt_inc_join._quote(inputs.inc_col[index]), unit) ~ ' AS _' ~ side ~ '_arrival') -%}
    {%- do slices.append({'sql': projection | join(', '), 'source': (a if side == 'a' else b) | string,
                          'predicate': predicate, 'lower': lower}) -%}
  {%- endfor -%}

  {#- partners: equal keys (NULL never matches) and b inside A's sliding window -#}
  {%- set partner = [] -%}
  {%- for pair in inputs['keys'] -%}{%- do partner.append('_ak' ~ loop.index0 ~ ' = _bk' ~ loop.index0) -%}{%- endfor -%}
  {%- if params.enforce_sliding_join_window -%}
    {%- do partner.append('_b_arrival >= ' ~ dbt_inc_join._add_units_sql('_a_arrival', -params.look_back_time, unit)) -%}
    {%- do partner.append('_b_arrival <= ' ~ dbt_inc_join._add_units_sql('_a_arrival', params.max_waiting_time, unit)) -%}
  {%- elif start is not none -%}
    {#- compatibility mode (inc-join 0.1.3, enforce_sliding_join_window=False): every pair with equal keys among
        the rows that library reads: A from start - max_waiting_time, B from start - look_back_time - max_waiting_time -#}
    {%- do partner.append('_a_arrival >= ' ~ dbt_inc_join._sql_literal(dbt_inc_join._shift(start, -params.max_waiting_time, unit), unit_type)) -%}
    {%- do partner.append('_b_arrival >= ' ~ dbt_inc_join._sql_literal(dbt_inc_join._shift(start, -(params.max_waiting_time + params.look_back_time), unit), unit_type)) -%}
  {%- endif -%}
  {%- set join_kind = {'inner': 'INNER', 'left': 'LEFT OUTER', 'left_anti': 'LEFT OUTER', 'full': 'FULL OUTER'}[params.how] -%}

  {%- set scenarios = [] -%}
  {%- if params.how != 'left_anti' -%}
    {%- do scenarios.extend([dbt_inc_join._scenario_same_time(ctx), dbt_inc_join._scenario_a_late(ctx), dbt_inc_join._scenario_b_late(ctx)]) -%}
  {%- endif -%}
  {%- if params.how != 'inner' -%}
    {%- do scenarios.append(dbt_inc_join._scenario_a_timed_out(ctx)) -%}
    {%- if params.include_waiting -%}{%- do scenarios.append(dbt_inc_join._scenario_a_waiting(ctx)) -%}{%- endif -%}
  {%- endif -%}
  {%- if params.how == 'full' -%}
    {%- do scenarios.append(dbt_inc_join._scenario_b_timed_out(ctx)) -%}
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
),
_inc_join_placed as (
    select *,
           case
             {%- for scenario in scenarios %}
             when {{ scenario.where }} then {{ scenario.code }}  -- {{ scenario.name }}
             {%- endfor %}
           end as _join_type
    from _inc_join_pairs
)
select {{ dbt_inc_join._placed_columns(scenarios, plan, params, ctx, inputs, same_arrival) | join(',\n       ') }}
from _inc_join_placed
where _join_type is not null
{% endmacro %}

{% macro _placed_columns(scenarios, plan, params, ctx, inputs, same_arrival) %}
  {#- Each output column: the scenarios' values, one CASE branch per distinct value (none when all agree). -#}
  {%- set per_scenario = [] -%}
  {%- for scenario in scenarios -%}
    {%- do per_scenario.append(dbt_inc_join._scenario_columns(scenario, plan, params, ctx, inputs, same_arrival)) -%}
  {%- endfor -%}
  {%- set columns = [] -%}
  {%- for column in plan.selected -%}
    {%- set column_index = loop.index0 -%}
    {%- set values = [] -%}
    {%- set codes = {} -%}
    {%- for scenario in scenarios -%}
      {%- set value = per_scenario[loop.index0][column_index] -%}
      {%- if value not in values -%}{%- do values.append(value) -%}{%- do codes.update({value: []}) -%}{%- endif -%}
      {%- do codes[value].append(scenario.code | string) -%}
    {%- endfor -%}
    {%- if column.source == 'derived' and column.name == 'JoinType' -%}
      {%- set expression = '_join_type' -%}
    {%- elif values | length == 1 -%}
      {%- set expression = values[0] -%}
    {%- else -%}
      {%- set branches = [] -%}
      {%- for value in values -%}
        {%- set test = ('= ' ~ codes[value][0]) if codes[value] | length == 1 else ('IN (' ~ codes[value] | join(', ') ~ ')') -%}
        {%- do branches.append('WHEN _join_type ' ~ test ~ ' THEN ' ~ value) -%}
      {%- endfor -%}
      {%- set expression = 'CASE ' ~ branches | join(' ') ~ ' END' -%}
    {%- endif -%}
    {%- do columns.append(expression ~ ' AS ' ~ dbt_inc_join._quote(column.name)) -%}
  {%- endfor -%}
  {{ return(columns) }}
{% endmacro %}

{% macro _scenario_columns(scenario, plan, params, ctx, inputs, same_arrival) %}
  {#- The value of every selected column in a row of this scenario. -#}
  {%- set unit = params.time_uom -%}
  {%- set columns = [] -%}
  {%- for column in plan.selected -%}
    {%- set side_index = 0 if column.source == 'a' else 1 -%}
    {%- if column.source == 'key' -%}
      {%- set value = 'coalesce(_ak' ~ column.index ~ ', _bk' ~ column.index ~ ')' -%}
    {%- elif column.source == 'arrival' -%}
      {%- set value = scenario.arrival -%}
    {%- elif column.source in ['a', 'b'] and same_arrival[side_index] and column.input_name == inputs.inc_col[side_index] -%}
      {%- set value = '_' ~ column.source ~ '_arrival' -%}
    {%- elif column.source in ['a', 'b'] -%}
      {%- set value = '_' ~ column.source ~ column.index -%}
    {%- elif column.name == 'DiffArrivalTime' -%}
      {%- set value = 'CAST(' ~ (dbt_inc_join._diff_units_sql('_b_arrival', '_a_arrival', unit) if scenario.code <= 3 else 'NULL') ~ ' AS INT)' -%}
    {%- elif column.name == 'WaitingTime' -%}
      {%- set waited = {4: params.max_waiting_time, 5: dbt_inc_join._diff_units_sql(ctx.end_sql, '_a_arrival', unit), 6: params.look_back_time} -%}
      {%- set value = 'CAST(' ~ waited.get(scenario.code, 'NULL') ~ ' AS INT)' -%}
    {%- elif column.name == 'JoinType' -%}
      {%- set value = 'CAST(' ~ scenario.code ~ ' AS INT)' -%}
    {%- else -%}
      {%- set value = "CAST('" ~ scenario.name ~ "' AS STRING)" -%}
    {%- endif -%}
    {%- do columns.append(value) -%}
  {%- endfor -%}
  {{ return(columns) }}
{% endmacro %}
