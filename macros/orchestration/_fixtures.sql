{#- dbt unit tests (dbt 1.8+ `unit_tests:`): each given input of a model becomes a CTE `__dbt__cte__<name>` of
    the unit test's own query, so it can be neither described nor queried while the macro renders. The macro then
    takes the input's columns from the table that the fixture stands for (dbt reads the fixture's column types
    from the same table), and decides the window in SQL, from the given rows (_window_in_sql). Normal runs never
    take this path: their relations are tables or views, and their bounds stay literals. -#}

{% macro _in_unit_test() %}
  {{- return(model is defined and model is not none and model.resource_type == 'unit_test') -}}
{% endmacro %}

{% macro _is_cte(relation) %}
  {#- An input that exists only as a CTE of the query: a unit test's given rows, or an ephemeral model. -#}
  {%- set identifier = relation.identifier if relation.identifier is defined else (relation | string) -%}
  {{- return((identifier or '').startswith('__dbt__cte__')) -}}
{% endmacro %}

{% macro _fixture_table(relation, side) %}
  {#- The table whose rows a unit test's fixture replaces: the CTE is named after its identifier; its schema is
      the tested model's, the target's, or else the only schema that holds a relation of that name. -#}
  {%- set name = (relation.identifier | string)[('__dbt__cte__' | length):] -%}
  {%- for schema in [model.schema, target.schema] -%}
    {%- set candidate = adapter.get_relation(database=model.database, schema=schema, identifier=name) -%}
    {%- if candidate is not none -%}{{ return(candidate) }}{%- endif -%}
  {%- endfor -%}
  {%- set found = [] -%}
  {%- for schema in list_schemas(model.database).columns[0].values() | sort -%}
    {%- set candidate = adapter.get_relation(database=model.database, schema=schema, identifier=name) -%}
    {%- if candidate is not none -%}{%- do found.append(candidate) -%}{%- endif -%}
  {%- endfor -%}
  {%- if found | length == 1 -%}{{ return(found[0]) }}{%- endif -%}
  {%- set what = 'no relation named ' ~ name ~ ' exists yet' if not found else 'several schemas hold a relation named ' ~ name ~ ' (' ~ found | join(', ') ~ ')' -%}
  {{ dbt_inc_join._fail(side ~ ' is given rows by a unit test, whose columns inc_join takes from the table they stand for, but '
                        ~ what ~ '. Build the inputs first, as dbt needs for its fixtures (e.g. dbt run --select +'
                        ~ model.name.split('.')[0] ~ ' --empty), or keep the input in the tested model\'s schema.') }}
{% endmacro %}

{% macro _window_in_sql(sides, inc_col, time_uom, how, explicit, max_window_units) %}
  {#- The output window of spec §6 decided by SQL over the given rows: the same rules as _resolve_window, with
      the largest output arrival in `this`, the earliest arrivals and the watermark as scalar subqueries over the
      fixtures' CTEs. The bounds come out as SQL bounds ({'sql', 'units', 'time_uom'}: _shift_value and _sql_literal take them).
      `sides` as _arrival_sides gives them: with inc_join_many's further inputs the watermark is the earliest of all. -#}
  {%- set arrivals = dbt_inc_join._arrival_subqueries(sides, inc_col, time_uom) -%}
  {%- set start = dbt_inc_join._start_in_sql(explicit, how, inc_col, time_uom) -%}
  {%- set end = dbt_inc_join._end_in_sql(explicit, sides, max_window_units, time_uom) -%}
  {%- set ctes -%}
_inc_join_window as (
    select window_start,
           {{ end.sql }} as window_end
    from (
        select {{ start.sql }} as window_start,
               {{ end.watermark_sql }} as watermark
        from (
            select {{ arrivals | join(',\n                   ') }}
        ) _inc_join_arrivals
    ) _inc_join_window_parts
),
  {%- endset -%}
  {%- set bound = {'units': 0, 'time_uom': time_uom} -%}
  {{ return({'start': dict(bound, sql='(SELECT window_start FROM _inc_join_window)'),
             'end': dict(bound, sql='(SELECT window_end FROM _inc_join_window)'),
             'empty': false, 'in_sql': true, 'ctes': ctes ~ '\n',
             'start_reason': start.reason, 'end_reason': end.reason,
             'watermark': none, 'a_max': none, 'b_max': none, 'time_uom': time_uom, 'units_behind': 0}) }}
{% endmacro %}

{% macro _arrival_subqueries(sides, inc_col, time_uom) %}
  {#- The arrivals the rules read, each one scalar subquery over a CTE: <side>_max, <side>_min, this_max. -#}
  {%- set unit_type = dbt_inc_join._unit_type(time_uom) -%}
  {%- set arrivals = [] -%}
  {%- for side, relation, column, raw_type in sides -%}
    {%- set arrival = dbt_inc_join._truncate_sql(dbt_inc_join._quote(column.name), time_uom) -%}
    {%- do arrivals.append('(SELECT max(' ~ arrival ~ ') FROM ' ~ relation ~ ') AS ' ~ side ~ '_max') -%}
    {%- do arrivals.append('(SELECT min(' ~ arrival ~ ') FROM ' ~ relation ~ ') AS ' ~ side ~ '_min') -%}
  {%- endfor -%}
  {%- set this_arrival = dbt_inc_join._truncate_sql(dbt_inc_join._quote(inc_col), time_uom) -%}
  {%- do arrivals.append(('CAST(NULL AS ' ~ unit_type ~ ')' if this is none else '(SELECT max(' ~ this_arrival ~ ') FROM ' ~ this ~ ')') ~ ' AS this_max') -%}
  {{ return(arrivals) }}
{% endmacro %}

{% macro _start_in_sql(explicit, how, inc_col, time_uom) %}
  {#- start: an explicit bound, else after the largest output arrival in `this` (no rows given: none), else the
      earliest arrival (_earliest_of). -#}
  {%- set earliest = dbt_inc_join._earliest_of(how) -%}
  {%- set names = [] -%}
  {%- for side in earliest.sides -%}{%- do names.append(side ~ '_min') -%}{%- endfor -%}
  {#- Spark's least skips NULLs: the earliest of the sides that have rows -#}
  {%- set earliest_sql = names[0] if names | length == 1 else 'least(' ~ names | join(', ') ~ ')' -%}
  {%- if explicit.start is not none -%}
    {{ return({'sql': dbt_inc_join._sql_literal(explicit.start, dbt_inc_join._unit_type(time_uom)), 'reason': explicit.start_reason}) }}
  {%- elif is_incremental() -%}
    {{ return({'sql': 'coalesce(' ~ dbt_inc_join._add_units_sql('this_max', 1, time_uom) ~ ', ' ~ earliest_sql ~ ')',
               'reason': 'max(' ~ inc_col ~ ') in this + 1 ' ~ time_uom ~ ', else the ' ~ earliest.text}) }}
  {%- endif -%}
  {{ return({'sql': earliest_sql, 'reason': earliest.text}) }}
{% endmacro %}

{% macro _end_in_sql(explicit, sides, max_window_units, time_uom) %}
  {#- end: an explicit bound or the watermark, capped at the watermark (none while a side has no rows), then
      at max_window_units units. {'sql', 'reason', 'watermark_sql'} -#}
  {%- set unit_type = dbt_inc_join._unit_type(time_uom) -%}
  {%- set maxima = [] -%}
  {%- for side in sides -%}{%- do maxima.append(side[0] ~ '_max') -%}{%- endfor -%}
  {%- set watermark_sql = dbt_inc_join._watermark_of(maxima, dbt_inc_join._least_sql) -%}
  {%- set declared = dbt_inc_join._declared_watermark(time_uom) -%}
  {%- if declared is not none -%}
    {%- set watermark_sql = dbt_inc_join._sql_literal(declared, unit_type) -%}
  {%- endif -%}
  {%- set end_sql = 'watermark' -%}
  {%- set end_reason = 'availability watermark' -%}
  {%- if explicit.end is not none -%}
    {%- set end_sql = dbt_inc_join._least_sql(dbt_inc_join._sql_literal(explicit.end, unit_type), 'watermark') -%}
    {%- set end_reason = explicit.end_reason ~ ', capped at the availability watermark' -%}
  {%- endif -%}
  {%- set cap = dbt_inc_join._max_window_units(max_window_units) -%}
  {%- if cap is not none -%}
    {%- set end_sql = 'CASE WHEN window_start IS NULL THEN ' ~ end_sql ~ ' ELSE ' ~ dbt_inc_join._least_sql(end_sql, dbt_inc_join._add_units_sql('window_start', cap - 1, time_uom)) ~ ' END' -%}
    {%- set end_reason = end_reason ~ '; max_window_units=' ~ cap -%}
  {%- endif -%}
  {{ return({'sql': end_sql, 'reason': end_reason, 'watermark_sql': watermark_sql}) }}
{% endmacro %}
