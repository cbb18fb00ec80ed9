{#- The SQL of one inc_join_many run (spec §12), for dbt models and for the core (many.py: render_many renders
    _render_many; macros share one namespace, so the names take the prefix _many_). -#}

{% macro _many_reduced_columns(item) %}
  {#- The columns of an input's reduced CTE (render.py: reduced_by_arrival's columns). -#}
  {%- set key_count = item.inputs['keys'] | length -%}
  {%- set group = [] -%}
  {%- for index in range(key_count) -%}{%- do group.append('_gk' ~ index) -%}{%- endfor -%}
  {%- do group.append('_g_arrival') -%}
  {%- set indexes = dbt_inc_join._group_condition(dbt_inc_join._condition_sql(item.inputs))[0] -%}
  {%- for index in indexes -%}{%- do group.append('_gc' ~ index) -%}{%- endfor -%}
  {%- if item.params.mode == 'aggregate' -%}
    {%- set outputs = [] -%}
    {%- for pair in item.params.aggregate -%}{%- do outputs.append('_g' ~ loop.index0) -%}{%- endfor -%}
    {%- do outputs.append('_b_arrival') -%}
    {%- for index in range(key_count) -%}{%- do outputs.append('_bk' ~ index) -%}{%- endfor -%}
    {{ return(group + outputs) }}
  {%- endif -%}
  {{ return(group + dbt_inc_join._b_names(item.params, item.inputs, item.plan)) }}
{% endmacro %}

{% macro _many_a_columns(item, a_names) %}
  {#- An input's keys and join_cond columns in A's slice: A's own internal columns (_a<j>), not copies. -#}
  {%- set keys = [] -%}
  {%- for pair in item.inputs['keys'] -%}{%- do keys.append('_a' ~ a_names.index(pair[0])) -%}{%- endfor -%}
  {%- set conditioned = [] -%}
  {%- if item.inputs.get('condition') is not none -%}
    {%- for name in item.inputs.condition.a_columns -%}{%- do conditioned.append('_a' ~ a_names.index(name)) -%}{%- endfor -%}
  {%- endif -%}
  {{ return([keys, conditioned]) }}
{% endmacro %}

{% macro _many_resolution_sql(index, item, open_after=none) %}
  {#- (r_i, JoinType_i) over the joined row: where input i settles, and how; with open_after (the end literal of a
      run with include_waiting) a_waiting while the input settles after it. -#}
  {%- set settled = dbt_inc_join._many_settled_sql(index, item) -%}
  {%- if open_after is none -%}
    {{ return(settled) }}
  {%- endif -%}
  {%- set waiting = dbt_inc_join._join_type('a_waiting').code -%}
  {{ return([settled[0], 'CASE WHEN ' ~ settled[0] ~ ' > ' ~ open_after ~ ' THEN ' ~ waiting ~ ' ELSE ' ~ settled[1] ~ ' END']) }}
{% endmacro %}

{% macro _many_settled_sql(index, item) %}
  {#- An input's row as a one-row-per-A JoinType of the table (spec §11): no partner a_timed_out; with aggregate
      a_aggregated; a partner picked same_time, a_late (b before a) or b_late (b after a). -#}
  {%- set b_arrival = '_i' ~ index ~ '_b_arrival' -%}
  {%- set code = {} -%}
  {%- for name in ['same_time', 'b_late', 'a_late', 'a_timed_out', 'a_aggregated'] -%}
    {%- do code.update({name: dbt_inc_join._join_type(name).code}) -%}
  {%- endfor -%}
  {%- set closes = dbt_inc_join._add_units_sql('_a_arrival', item.params.max_waiting_time, item.params.time_uom) -%}
  {%- set none_found = 'CASE WHEN ' ~ b_arrival ~ ' IS NULL THEN ' ~ code.a_timed_out -%}
  {%- if item.params.mode == 'aggregate' -%}
    {{ return([closes, none_found ~ ' ELSE ' ~ code.a_aggregated ~ ' END']) }}
  {%- endif -%}
  {%- set picked = none_found ~ ' WHEN ' ~ b_arrival ~ ' = _a_arrival THEN ' ~ code.same_time ~ ' WHEN ' ~ b_arrival ~ ' < _a_arrival THEN ' ~ code.a_late ~ ' ELSE ' ~ code.b_late ~ ' END' -%}
  {%- if item.params.mode == 'first' -%}
    {{ return(['CASE WHEN ' ~ b_arrival ~ ' IS NULL THEN ' ~ closes ~ ' ELSE greatest(_a_arrival, ' ~ b_arrival ~ ') END', picked]) }}
  {%- endif -%}
  {{ return([closes, picked]) }}
{% endmacro %}

{% macro _many_pairs_a_rows(prepared, plans, a_names) %}
  {#- Per input, whether its plain plan pairs B with A's (keys, arrival) as they are (_arrival_group_ctes). Inputs
      whose arrivals are the same subquery share its exchange and its broadcast: when one input on an A side
      takes the distinct (an aggregate always does), every input on that side takes it. -#}
  {%- set sides, distinct = [], [] -%}
  {%- for item in prepared -%}
    {%- set side = dbt_inc_join._many_a_columns(item, a_names) | string -%}
    {%- do sides.append(side) -%}
    {%- set plan = plans[loop.index0] -%}
    {%- if not plan.grouped and not (plan.pairs_a_rows and item.params.mode in ['first', 'last']) -%}
      {%- do distinct.append(side) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set flags = [] -%}
  {%- for plan in plans -%}
    {%- do flags.append(plan.pairs_a_rows and sides[loop.index0] not in distinct) -%}
  {%- endfor -%}
  {{ return(flags) }}
{% endmacro %}

{% macro _render_many(a, a_columns, prepared, window, output_select, include_waiting, plans, output='rows') %}
  {#- Over 60 lines on purpose: one query template, read top to bottom like the statement it renders (A's
      slice; per input its A side, B slice and arrival-group CTEs; the joins back to A; the placement), whose
      whitespace is the rendered text. The per-input pieces it calls are the shared ones of _render.sql.
      window.open_state ({'kind', 'relation'}, spec §18): with the state as of start - 1 read, A's slice is its
      new rows and the state's, each input's B slice starts look_back_time before start, and an input that found
      its partner before keeps it (_many_open_rows_sql, _many_merged_columns). output: as _render_join's. -#}
  {%- set unit = window.time_uom -%}
  {%- set start = window.start -%}
  {%- set end = window.end -%}
  {%- set empty = window.empty -%}
  {%- if empty -%}
    {%- set end = end or start or modules.datetime.date(1970, 1, 1) -%}
    {%- set start = none -%}
  {%- endif -%}
  {%- set first = prepared[0] -%}
  {%- set inc_a = first.inputs.inc_col[0] -%}
  {%- set open_state = window.get('open_state') or {} -%}
  {%- set state_kind = open_state.get('kind') -%}
  {%- set state = none if empty or start is none else open_state.get('relation') -%}
  {%- set reach = dbt_inc_join._many_reaches(prepared).a -%}
  {%- set a_lower = none if start is none else dbt_inc_join._shift_value(start, -reach, unit) -%}
  {#- B's slices start look_back_time before the first A row read from A -#}
  {%- set b_base = start if state is not none else a_lower -%}
  {%- set a_names = a_columns | map(attribute='name') | list -%}
  {%- set projection = [] -%}
  {%- for name in a_names -%}{%- do projection.append(dbt_inc_join._quote(name) ~ ' AS _a' ~ loop.index0) -%}{%- endfor -%}
  {%- do projection.append(dbt_inc_join._truncate_sql(dbt_inc_join._quote(inc_a), unit) ~ ' AS _a_arrival') -%}
  {%- set kept_names = dbt_inc_join._many_kept_names(prepared) -%}
  {%- if state is not none -%}
    {%- set a_lower = start -%}
    {%- for name in kept_names -%}{%- do projection.append('NULL AS _s' ~ name[2:]) -%}{%- endfor -%}
  {%- endif -%}
  {%- set pairs_a_rows = dbt_inc_join._many_pairs_a_rows(prepared, plans, a_names) -%}
  {%- set a_predicate = 'false' if empty else dbt_inc_join._arrival_range_sql(inc_a, first.inputs.raw_types[0], a_lower, end, unit) -%}
  {%- set end_sql = dbt_inc_join._sql_literal(end, dbt_inc_join._unit_type(unit)) -%}
  {%- set resolved = [] -%}
  {%- for item in prepared -%}{%- do resolved.append(dbt_inc_join._many_resolution_sql(loop.index0, item, end_sql if include_waiting else none)) -%}{%- endfor -%}
  {%- set settled = resolved | map('first') | list -%}
  {%- set arrival = settled[0] if settled | length == 1 else 'greatest(' ~ settled | join(', ') ~ ')' -%}
  {%- if include_waiting -%}
    {#- a row not settled by the end is shown at the end, provisional; A's slice ends there and starts at
        start - max mw_i, so every such row is in it -#}
    {%- set arrival = 'least(' ~ arrival ~ ', ' ~ end_sql ~ ')' -%}
  {%- endif -%}
{%- set body %}
with {{ window.get('ctes', '') }}_inc_join_many_a as (
    select {{ projection | join(', ') }}
    from {{ a }}
    where {{ a_predicate }}
  {%- if state is not none %}
    union all
    {{ dbt_inc_join._many_open_rows_sql(state, a_names, kept_names, dbt_inc_join._shift_value(start, -reach, unit), unit) }}
  {%- endif %}
),
{%- for item in prepared %}
  {%- set index = loop.index0 -%}
  {%- set prefix = '_inc_join_m' ~ index -%}
  {%- set keys, conditioned = dbt_inc_join._many_a_columns(item, a_names) -%}
  {%- set a_side = [] -%}
  {%- for key in keys -%}{%- do a_side.append(key ~ ' AS _ak' ~ loop.index0) -%}{%- endfor -%}
  {%- do a_side.append('_a_arrival') -%}
  {%- for column in conditioned -%}{%- do a_side.append(column ~ ' AS _ac' ~ loop.index0) -%}{%- endfor -%}
  {%- set b_lower = none if b_base is none else dbt_inc_join._shift_value(b_base, -item.params.look_back_time, unit) %}
{{ prefix }}_a as (
    select {{ a_side | join(', ') }}
    from _inc_join_many_a
),
{{ prefix }}_b as (
    select {{ dbt_inc_join._b_group_projection(item.params, item.inputs, item.plan, plans[index].grouped) | join(', ') }}
    from {{ item.relation }}
    where {{ 'false' if empty else dbt_inc_join._arrival_range_sql(item.inputs.inc_col[1], item.inputs.raw_types[1], b_lower, end, unit) }}
),
{{ dbt_inc_join._arrival_group_ctes(item.relation, item.params, item.inputs, item.plan, prefix, prefix ~ '_a', prefix ~ '_b', plans[index].grouped, pairs_a_rows[index]) }}
{%- endfor %}
_inc_join_many_joined as (
    select *
    from _inc_join_many_a
    {%- for item in prepared %}
    {%- set index = loop.index0 -%}
    {%- set prefix = '_inc_join_m' ~ index -%}
    {%- set renamed = [] -%}
    {%- for column in dbt_inc_join._many_reduced_columns(item) -%}{%- do renamed.append(column ~ ' AS _i' ~ index ~ column) -%}{%- endfor -%}
    {%- set keys, conditioned = dbt_inc_join._many_a_columns(item, a_names) -%}
    {%- set back = [] -%}
    {%- for key in keys -%}{%- do back.append(key ~ ' = _i' ~ index ~ '_gk' ~ loop.index0) -%}{%- endfor -%}
    {%- do back.append('_a_arrival = _i' ~ index ~ '_g_arrival') -%}
    {#- join_cond's pair conjuncts' A columns null-safe, its A-only conjuncts over A's own columns -#}
    {%- set indexes, a_only, matched = dbt_inc_join._group_condition(dbt_inc_join._condition_sql(item.inputs)) -%}
    {%- for j in indexes -%}{%- do back.append(conditioned[j] ~ ' <=> _i' ~ index ~ '_gc' ~ j) -%}{%- endfor -%}
    {%- if a_only -%}{%- do back.append(dbt_inc_join._renamed_a_columns(a_only, conditioned)) -%}{%- endif %}
    LEFT OUTER JOIN (select {{ renamed | join(', ') }} from {{ prefix }}_reduced)
      on {{ back | join(' AND ') }}
    {%- set fills = dbt_inc_join._fills_from_empty(item.plan) -%}
    {%- if fills -%}
      {%- set values = [] -%}
      {%- for j in fills -%}{%- do values.append('_e' ~ j ~ ' AS _i' ~ index ~ '_e' ~ j) -%}{%- endfor %}
    CROSS JOIN (select {{ values | join(', ') }} from {{ prefix }}_empty)
    {%- endif -%}
    {%- endfor %}
),
{%- if state is not none %}
_inc_join_many_merged as (
    select {{ dbt_inc_join._many_merged_columns(a_names, prepared, kept_names) | join(', ') }}
    from _inc_join_many_joined
),
{%- endif %}
_inc_join_many_placed as (
    select *, {{ arrival }} AS _arrival
    from {{ '_inc_join_many_merged' if state is not none else '_inc_join_many_joined' }}
)
{%- endset -%}
{%- set columns = dbt_inc_join._many_output_columns(a_names, inc_a, prepared, resolved, output_select) | join(',\n       ') -%}
{%- set in_window = dbt_inc_join._in_window_sql('_arrival', start, end, unit) -%}
{%- if not state_kind %}
{{ body }}
select {{ columns }}
from _inc_join_many_placed
where {{ in_window }}
{%- else -%}
  {#- the output and the state come from one relation, which the model's hooks cache (_render_join's texts): the
      rows placed in the window and those still open at its end -#}
  {%- set texts = dbt_inc_join._open_state_texts(body, '_inc_join_many_placed', in_window, '_arrival > ' ~ end_sql,
                                                 columns, dbt_inc_join._many_open_state_names(a_names, kept_names) | join(', ')) -%}
  {%- if output == 'texts' -%}{{ return(texts) }}{%- endif %}
{{ texts[output] }}
{%- endif %}
{% endmacro %}

{% macro _many_kept_names(prepared) %}
  {#- The joined row's columns of each input that an open A row keeps in the state (_i<index><reduced column>):
      the partner it found, if any. -#}
  {%- set names = [] -%}
  {%- for item in prepared -%}
    {%- set index = loop.index0 -%}
    {%- for column in dbt_inc_join._many_reduced_columns(item) -%}{%- do names.append('_i' ~ index ~ column) -%}{%- endfor -%}
  {%- endfor -%}
  {{ return(names) }}
{% endmacro %}

{% macro _many_open_state_names(a_names, kept_names) %}
  {#- The state's columns: A's slice under its internal names, then each input's kept columns. -#}
  {%- set names = [] -%}
  {%- for name in a_names -%}{%- do names.append('_a' ~ loop.index0) -%}{%- endfor -%}
  {{ return(names + ['_a_arrival'] + kept_names) }}
{% endmacro %}

{% macro _many_open_rows_sql(state, a_names, kept_names, reach, unit) %}
  {#- The state's open A rows as rows of A's slice, each input's kept columns renamed _s<index>… (_i… are the
      run's own). -#}
  {%- set columns = dbt_inc_join._many_open_state_names(a_names, []) -%}
  {%- for name in kept_names -%}{%- do columns.append(name ~ ' AS _s' ~ name[2:]) -%}{%- endfor -%}
  select {{ columns | join(', ') }}
    from {{ state }}
    where _a_arrival >= {{ dbt_inc_join._sql_literal(reach, dbt_inc_join._unit_type(unit)) }}
{%- endmacro %}

{% macro _many_merged_columns(a_names, prepared, kept_names) %}
  {#- A's slice and each input's columns: the partner an open A row kept when it had found one (its _b_arrival is
      set; an input settles at its first partner, and no later run finds an earlier one), else this run's. -#}
  {%- set columns = dbt_inc_join._many_open_state_names(a_names, []) -%}
  {%- for item in prepared -%}
    {%- set index = loop.index0 -%}
    {%- for column in dbt_inc_join._many_reduced_columns(item) -%}
      {%- do columns.append('CASE WHEN _s' ~ index ~ '_b_arrival IS NOT NULL THEN _s' ~ index ~ column ~ ' ELSE _i'
                            ~ index ~ column ~ ' END AS _i' ~ index ~ column) -%}
    {%- endfor -%}
    {%- for j in dbt_inc_join._fills_from_empty(item.plan) -%}{%- do columns.append('_i' ~ index ~ '_e' ~ j) -%}{%- endfor -%}
  {%- endfor -%}
  {{ return(columns) }}
{% endmacro %}

{% macro _many_output_columns(a_names, inc_a, prepared, resolved, output_select) %}
  {#- The output arrival (A's inc_col), A's columns (its raw arrival as <inc_col>_A), then per input its B
      columns under its suffix, its aggregates and JoinType_<name> (many.py: _output_columns). -#}
  {%- set columns = [[inc_a, '_arrival']] -%}
  {%- for name in a_names -%}
    {%- do columns.append([name ~ '_A' if name == inc_a else name, '_a' ~ loop.index0]) -%}
  {%- endfor -%}
  {%- for item in prepared -%}
    {%- set index = loop.index0 -%}
    {%- set same = dbt_inc_join._arrival_is_truncated(item.inputs.raw_types[1], item.params.time_uom) -%}
    {%- for column in item.plan.b_columns -%}
      {%- set source = '_b_arrival' if (same and column.input_name == item.inputs.inc_col[1]) else '_b' ~ loop.index0 -%}
      {%- do columns.append([column.input_name ~ item.suffix, '_i' ~ index ~ source]) -%}
    {%- endfor -%}
    {%- for pair in item.params.aggregate -%}
      {%- set fill = item.plan.aggregate_fills[loop.index0] -%}
      {%- set fill = '_i' ~ index ~ fill if fill == '_e' ~ loop.index0 else fill -%}
      {%- do columns.append([pair[0], 'CASE WHEN _i' ~ index ~ '_b_arrival IS NULL THEN ' ~ fill ~ ' ELSE _i' ~ index ~ '_g' ~ loop.index0 ~ ' END']) -%}
    {%- endfor -%}
    {%- do columns.append(['JoinType_' ~ item.name, resolved[index][1]]) -%}
  {%- endfor -%}
  {%- set seen = [] -%}
  {%- for column in columns -%}
    {%- if (column[0] | lower) in seen -%}
      {{ dbt_inc_join._fail_many("output column '" ~ column[0] ~ "' would exist twice; rename a column or give the input a suffix.") }}
    {%- endif -%}
    {%- do seen.append(column[0] | lower) -%}
  {%- endfor -%}
  {%- if output_select is not none -%}
    {%- set wanted = output_select.split(',') if output_select is string else output_select -%}
    {%- set by_name = {} -%}
    {%- for column in columns -%}{%- do by_name.update({column[0] | lower: column}) -%}{%- endfor -%}
    {%- set chosen = [] -%}
    {%- for name in wanted -%}
      {%- if (name | trim | lower) not in by_name -%}
        {{ dbt_inc_join._fail_many("output_select names '" ~ name | trim ~ "', not an output column (" ~ columns | map('first') | join(', ') ~ ').') }}
      {%- endif -%}
      {%- do chosen.append(by_name[name | trim | lower]) -%}
    {%- endfor -%}
    {%- set columns = chosen -%}
  {%- endif -%}
  {%- set rendered = [] -%}
  {%- for column in columns -%}{%- do rendered.append(column[1] ~ ' AS ' ~ dbt_inc_join._quote(column[0])) -%}{%- endfor -%}
  {{ return(rendered) }}
{% endmacro %}
