{#- Classifying the joined rows and selecting the output (render.py: in_window_sql, classification_sql,
    scenario_value, aggregate_value, placed_columns): each row's JoinType from the scenarios, kept when it is
    placed in the output window. -#}

{% macro _in_window_sql(arrival, start, end, time_uom) %}
  {#- The arrival lies in the output window [start, end] (no lower test without a start). -#}
  {%- set unit_type = dbt_inc_join._unit_type(time_uom) -%}
  {%- set test = arrival ~ ' <= ' ~ dbt_inc_join._sql_literal(end, unit_type) -%}
  {%- if start is not none -%}
    {%- set test = test ~ ' AND ' ~ arrival ~ ' >= ' ~ dbt_inc_join._sql_literal(start, unit_type) -%}
  {%- endif -%}
  {{ return('(' ~ test ~ ')') }}
{% endmacro %}

{% macro _classification_sql(scenarios, start, end, time_uom) %}
  {#- The JoinType code of a joined row: the scenario whose rows it is, when placed inside the window. -#}
  {%- set branches = [] -%}
  {%- for scenario in scenarios -%}
    {%- do branches.append('\n             WHEN (' ~ scenario.where ~ ') AND ' ~ dbt_inc_join._in_window_sql(scenario.arrival, start, end, time_uom) ~ ' THEN ' ~ scenario.code ~ '  -- ' ~ scenario.name) -%}
  {%- endfor -%}
  {{ return('CASE' ~ branches | join('') ~ '\n           END') }}
{% endmacro %}

{% macro _scenario_value(column, scenario, plan, inputs, time_uom) %}
  {#- The value of one selected column in a row of this scenario. -#}
  {%- set side = 0 if column.source == 'a' else 1 -%}
  {%- if column.source == 'key' -%}
    {{ return('coalesce(_ak' ~ column.index ~ ', _bk' ~ column.index ~ ')') }}
  {%- elif column.source == 'arrival' -%}
    {{ return(scenario.arrival) }}
  {%- elif column.source in ['a', 'b'] and column.input_name == inputs.inc_col[side] and dbt_inc_join._arrival_is_truncated(inputs.raw_types[side], time_uom) -%}
    {{ return('_' ~ column.source ~ '_arrival') }}
  {%- elif column.source in ['a', 'b'] -%}
    {{ return('_' ~ column.source ~ column.index) }}
  {%- elif column.source == 'aggregate' -%}
    {{ return(dbt_inc_join._aggregate_value(column.index, scenario, plan.aggregate_fills)) }}
  {%- elif column.name == 'DiffArrivalTime' -%}
    {{ return('CAST(' ~ (scenario.diff or 'NULL') ~ ' AS INT)') }}
  {%- elif column.name == 'WaitingTime' -%}
    {{ return('CAST(' ~ (scenario.waiting or 'NULL') ~ ' AS INT)') }}
  {%- elif column.name == 'JoinType' -%}
    {{ return('CAST(' ~ scenario.code ~ ' AS INT)') }}
  {%- endif -%}
  {{ return("CAST('" ~ scenario.name ~ "' AS STRING)") }}
{% endmacro %}

{% macro _aggregate_value(index, scenario, fills) %}
  {#- An aggregate column (spec §11): over the partners (code 8); the fill for an A row without any (code 4); and
      for a waiting A row (code 5) over its partners so far, the fill while it has none. -#}
  {%- if scenario.code == dbt_inc_join._join_type('a_aggregated').code -%}
    {{ return('_g' ~ index) }}
  {%- elif scenario.code == dbt_inc_join._join_type('a_timed_out').code -%}
    {{ return(fills[index]) }}
  {%- endif -%}
  {{ return('CASE WHEN _b_arrival IS NULL THEN ' ~ fills[index] ~ ' ELSE _g' ~ index ~ ' END') }}
{% endmacro %}

{% macro _placed_columns(scenarios, plan, inputs, time_uom) %}
  {#- Each selected column: the scenarios' values, one CASE branch per distinct value (none when all agree). -#}
  {%- set columns = [] -%}
  {%- for column in plan.selected -%}
    {%- set values = [] -%}
    {%- set codes = {} -%}
    {%- for scenario in scenarios -%}
      {%- set value = dbt_inc_join._scenario_value(column, scenario, plan, inputs, time_uom) -%}
      {%- if value not in values -%}
        {%- do values.append(value) -%}
        {%- do codes.update({value: []}) -%}
      {%- endif -%}
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
