{#- Inputs rewritten after the model's committed runs read them (spec §14), on a model that records its runs.
    Fails with one row per restated unit that has not been redone:
    - the units the model's runs found restated (the ledger's `restated` column) and no later run redid (a run
      whose window starts at or before the unit, e.g. on_restated_input=redo or var inc_join_redo_from);
    - with `inputs` ({name: relation}, the names the model records: a and b, or a and each input's name of an
      inc_join_many model), each input's units over a horizon fingerprinted again and compared with what the
      ledger recorded: by default the units the next run reads again; with last_n, the last last_n units up to
      the last committed window's end. Checking older units means reading them, so it is the test's, not the
      daily run's (a daily run checks its own read ranges). -#}
{% test restated_inputs(model, inputs=none, last_n=none, inc_col=none, inc_cols={}, time_uom='day') %}
  {{ return(adapter.dispatch('test_restated_inputs', 'dbt_inc_join')(model, inputs, last_n, inc_col, inc_cols, time_uom)) }}
{% endtest %}

{% macro default__test_restated_inputs(model, inputs, last_n, inc_col, inc_cols, time_uom) %}
  {%- set unit = dbt_inc_join._choice('time_uom', time_uom, ['day', 'hour', 'minute']) -%}
  {%- if last_n is not none -%}
    {%- set last_n = dbt_inc_join._window_length('last_n', last_n) -%}
  {%- endif -%}
  {%- if not execute -%}
    {{ return('select 1 as unchecked where false') }}
  {%- endif -%}
  {%- set ledger = dbt_inc_join._ledger_relation() -%}
  {%- if ledger is none -%}
    {{ dbt_inc_join._fail("restated_inputs needs the run ledger: set var inc_join_ledger: true and give the model the post-hook dbt_inc_join.record_run().") }}
  {%- endif -%}
  {%- set table_id = dbt_inc_join._table_properties(model).get('inc_join.table_id') -%}
  {%- set runs = "select * from " ~ ledger ~ " where relation = " ~ dbt_inc_join._text_literal(model | string)
                 ~ " and table_id = " ~ dbt_inc_join._text_literal(table_id) -%}
  {%- set changed = dbt_inc_join._refingerprinted(model, ledger, runs, inputs, last_n, inc_col, inc_cols, unit) if inputs else [] %}
with runs as (
    {{ runs }}
),
recorded as (
    select r.finished_at as found_at, x.input, x.unit, x.rows_then, x.rows_now
    from runs r lateral view explode(r.restated) found as x
),
not_redone as (
    select s.* from recorded s
    left anti join runs later
      on later.finished_at >= s.found_at and not later.empty
     and (later.window_start is null or later.window_start <= s.unit)
)
select 'found by a run, not redone' as status, input, unit, rows_then, rows_now from not_redone
{%- for row in changed %}
union all
select 'fingerprinted again' as status, {{ dbt_inc_join._text_literal(row.input) }} as input,
       TIMESTAMP'{{ row.unit }}' as unit, CAST({{ row.rows_then }} AS BIGINT) as rows_then,
       CAST({{ row.rows_now }} AS BIGINT) as rows_now
{%- endfor %}
{% endmacro %}

{% macro _refingerprinted(model, ledger, runs, inputs, last_n, inc_col, inc_cols, unit) %}
  {#- The units of the horizon whose fingerprint now differs from the one the ledger recorded last. -#}
  {%- set found = run_query("select fingerprints from (" ~ runs ~ ") where fingerprints is not null order by finished_at") -%}
  {%- set records = [] -%}
  {%- for row in found.rows -%}{%- do records.append(fromjson(row[0])) -%}{%- endfor -%}
  {%- if not records -%}{{ return([]) }}{%- endif -%}
  {%- set horizon = dbt_inc_join._horizon(records[-1].ranges, last_n, unit) -%}
  {#- per input and unit, what the latest record whose range holds the unit saw -#}
  {%- set recorded = {'ranges': {}, 'units': {}} -%}
  {%- for name, bounds in horizon.items() -%}
    {%- set seen = {} -%}
    {%- set covered = namespace(lower=none) -%}
    {%- for record in records if name in record.ranges -%}
      {%- set range = record.ranges[name] -%}
      {%- set covered.lower = range[0] if covered.lower is none or (range[0] or '') < covered.lower else covered.lower -%}
      {%- for key in seen.keys() | list if dbt_inc_join._inside(key, range[0], range[1]) -%}
        {%- do seen.pop(key) -%}
      {%- endfor -%}
      {%- do seen.update(record.units.get(name) or {}) -%}
    {%- endfor -%}
    {%- do recorded.ranges.update({name: [[covered.lower or '', bounds[0] or ''] | max, bounds[1]]}) -%}
    {%- do recorded.units.update({name: seen}) -%}
  {%- endfor -%}
  {%- set sides = [] -%}
  {%- for name, given in inputs.items() if name in horizon -%}
    {%- set relation = dbt_inc_join._relation_named(given) -%}
    {%- set arrival = inc_cols.get(name) or dbt_inc_join._arrival_column(inc_col) -%}
    {%- do dbt_inc_join._require_input_columns(relation, name, [['inc_cols', arrival]]) -%}
    {%- set columns = [] -%}
    {%- set raw = namespace(type='timestamp') -%}
    {%- for column in adapter.get_columns_in_relation(relation) -%}
      {%- do columns.append((column.name, column.dtype)) -%}
      {%- if column.name | lower == arrival | lower -%}{%- set raw.type = dbt_inc_join._raw_type_name(dbt_inc_join._type_name(column)) -%}{%- endif -%}
    {%- endfor -%}
    {%- do sides.append({'name': name, 'relation': relation, 'columns': columns, 'arrival': arrival, 'raw_type': raw.type}) -%}
  {%- endfor -%}
  {%- set units = dbt_inc_join._fingerprints(sides, recorded.ranges, unit) -%}
  {{ return(dbt_inc_join._restated_units(recorded, units, recorded.ranges)) }}
{% endmacro %}

{% macro _horizon(last_ranges, last_n, unit) %}
  {#- The units checked again: the last record's ranges (what the next run reads again), or the last last_n units
      up to their end. -#}
  {%- if last_n is none -%}{{ return(last_ranges) }}{%- endif -%}
  {%- set horizon = {} -%}
  {%- for name, bounds in last_ranges.items() -%}
    {%- set end = dbt_inc_join._parse_text_value(bounds[1], unit) -%}
    {%- do horizon.update({name: [dbt_inc_join._unit_text(dbt_inc_join._shift_value(end, 1 - last_n, unit)), bounds[1]]}) -%}
  {%- endfor -%}
  {{ return(horizon) }}
{% endmacro %}

{% macro _relation_named(value) %}
  {#- A relation, or its name as text ('schema.table' or 'database.schema.table'). -#}
  {%- if value is not string -%}{{ return(value) }}{%- endif -%}
  {%- set parts = value.replace('`', '').split('.') -%}
  {{ return(api.Relation.create(database=parts[-3] if parts | length > 2 else none,
                                schema=parts[-2] if parts | length > 1 else target.schema, identifier=parts[-1])) }}
{% endmacro %}
