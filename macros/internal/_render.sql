{#- The SQL of one run: slice both inputs, join them once, classify every joined row by the scenarios, keep
    the rows placed in the output window, select the output columns.

    Read side by side with src/dbt_inc_join/render.py (same steps, same names, same SQL text). One SELECT over
    one join, never a UNION ALL of one SELECT per scenario: Spark inlines the joined CTE into every branch of a
    UNION ALL and pushes each branch's filter below the join, so each branch re-scanned both inputs and joined
    them again (4-5 scans per input, 2-3x the time of one join; see docs/performance.md). -#}

{% macro _render_join(a, b, params, inputs, plan, window) %}
  {%- set unit = params.time_uom -%}
  {%- set start = window.start -%}
  {%- set end = window.end -%}
  {%- if window.empty -%}
    {#- Same columns and types, no rows: a false filter that Spark folds into an empty relation. The plan still
        needs some end literal; which one does not matter. -#}
    {%- set end = end or start or modules.datetime.date(1970, 1, 1) -%}
    {%- set start = none -%}
  {%- endif -%}
  {%- set ctx = dbt_inc_join._placement_context(params, end) -%}
  {%- set condition = inputs.get('condition') -%}
  {%- set condition_sql = none if condition is none else condition.sql -%}
  {%- set slices = dbt_inc_join._input_slices(a, b, params, inputs, plan, start, end, window.empty) -%}

  {%- set partner = dbt_inc_join._partner_condition_sql(params, start, inputs['keys'] | length, condition_sql) -%}
  {%- set join_kind = {'inner': 'INNER', 'left': 'LEFT OUTER', 'left_anti': 'LEFT OUTER', 'full': 'FULL OUTER'}[params.how] -%}
  {%- set scenarios = dbt_inc_join._scenarios(params, ctx) -%}
{#- with late matches A's slice gets its late copies first (_late_matches.sql), under the same name -#}
with {{ window.get('ctes', '') }}{{ '_inc_join_a_slice' if params.late_match_time else '_inc_join_a' }} as (
    select {{ slices[0].sql }}
    from {{ slices[0].source }}
    where {{ slices[0].predicate }}
),
_inc_join_b as (
    select {{ slices[1].sql }}
    from {{ slices[1].source }}
    where {{ slices[1].predicate }}
),
{%- if params.late_match_time %}
{{ dbt_inc_join._late_copies_ctes(params, inputs['keys'] | length, condition_sql) }}
{%- endif %}
{%- if params.groups_by_arrival and dbt_inc_join._pairs_by_bucket(params.mode, params.how) %}
{{ dbt_inc_join._bucketed_pairs_cte(params, inputs) }}
{%- elif params.groups_by_arrival %}
{{ dbt_inc_join._arrival_group_ctes(b, params, inputs, plan) }}
_inc_join_pairs as (
    select *
    from _inc_join_a
    {{ join_kind }} JOIN _inc_join_reduced
      on {{ dbt_inc_join._back_to_a_sql(inputs['keys'] | length, dbt_inc_join._condition_count(inputs)) }}
    {%- if dbt_inc_join._fills_from_empty(plan) %}
    CROSS JOIN _inc_join_empty
    {%- endif %}
),
{%- else %}
_inc_join_pairs as (
    select *
    from _inc_join_a
    {{ join_kind }} JOIN _inc_join_b
      on {{ partner }}
),
{%- endif %}
_inc_join_placed as (
    select *,
           {{ dbt_inc_join._classification_sql(scenarios, start, end, unit) }} as _join_type
    from _inc_join_pairs
)
select {{ dbt_inc_join._placed_columns(scenarios, plan, inputs, unit) | join(',\n       ') }}
from _inc_join_placed
where _join_type is not null
{% endmacro %}

{% macro _placement_context(params, end) %}
  {#- What placing a row may depend on besides the row (scenarios.py: PlacementContext). -#}
  {{ return({
      'time_uom': params.time_uom,
      'look_back_time': params.look_back_time,
      'max_waiting_time': params.max_waiting_time,
      'end_sql': dbt_inc_join._sql_literal(end, dbt_inc_join._unit_type(params.time_uom)),
      'mode': params.mode,
      'late_match': params.late_match_time > 0,
  }) }}
{% endmacro %}

{% macro _scenarios(params, ctx) %}
  {#- The scenarios of the JoinTypes this run emits, in code order (one macro each, scenarios/). -#}
  {%- set scenarios = [] -%}
  {%- for join_type in dbt_inc_join._emitted_join_types(params.how, params.include_waiting, params.mode, ctx.late_match) -%}
    {%- do scenarios.append(dbt_inc_join['_scenario_' ~ join_type.name](ctx)) -%}
  {%- endfor -%}
  {{ return(scenarios) }}
{% endmacro %}

{% macro _input_slices(a, b, params, inputs, plan, start, end, empty) %}
  {#- What this run reads of each input (docs/spec.md §4): [{'sql': projection, 'source', 'predicate'}] for A
      and B; an empty window reads nothing (a false filter). -#}
  {%- set unit = params.time_uom -%}
  {%- set ranges = dbt_inc_join._read_ranges(start, end, params.how, params.look_back_time, params.max_waiting_time, unit, params.late_match_time) -%}
  {%- set condition = inputs.get('condition') -%}
  {%- set slices = [] -%}
  {%- for side, relation, columns in [('a', a, plan.a_columns), ('b', b, plan.b_columns)] -%}
    {%- set index = loop.index0 -%}
    {%- set lower, upper = ranges[index] -%}
    {%- if empty -%}
      {%- set predicate = 'false' -%}
    {%- else -%}
      {%- set predicate = dbt_inc_join._arrival_range_sql(inputs.inc_col[index], inputs.raw_types[index], lower, upper, unit) -%}
    {%- endif -%}
    {%- set keys = inputs['keys'] | map(attribute=index) | list -%}
    {%- set projection = dbt_inc_join._side_projection(side, keys, columns, inputs.inc_col[index], inputs.raw_types[index], unit) -%}
    {%- if side == 'b' and params.groups_by_arrival -%}
      {%- set projection = dbt_inc_join._b_group_projection(params, inputs, plan) -%}
    {%- endif -%}
    {%- if condition is not none and not (side == 'b' and params.groups_by_arrival) -%}
      {#- (the arrival-group plan's B projection carries them already) -#}
      {%- set projection = projection + dbt_inc_join._condition_projection(side, condition[side ~ '_columns']) -%}
    {%- endif -%}
    {%- do slices.append({'sql': projection | join(', '), 'source': relation | string, 'predicate': predicate}) -%}
  {%- endfor -%}
  {{ return(slices) }}
{% endmacro %}

{% macro _condition_count(inputs) %}
  {#- How many A columns join_cond reads (0 without join_cond). -#}
  {%- set condition = inputs.get('condition') -%}
  {{ return(0 if condition is none else condition.a_columns | length) }}
{% endmacro %}

{% macro _condition_sql(inputs) %}
  {#- join_cond over the internal names, or none. -#}
  {%- set condition = inputs.get('condition') -%}
  {{ return(none if condition is none else condition.sql) }}
{% endmacro %}

{% macro _b_group_projection(params, inputs, plan) %}
  {#- B's slice for the arrival-group plan: the usual internal columns, partner_order_by's columns, join_cond's B
      columns and the bucket; with aggregate, B's own columns too, which the aggregates name. -#}
  {%- set keys = inputs['keys'] | map(attribute=1) | list -%}
  {%- set projection = dbt_inc_join._side_projection('b', keys, plan.b_columns, inputs.inc_col[1], inputs.raw_types[1], params.time_uom) -%}
  {%- set projection = projection + dbt_inc_join._order_projection(inputs.partner_order_by) -%}
  {%- if inputs.get('condition') is not none -%}
    {%- set projection = projection + dbt_inc_join._condition_projection('b', inputs.condition.b_columns) -%}
  {%- endif -%}
  {%- if params.aggregate -%}
    {%- set projection = dbt_inc_join._own_columns(inputs.b_names) + projection -%}
  {%- endif -%}
  {{ return(projection + [dbt_inc_join._b_bucket_sql(params.look_back_time, params.max_waiting_time, params.time_uom) ~ ' AS _b_bucket']) }}
{% endmacro %}

{% macro _tie_breakers(params, inputs, plan) %}
  {#- The selected B columns Spark can order, by internal name: the last resort of the partner order. -#}
  {%- set keys = inputs['keys'] | map(attribute=1) | list -%}
  {%- set names = dbt_inc_join._projected_names(dbt_inc_join._side_projection('b', keys, plan.b_columns, inputs.inc_col[1], inputs.raw_types[1], params.time_uom)) -%}
  {%- set breakers = [] -%}
  {%- for column in plan.b_columns -%}
    {%- if ('_b' ~ loop.index0) in names and column.input_name in inputs.orderable_b_names -%}
      {%- do breakers.append('_b' ~ loop.index0) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(breakers) }}
{% endmacro %}

{% macro _fills_from_empty(plan) %}
  {#- The aggregates without a null_fill: an A row without partner gets their value over no rows. -#}
  {%- set indexes = [] -%}
  {%- for fill in plan.aggregate_fills -%}
    {%- if fill == '_e' ~ loop.index0 -%}{%- do indexes.append(loop.index0) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(indexes) }}
{% endmacro %}

{% macro _bucketed_pairs_cte(params, inputs) %}
  {#- spec §11, Cost, every partner with how = inner: each A row in the buckets its window touches, one join
      with B on keys and bucket (render.py: bucketed_pairs). Ends with _inc_join_pairs and a comma. -#}
  {%- set unit = params.time_uom -%}
  {%- set lb = params.look_back_time -%}
  {%- set mw = params.max_waiting_time -%}
  {%- set key_count = inputs['keys'] | length %}
_inc_join_a_buckets as (
    select *, explode({{ dbt_inc_join._arrival_buckets_sql(lb, mw, unit) }}) AS _bucket
    from (
        select *, {{ dbt_inc_join._arrival_projection(key_count) | join(', ') }}
        from _inc_join_a
        where {{ dbt_inc_join._arrival_filter_sql(key_count) }}
    )
),
_inc_join_pairs as (
    select *
    from _inc_join_a_buckets
    INNER JOIN _inc_join_b
      on {{ dbt_inc_join._group_match_sql(key_count, lb, mw, unit, dbt_inc_join._condition_sql(inputs)) }}
),
{%- endmacro %}

{% macro _arrival_group_ctes(b, params, inputs, plan, prefix='_inc_join', a_cte='_inc_join_a', b_cte='_inc_join_b') %}
  {#- spec §11, Cost: B joined to the distinct (keys, arrival) of A's slice, reduced per mode (render.py:
      arrival_group_pairs, reduced_by_arrival). Ends with <prefix>_reduced (and <prefix>_empty), each followed
      by a comma; inc_join_many renders one set per input, each under a prefix of its own. Over 60 lines on
      purpose: one CTE chain, read top to bottom like the SQL it renders. -#}
  {%- set unit = params.time_uom -%}
  {%- set lb = params.look_back_time -%}
  {%- set mw = params.max_waiting_time -%}
  {%- set key_count = inputs['keys'] | length -%}
  {%- set group = [] -%}
  {%- for index in range(key_count) -%}{%- do group.append('_gk' ~ index) -%}{%- endfor -%}
  {%- do group.append('_g_arrival') -%}
  {#- join_cond's A columns join the group; the reduced rows name them _gc<i> for the join back -#}
  {%- set conditioned = [] -%}
  {%- for index in range(dbt_inc_join._condition_count(inputs)) -%}{%- do conditioned.append('_ac' ~ index) -%}{%- endfor -%}
  {%- set named = group + dbt_inc_join._condition_group_projection(conditioned | length) -%}
  {%- set not_null = [] -%}
  {%- for name in group -%}{%- do not_null.append(name ~ ' IS NOT NULL') -%}{%- endfor -%}
  {%- set group = group + conditioned -%}
  {%- set keys = inputs['keys'] | map(attribute=1) | list -%}
  {%- set b_names = dbt_inc_join._projected_names(dbt_inc_join._side_projection('b', keys, plan.b_columns, inputs.inc_col[1], inputs.raw_types[1], unit)) -%}
  {#- how = full: a B row of no arrival's window is kept (with NULL group columns): it is code 6. -#}
  {%- set match_kind = 'RIGHT OUTER' if params.how == 'full' else 'INNER' -%}
{{ prefix }}_arrivals as (
    select *, explode({{ dbt_inc_join._arrival_buckets_sql(lb, mw, unit) }}) AS _bucket
    from (
        select distinct {{ (dbt_inc_join._arrival_projection(key_count) + conditioned) | join(', ') }}
        from {{ a_cte }}
        where {{ dbt_inc_join._arrival_filter_sql(key_count) }}
    )
),
{{ prefix }}_matches as (
    select *
    from {{ prefix }}_arrivals
    {{ match_kind }} JOIN {{ b_cte }}
      on {{ dbt_inc_join._group_match_sql(key_count, lb, mw, unit, dbt_inc_join._condition_sql(inputs)) }}
),
{{ prefix }}_reduced as (
  {%- if params.mode == 'aggregate' %}
    {%- set outputs = [] -%}
    {%- for pair in params.aggregate -%}{%- do outputs.append(pair[1] ~ ' AS _g' ~ loop.index0) -%}{%- endfor -%}
    {%- do outputs.append('max(_b_arrival) AS _b_arrival') -%}
    {%- for index in range(key_count) -%}{%- do outputs.append('_gk' ~ index ~ ' AS _bk' ~ index) -%}{%- endfor %}
    select {{ (named + outputs) | join(', ') }}
    from {{ prefix }}_matches
    group by {{ group | join(', ') }}
  {%- elif params.mode in ['first', 'last'] %}
    {%- set order = dbt_inc_join._partner_order(inputs.partner_order_by | length, dbt_inc_join._tie_breakers(params, inputs, plan)) -%}
    {%- set picked = [] -%}
    {%- for name in b_names -%}{%- do picked.append('_pick.' ~ name ~ ' AS ' ~ name) -%}{%- endfor %}
    select {{ (named + picked) | join(', ') }}
    from (
        select {{ group | join(', ') }}, {{ dbt_inc_join._pick_sql(params.mode, b_names, order) }}
        from {{ prefix }}_matches
        where {{ not_null | join(' AND ') }}
        group by {{ group | join(', ') }}
    )
    {%- if params.how == 'full' %}
    union all
    select {{ (named + b_names) | join(', ') }}
    from {{ prefix }}_matches
    where _g_arrival IS NULL
    {%- endif %}
  {%- else %}
    select {{ (named + b_names) | join(', ') }}
    from {{ prefix }}_matches
  {%- endif %}
),
{%- set empty = dbt_inc_join._fills_from_empty(plan) -%}
{%- if empty %}
{{ prefix }}_empty as (
    {#- An aggregate's value over no rows (count 0, sum NULL, ...), for the A rows without partner. -#}
    {%- set values = [] -%}
    {%- for index in empty -%}{%- do values.append(params.aggregate[index][1] ~ ' AS _e' ~ index) -%}{%- endfor %}
    select {{ values | join(', ') }}
    from {{ b }}
    where false
),
{%- endif %}
{%- endmacro %}

{% macro _side_projection(side, keys, columns, inc_col, raw_type, time_uom) %}
  {#- The select list that renames one side to internal names and adds its truncated arrival. Only what the
      output needs goes through the join; a side is present in a joined row exactly when its arrival is not
      NULL (the slice drops NULL arrivals), so no presence flag; a DATE arrival in days is its own truncation,
      so the raw column is not carried twice. -#}
  {%- set same = dbt_inc_join._arrival_is_truncated(raw_type, time_uom) -%}
  {%- set projection = [] -%}
  {%- for key in keys -%}
    {%- do projection.append(dbt_inc_join._quote(key) ~ ' AS _' ~ side ~ 'k' ~ loop.index0) -%}
  {%- endfor -%}
  {%- for column in columns -%}
    {%- if not (same and column.input_name == inc_col) -%}
      {%- do projection.append(dbt_inc_join._quote(column.input_name) ~ ' AS _' ~ side ~ loop.index0) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- do projection.append(dbt_inc_join._truncate_sql(dbt_inc_join._quote(inc_col), time_uom) ~ ' AS _' ~ side ~ '_arrival') -%}
  {{ return(projection) }}
{% endmacro %}

{% macro _arrival_is_truncated(raw_type, time_uom) %}
  {{ return(time_uom == 'day' and raw_type == 'date') }}
{% endmacro %}

{% macro _partner_condition_sql(params, start, key_count, condition=none) %}
  {#- Equal keys (plain SQL equality: NULL never matches), join_cond (over the internal names) and, by default,
      b inside A's sliding window (with late matches, spec §10: a late copy of an A row pairs after the window
      instead). -#}
  {%- set unit = params.time_uom -%}
  {%- set tests = [dbt_inc_join._keys_equal_sql(key_count)] + (['(' ~ condition ~ ')'] if condition else []) -%}
  {%- if params.enforce_sliding_join_window -%}
    {%- set window = dbt_inc_join._sliding_window_sql(params.look_back_time, params.max_waiting_time, unit) -%}
    {%- if params.late_match_time -%}
      {%- set window = dbt_inc_join._late_window_sql(window, params.max_waiting_time, params.late_match_time, unit) -%}
    {%- endif -%}
    {%- do tests.append(window) -%}
  {%- elif start is not none -%}
    {#- Compatibility mode, as inc-join 0.1.3 with enforce_sliding_join_window=False: every pair with equal keys
        among the rows that library reads for the window (A from start - max_waiting_time, B from
        start - look_back_time - max_waiting_time, both up to the end), so the answer depends on the window.
        Our slices may reach further back (A for how = full): rows beyond those bounds claim no partner. -#}
    {%- set mw = params.max_waiting_time -%}
    {%- set lb = params.look_back_time -%}
    {%- for arrival, reach in [('_a_arrival', mw), ('_b_arrival', mw + lb)] -%}
      {%- set limit = dbt_inc_join._sql_literal(dbt_inc_join._shift_value(start, -reach, unit), dbt_inc_join._unit_type(unit)) -%}
      {%- do tests.append(arrival ~ ' >= ' ~ limit) -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(tests | join('\n     and ')) }}
{% endmacro %}

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
