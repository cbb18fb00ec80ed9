{#- An input table the benchmark registered in the catalog at run time (its name depends on the history
    length), as the relation a model would get from source() or ref(). -#}
{% macro bench_input(identifier) %}
  {{ return(api.Relation.create(schema=target.schema, identifier=identifier, type='table')) }}
{% endmacro %}
