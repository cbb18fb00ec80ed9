{#- The SQL of one run: slice both inputs, join them once, classify every joined row by the scenarios, keep
    the rows placed in the output window, select the output columns.

    The statement of SQL models and of the core alike (orchestration/render.py renders _render_join); the
    one-row-per-A pieces are in _render_groups.sql, the classification and output columns in _render_placed.sql. One SELECT over
    one join, never a UNION ALL of one SELECT per scenario: Spark inlines the joined CTE into every branch of a
    UNION ALL and pushes each branch's filter below the join, so each branch re-scanned both inputs and joined
    them again (4-5 scans per input, 2-3x the time of one join; see docs/performance.md). -#}

{% macro _render_join(a, b, params, inputs, plan, window, choice, output='rows') %}
  {#- render.py: render_join; choice: _choose_join_plan's (spec §15), as render.py takes it. The steps first
      (_placement_context, _input_slices, _scenarios), then one query template read top to bottom like the
      statement it renders. window.open_state ({'kind', 'relation'}, _open_state.sql): the state this model
      keeps, and the relation of the state as of the window's start - 1 when the run reads it. output: 'rows';
      with a state kind, 'state' for the state as of the window's end, 'kept' for the relation both come
      from, or 'texts' for the three at once. -#}
  {%- set unit = params.time_uom -%}
  {%- set start = window.start -%}
  {%- set end = window.end -%}
  {%- if window.empty -%}
    {#- Same columns and types, no rows: a false filter that Spark folds into an empty relation. The plan still
        needs some end literal; which one does not matter. -#}
    {%- set end = end or start or modules.datetime.date(1970, 1, 1) -%}
    {%- set start = none -%}
  {%- endif -%}
  {%- set open_state = window.get('open_state') or {} -%}
  {%- set state_kind = open_state.get('kind') -%}
  {%- set state = none if window.empty or start is none else open_state.get('relation') -%}
  {%- set ctx = dbt_inc_join._placement_context(params, end, state is not none and state_kind == 'keys') -%}
  {%- set condition = inputs.get('condition') -%}
  {%- set condition_sql = none if condition is none else condition.sql -%}
  {#- one row per A reduces B per A's (keys, arrival) whatever the plan: over time buckets when grouped -#}
  {%- set reduced = choice.grouped or params.mode != 'all' -%}
  {%- set slices = dbt_inc_join._input_slices(a, b, params, inputs, plan, start, end, window.empty, reduced,
                                              choice.grouped, state_kind if state is not none else none) -%}
  {%- set state_names = dbt_inc_join._open_state_names(state_kind, slices[0].names, inputs['keys'] | length) -%}

  {%- set partner = dbt_inc_join._partner_condition_sql(params, start, inputs['keys'] | length, condition_sql) -%}
  {#- a model that keeps the state finds its open rows in the same join: A's side always outer -#}
  {%- set join_kind = {'inner': 'LEFT OUTER' if state_kind else 'INNER', 'left': 'LEFT OUTER', 'left_anti': 'LEFT OUTER',
                       'full': 'FULL OUTER'}[params.how] -%}
  {%- set scenarios = dbt_inc_join._scenarios(params, ctx) -%}
{#- with late matches A's slice gets its late copies first (_late_matches.sql), under the same name -#}
{%- set body -%}
with {{ window.get('ctes', '') }}{{ '_inc_join_a_slice' if params.late_match_time else '_inc_join_a' }} as (
  {%- if state is not none %}
    {{- dbt_inc_join._open_a_slice_sql(state_kind, slices[0], state, state_names, start, params) }}
  {%- else %}
    select {{ slices[0].sql }}
    from {{ slices[0].source }}
    where {{ slices[0].predicate }}
  {%- endif %}
),
_inc_join_b as (
    select {{ slices[1].sql }}
    from {{ slices[1].source }}
    where {{ slices[1].predicate }}
),
{%- if params.late_match_time %}
{{ dbt_inc_join._late_copies_ctes(params, inputs['keys'] | length, condition_sql) }}
{%- endif %}
{%- if choice.grouped and dbt_inc_join._pairs_by_bucket(params.mode, params.how) %}
{{ dbt_inc_join._bucketed_pairs_cte(params, inputs) }}
{%- elif params.mode in ['first', 'last'] and not choice.grouped %}
{{ dbt_inc_join._picked_pairs_ctes(params, inputs, plan, slices[0].names + (['_a_open'] if ctx.open_flag else []),
                                   join_kind) }}
{%- elif reduced %}
{{ dbt_inc_join._arrival_group_ctes(b, params, inputs, plan, bucketed=choice.grouped) }}
_inc_join_pairs as (
    select *
    from _inc_join_a
    {{ join_kind }} JOIN _inc_join_reduced
      {%- set indexes, a_only, matched = dbt_inc_join._group_condition(condition_sql) %}
      on {{ dbt_inc_join._back_to_a_sql(inputs['keys'] | length, indexes, a_only) }}
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
{%- endset -%}
{%- set columns = dbt_inc_join._placed_columns(scenarios, plan, inputs, unit) | join(',\n       ') -%}
{%- if not state_kind %}
{{ body }}
select {{ columns }}
from _inc_join_placed
where _join_type is not null
{%- else -%}
  {#- A model that keeps the state: its output and its state come from one relation (_open_state.sql, the kept
      rows), which the model's hooks cache for the two statements -#}
  {%- set open_test = dbt_inc_join._open_row_test(params, end, state is not none and state_kind == 'keys') -%}
  {%- set texts = dbt_inc_join._open_state_texts(body, '_inc_join_placed', '_join_type is not null', open_test, columns,
                                                 ('distinct ' if state_kind == 'keys' else '') ~ state_names | join(', ')) -%}
  {%- if output == 'texts' -%}{{ return(texts) }}{%- endif %}
{{ texts[output] }}
{%- endif %}
{% endmacro %}

{% macro _placement_context(params, end, open_flag=false) %}
  {#- What placing a row may depend on besides the row. open_flag: A's slice tells which of its rows had no
      partner before B's read (_a_open, _open_state.sql). -#}
  {{ return({
      'open_flag': open_flag,
      'time_uom': params.time_uom,
      'lb': params.look_back_time,
      'mw': params.max_waiting_time,
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

{% macro _input_slices(a, b, params, inputs, plan, start, end, empty, reduced, bucketed=true, state=none) %}
  {#- What this run reads of each input (docs/spec.md §4, §18): [{'sql': projection, 'names', 'source',
      'predicate'}] for A and B; an empty window reads nothing (a false filter). reduced: B is reduced per A's
      (keys, arrival), over time buckets when bucketed (_arrival_group_ctes). state: the kind of the open state
      the run reads, or none. -#}
  {%- set unit = params.time_uom -%}
  {%- set ranges = dbt_inc_join._read_ranges(start, end, params.how, params.look_back_time, params.max_waiting_time, unit, params.late_match_time, state) -%}
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
    {%- if side == 'b' and reduced -%}
      {%- set projection = dbt_inc_join._b_group_projection(params, inputs, plan, bucketed) -%}
    {%- endif -%}
    {%- if condition is not none and not (side == 'b' and reduced) -%}
      {#- (the arrival-group plan's B projection carries them already) -#}
      {%- set projection = projection + dbt_inc_join._condition_projection(side, condition[side ~ '_columns']) -%}
    {%- endif -%}
    {%- do slices.append({'sql': projection | join(', '), 'names': dbt_inc_join._projected_names(projection),
                          'source': relation | string, 'predicate': predicate}) -%}
  {%- endfor -%}
  {{ return(slices) }}
{% endmacro %}

{% macro _condition_sql(inputs) %}
  {#- join_cond over the internal names, or none. -#}
  {%- set condition = inputs.get('condition') -%}
  {{ return(none if condition is none else condition.sql) }}
{% endmacro %}

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
