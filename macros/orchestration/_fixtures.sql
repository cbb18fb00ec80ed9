{#- dbt unit tests (dbt 1.8+ `unit_tests:`): each given input of a model becomes a CTE `__dbt__cte__<name>` of
    the unit test's own query, so it can be neither described nor queried while the macro renders. The macro then
    takes the input's columns from the table that the fixture stands for (dbt reads the fixture's column types
    from the same table), and the window is decided in SQL, from the given rows (plan/_window_rules.sql:
    _window_in_sql). Normal runs never take this path: their relations are tables or views, and their bounds stay
    literals. -#}

{% macro _in_unit_test() %}
  {{- return(model is defined and model is not none and model.resource_type == 'unit_test') -}}
{% endmacro %}

{% macro _fixture_table(relation, side) %}
  {#- The table whose rows a unit test's fixture replaces: the CTE is named after its identifier, a source's
      <source name>__<table name> (dbt's graph of sources is not in a unit test's context); its schema is the
      tested model's, the target's, a source's own name (dbt's default), or else the only schema that holds a
      relation of that name. -#}
  {%- set name = (relation.identifier | string)[('__dbt__cte__' | length):] -%}
  {%- set parts = name.split('__') -%}
  {%- set identifiers = [name] -%}
  {%- set tries = [[model.schema, name], [target.schema, name]] -%}
  {%- for i in range(1, parts | length) -%}
    {%- set table = parts[i:] | join('__') -%}
    {%- do identifiers.append(table) -%}
    {%- do tries.extend([[parts[:i] | join('__'), table], [model.schema, table], [target.schema, table]]) -%}
  {%- endfor -%}
  {%- for schema, identifier in tries -%}
    {%- set candidate = adapter.get_relation(database=model.database, schema=schema, identifier=identifier) -%}
    {%- if candidate is not none -%}{{ return(candidate) }}{%- endif -%}
  {%- endfor -%}
  {%- set found = [] -%}
  {%- for schema in list_schemas(model.database).columns[0].values() | sort -%}
    {%- for identifier in identifiers -%}
      {%- set candidate = adapter.get_relation(database=model.database, schema=schema, identifier=identifier) -%}
      {%- if candidate is not none -%}{%- do found.append(candidate) -%}{%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- if found | length == 1 -%}{{ return(found[0]) }}{%- endif -%}
  {%- set what = 'no relation named ' ~ name ~ ' exists yet' if not found else 'several schemas hold a relation named ' ~ name ~ ' (' ~ found | join(', ') ~ ')' -%}
  {{ dbt_inc_join._fail(side ~ ' is given rows by a unit test, whose columns inc_join takes from the table they stand for, but '
                        ~ what ~ '. Build the inputs first, as dbt needs for its fixtures (e.g. dbt run --select +'
                        ~ (model.tested_node_unique_id.split('.')[2] if model.tested_node_unique_id else model.name.split('.')[0])
                        ~ ' --empty), or keep the input in the tested model\'s schema.') }}
{% endmacro %}
