{#- The relations a run reads and describes: without dbt's batch filter, and the plain table behind each. -#}

{% macro _unfiltered(relation) %}
  {#- The relation to read: without dbt's microbatch event-time filter, because the join reads its inputs with
      its own, wider bounds (look-back and waiting time) and a filter cut to the batch would lose partners.
      A sample limit (dbt run --empty) is kept. -#}
  {%- if relation.event_time_filter is defined and relation.event_time_filter -%}
    {{ return(api.Relation.create(database=relation.database, schema=relation.schema,
                                  identifier=relation.identifier, type=relation.type, limit=relation.limit)) }}
  {%- endif -%}
  {{ return(relation) }}
{% endmacro %}

{% macro _table_of(relation, side='a') %}
  {#- The plain table behind a relation, for metadata (describe): no batch filter, no sample limit; for a unit
      test's given rows, the table they stand for (_fixtures.sql). -#}
  {%- if dbt_inc_join._is_cte(relation) -%}
    {%- if not dbt_inc_join._in_unit_test() -%}
      {{ dbt_inc_join._fail(side ~ ' is the ephemeral model ' ~ relation ~ ': inc_join reads the columns and arrivals of its inputs from the warehouse before it writes the join. Materialize it as a view or table.') }}
    {%- endif -%}
    {{ return(dbt_inc_join._fixture_table(relation, side)) }}
  {%- endif -%}
  {%- if relation.identifier is defined and relation.identifier and (relation.limit is not none or relation.event_time_filter) -%}
    {{ return(api.Relation.create(database=relation.database, schema=relation.schema,
                                  identifier=relation.identifier, type=relation.type)) }}
  {%- endif -%}
  {{ return(relation) }}
{% endmacro %}
