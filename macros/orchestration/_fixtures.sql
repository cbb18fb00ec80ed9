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
