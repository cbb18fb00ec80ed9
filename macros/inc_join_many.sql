{#- A enriched from several inputs in one run, one row per A row (spec §12). Read side by side with
    src/dbt_inc_join/many.py (same steps, same internal names). -#}

{% macro inc_join_many(a, inputs) %}
  {#- a and inputs by position or name; every other argument (macros/generated/_arguments.sql: names, defaults,
      checks) by name, or by position in the table's order. -#}
  {%- set arguments = dbt_inc_join._call_arguments('inc_join_many', ['a', 'inputs'], varargs, kwargs) -%}
  {{ return(adapter.dispatch('inc_join_many', 'dbt_inc_join')(a, inputs, arguments)) }}
{% endmacro %}

{% macro default__inc_join_many(a, inputs, arguments) %}
  {#- arguments: every argument but the inputs, by name (_call_arguments). -#}
  {%- if not execute -%}
    {{ return('select 1 as inc_join_placeholder') }}
  {%- endif -%}
  {%- set include_waiting = dbt_inc_join._check_argument('include_waiting', arguments.include_waiting) -%}
  {%- set specs = dbt_inc_join._many_specs(inputs) -%}
  {%- set time_uom = dbt_inc_join._check_argument('time_uom', arguments.time_uom) -%}
  {%- do dbt_inc_join._check_model_config({'include_waiting': include_waiting, 'time_uom': time_uom}) -%}
  {%- set max_window_units = dbt_inc_join._max_window_units(arguments.max_window_units) -%}
  {%- set a = dbt_inc_join._unfiltered(a) -%}
  {%- set a_table = dbt_inc_join._table_of(a, 'a') -%}
  {%- set a_columns = adapter.get_columns_in_relation(a_table) -%}
  {%- set prepared = [] -%}
  {%- for spec in specs -%}
    {%- do prepared.append(dbt_inc_join._many_input(spec, a_table, a_columns, time_uom)) -%}
  {%- endfor -%}
  {%- set arrivals = prepared | map(attribute='inputs') | map(attribute='inc_col') | map('first') | unique | list -%}
  {%- if arrivals | length > 1 -%}
    {{ dbt_inc_join._fail_many("the inputs name different arrival columns of a (" ~ arrivals | sort | join(', ') ~ "); A has one arrival: give each input's inc_col as [A column, B column] with the same A column.") }}
  {%- endif -%}
  {%- set first = prepared[0] -%}
  {%- set more = [] -%}
  {%- for item in prepared[1:] -%}
    {%- do more.append({'relation': item.relation, 'columns': item.b_columns, 'inc_col': item.params.inc_cols}) -%}
  {%- endfor -%}
  {%- set window = dbt_inc_join._resolve_window(a, first.relation, a_columns, first.b_columns, first.params.inc_cols,
                                            time_uom, 'left', arguments.output_window_start,
                                            arguments.output_window_end, max_window_units, more) -%}
  {%- set reach = prepared | map(attribute='params') | map(attribute='max_waiting_time') | max -%}
  {%- do dbt_inc_join._log_many_run(window, reach, prepared) -%}
  {%- set marker = '' if window.get('in_sql') else dbt_inc_join._run_marker(dbt_inc_join._run_record(window, first.params.inc_col, 'sql')) -%}
  {{ return(marker ~ '\n' ~ dbt_inc_join._render_many(a, a_columns, prepared, window, arguments.output_select, include_waiting)) }}
{% endmacro %}

{% macro _fail_many(message) %}
  {{ exceptions.raise_compiler_error('inc_join_many: ' ~ message) }}
{% endmacro %}

{% macro _many_specs(inputs) %}
  {#- The inputs, checked: a non-empty list of mappings, names unique, each with a relation and a window, and
      one row per A row (partner first or last, or aggregate). -#}
  {%- set accepted = ['relation', 'name', 'join_cols', 'inc_col', 'look_back_time', 'max_waiting_time', 'partner',
                      'partner_order_by', 'aggregate', 'null_fill', 'join_cond', 'suffix'] -%}
  {%- if inputs is string or inputs is mapping or inputs is not iterable or inputs | length == 0 -%}
    {{ dbt_inc_join._fail_many("inputs must be a non-empty list of inputs ({'relation': ref(...), 'name': ..., 'join_cols': ..., ...}).") }}
  {%- endif -%}
  {%- set seen = [] -%}
  {%- for spec in inputs -%}
    {%- set position = loop.index0 -%}
    {%- if spec is not mapping -%}
      {{ dbt_inc_join._fail_many('inputs[' ~ position ~ '] must be a dict with relation, name, join_cols, look_back_time and max_waiting_time.') }}
    {%- endif -%}
    {%- set unknown = [] -%}
    {%- for key in spec.keys() -%}{%- if key not in accepted -%}{%- do unknown.append(key) -%}{%- endif -%}{%- endfor -%}
    {%- if unknown -%}
      {{ dbt_inc_join._fail_many('inputs[' ~ position ~ '] has unknown keys ' ~ unknown | sort | join(', ') ~ '; accepted keys: ' ~ accepted | join(', ') ~ '.') }}
    {%- endif -%}
    {%- set name = spec.get('name') -%}
    {%- if name is not string or modules.re.match('^[A-Za-z0-9_]+$', name) is none -%}
      {{ dbt_inc_join._fail_many('inputs[' ~ position ~ "] needs a name: letters, digits and underscores, e.g. 'sepa' (got " ~ dbt_inc_join._repr(name) ~ '); it names the input\'s columns (JoinType_<name>, <column>_<name>).') }}
    {%- endif -%}
    {%- if (name | lower) in seen -%}
      {{ dbt_inc_join._fail_many("two inputs are named '" ~ name ~ "'; each input needs a name of its own.") }}
    {%- endif -%}
    {%- do seen.append(name | lower) -%}
    {%- for required in ['relation', 'join_cols'] -%}
      {%- if required not in spec -%}
        {{ dbt_inc_join._fail_many("input '" ~ name ~ "' has no " ~ required ~ '.') }}
      {%- endif -%}
    {%- endfor -%}
    {%- if 'look_back_time' not in spec or 'max_waiting_time' not in spec -%}
      {{ dbt_inc_join._fail_many("input '" ~ name ~ "' has no window: give its look_back_time and max_waiting_time (0 is allowed), the units a partner may arrive before and after its A row.") }}
    {%- endif -%}
    {%- set partner = spec.get('partner') -%}
    {%- if partner == 'all' or (partner is not none and spec.get('aggregate') is not none) -%}
      {{ dbt_inc_join._fail_many("input '" ~ name ~ "': partner='" ~ partner ~ "'" ~ (' with aggregate' if spec.get('aggregate') is not none else '') ~ " is not one row per A row; inc_join_many gives one row per A row: use partner='first' or 'last', or aggregate.") }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(inputs) }}
{% endmacro %}

{% macro _many_input(spec, a_table, a_columns, time_uom) %}
  {#- One input, checked and planned as inc_join's one-row-per-A plan (how = left). -#}
  {%- set suffix = spec.get('suffix') or ('_' ~ spec.name) -%}
  {%- set aggregate = spec.get('aggregate') -%}
  {%- set partner = 'all' if aggregate is not none else (spec.get('partner') or 'first') -%}
  {%- set params = dbt_inc_join._check_parameters({
      'join_cols': spec.join_cols,
      'inc_col': spec.get('inc_col', 'RecDate'),
      'how': 'left',
      'look_back_time': spec.look_back_time,
      'max_waiting_time': spec.max_waiting_time,
      'time_uom': time_uom,
      'suffixes': ['_A', suffix],
      'partner': partner,
      'partner_order_by': spec.get('partner_order_by'),
      'aggregate': aggregate,
      'null_fill': spec.get('null_fill'),
      'join_cond': spec.get('join_cond'),
  }) -%}
  {%- set relation = dbt_inc_join._unfiltered(spec.relation) -%}
  {%- set b_table = dbt_inc_join._table_of(relation, 'b') -%}
  {%- set b_columns = adapter.get_columns_in_relation(b_table) -%}
  {%- set inputs = dbt_inc_join._resolve_inputs(params, a_columns, b_columns, "input '" ~ spec.name ~ "'") -%}
  {%- set plan = dbt_inc_join._plan_columns(params, inputs) -%}
  {%- if params.aggregate -%}
    {%- do dbt_inc_join._check_aggregates(b_table, params.aggregate, inputs.b_names) -%}
  {%- endif -%}
  {%- do plan.update({'aggregate_fills': dbt_inc_join._aggregate_fills(params)}) -%}
  {%- do dbt_inc_join._resolve_join_cond(params, inputs, a_table, b_table) -%}
  {{ return({'name': spec.name, 'suffix': suffix, 'relation': relation, 'b_columns': b_columns, 'params': params,
             'inputs': inputs, 'plan': plan}) }}
{% endmacro %}

{% macro _log_many_run(window, reach, prepared) %}
  {#- One line per run: the window and what decided it, then each input's read range. -#}
  {%- set ranges = none -%}
  {%- set reads = [] -%}
  {%- if not window.empty -%}
    {%- set a_lower = none if window.start is none else dbt_inc_join._shift(window.start, -reach, window.time_uom) -%}
    {%- set ranges = [[a_lower, window.end], [a_lower, window.end]] -%}
    {%- for item in prepared -%}
      {%- set lower = none if a_lower is none else dbt_inc_join._shift(a_lower, -item.params.look_back_time, window.time_uom) -%}
      {%- do reads.append(item.name ~ ' ' ~ (lower or 'beginning') ~ '..' ~ window.end) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- set target = this if (this is defined and this is not none) else 'run-operation' -%}
  {%- if dbt_inc_join._in_unit_test() -%}
    {%- set target = 'unit test ' ~ model.name -%}
  {%- endif -%}
  {%- set line = dbt_inc_join._run_log_line(target, window, ranges) -%}
  {%- if reads and not window.get('in_sql') -%}
    {#- inc_join's line names a and b; here a and each input by its name -#}
    {%- set line = line.split(', b ')[0] ~ ', ' ~ reads | join(', ') -%}
  {%- endif -%}
  {{ log(line.replace('inc_join ', 'inc_join_many ', 1), info=True) }}
{% endmacro %}

{% macro _many_reduced_columns(item) %}
  {#- The columns of an input's reduced CTE (render.py: reduced_by_arrival's columns). -#}
  {%- set key_count = item.inputs['keys'] | length -%}
  {%- set group = [] -%}
  {%- for index in range(key_count) -%}{%- do group.append('_gk' ~ index) -%}{%- endfor -%}
  {%- do group.append('_g_arrival') -%}
  {%- for index in range(dbt_inc_join._condition_count(item.inputs)) -%}{%- do group.append('_gc' ~ index) -%}{%- endfor -%}
  {%- if item.params.mode == 'aggregate' -%}
    {%- set outputs = [] -%}
    {%- for pair in item.params.aggregate -%}{%- do outputs.append('_g' ~ loop.index0) -%}{%- endfor -%}
    {%- do outputs.append('_b_arrival') -%}
    {%- for index in range(key_count) -%}{%- do outputs.append('_bk' ~ index) -%}{%- endfor -%}
    {{ return(group + outputs) }}
  {%- endif -%}
  {%- set keys = item.inputs['keys'] | map(attribute=1) | list -%}
  {{ return(group + dbt_inc_join._projected_names(dbt_inc_join._side_projection('b', keys, item.plan.b_columns, item.inputs.inc_col[1], item.inputs.raw_types[1], item.params.time_uom))) }}
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
      run with include_waiting) code 5 while the input settles after it (many.py: _resolution_sql). -#}
  {%- set settled = dbt_inc_join._many_settled_sql(index, item) -%}
  {%- if open_after is none -%}
    {{ return(settled) }}
  {%- endif -%}
  {{ return([settled[0], 'CASE WHEN ' ~ settled[0] ~ ' > ' ~ open_after ~ ' THEN 5 ELSE ' ~ settled[1] ~ ' END']) }}
{% endmacro %}

{% macro _many_settled_sql(index, item) %}
  {%- set b_arrival = '_i' ~ index ~ '_b_arrival' -%}
  {%- set closes = dbt_inc_join._add_units_sql('_a_arrival', item.params.max_waiting_time, item.params.time_uom) -%}
  {%- if item.params.mode == 'aggregate' -%}
    {{ return([closes, 'CASE WHEN ' ~ b_arrival ~ ' IS NULL THEN 4 ELSE 8 END']) }}
  {%- endif -%}
  {%- set code = 'CASE WHEN ' ~ b_arrival ~ ' IS NULL THEN 4 WHEN ' ~ b_arrival ~ ' = _a_arrival THEN 1 WHEN ' ~ b_arrival ~ ' < _a_arrival THEN 2 ELSE 3 END' -%}
  {%- if item.params.mode == 'first' -%}
    {{ return(['CASE WHEN ' ~ b_arrival ~ ' IS NULL THEN ' ~ closes ~ ' ELSE greatest(_a_arrival, ' ~ b_arrival ~ ') END', code]) }}
  {%- endif -%}
  {{ return([closes, code]) }}
{% endmacro %}

{% macro _render_many(a, a_columns, prepared, window, output_select, include_waiting=false) %}
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
  {%- set reach = prepared | map(attribute='params') | map(attribute='max_waiting_time') | max -%}
  {%- set a_lower = none if start is none else dbt_inc_join._shift(start, -reach, unit) -%}
  {%- set a_names = a_columns | map(attribute='name') | list -%}
  {%- set projection = [] -%}
  {%- for name in a_names -%}{%- do projection.append(dbt_inc_join._quote(name) ~ ' AS _a' ~ loop.index0) -%}{%- endfor -%}
  {%- do projection.append(dbt_inc_join._truncate_sql(dbt_inc_join._quote(inc_a), unit) ~ ' AS _a_arrival') -%}
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
  {%- endif %}
with {{ window.get('ctes', '') }}_inc_join_many_a as (
    select {{ projection | join(', ') }}
    from {{ a }}
    where {{ a_predicate }}
),
{%- for item in prepared %}
  {%- set index = loop.index0 -%}
  {%- set prefix = '_inc_join_m' ~ index -%}
  {%- set keys, conditioned = dbt_inc_join._many_a_columns(item, a_names) -%}
  {%- set a_side = [] -%}
  {%- for key in keys -%}{%- do a_side.append(key ~ ' AS _ak' ~ loop.index0) -%}{%- endfor -%}
  {%- do a_side.append('_a_arrival') -%}
  {%- for column in conditioned -%}{%- do a_side.append(column ~ ' AS _ac' ~ loop.index0) -%}{%- endfor -%}
  {%- set b_lower = none if a_lower is none else dbt_inc_join._shift(a_lower, -item.params.look_back_time, unit) %}
{{ prefix }}_a as (
    select {{ a_side | join(', ') }}
    from _inc_join_many_a
),
{{ prefix }}_b as (
    select {{ dbt_inc_join._b_group_projection(item.params, item.inputs, item.plan) | join(', ') }}
    from {{ item.relation }}
    where {{ 'false' if empty else dbt_inc_join._arrival_range_sql(item.inputs.inc_col[1], item.inputs.raw_types[1], b_lower, end, unit) }}
),
{{ dbt_inc_join._arrival_group_ctes(item.relation, item.params, item.inputs, item.plan, prefix, prefix ~ '_a', prefix ~ '_b') }}
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
    {%- for column in conditioned -%}{%- do back.append(column ~ ' <=> _i' ~ index ~ '_gc' ~ loop.index0) -%}{%- endfor %}
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
_inc_join_many_placed as (
    select *, {{ arrival }} AS _arrival
    from _inc_join_many_joined
)
select {{ dbt_inc_join._many_output_columns(a_names, inc_a, prepared, resolved, output_select) | join(',\n       ') }}
from _inc_join_many_placed
where {{ dbt_inc_join._in_window_sql('_arrival', start, end, unit) }}
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
