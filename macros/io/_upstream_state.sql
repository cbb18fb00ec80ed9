{#- What the incremental models a model reads say of themselves (spec §14, Chains): their redo markers and the
    restated units their runs did not redo, read from their table properties. -#}

{% macro _upstream_state(node=none) %}
  {#- What the incremental models a model reads (node: its graph node, this model's by default), directly or
      through views and ephemeral models (dbt's graph), say of themselves in their table properties:
      {'redone': {relation: the redo marker inc_join.redone (the start and run_key of the table's last redo)},
       'outstanding': {relation: {'model': its model's name, 'units': its inc_join.outstanding}}}: the restated
      units its runs found and did not redo, which reach the tables that read it (spec §14, Chains). -#}
  {%- set found = {'redone': {}, 'outstanding': {}} -%}
  {%- set queue = (node or model).depends_on.nodes | list -%}
  {%- set seen = [] -%}
  {%- for _ in range(1000) if queue -%}
    {%- set node_id = queue.pop(0) -%}
    {%- set upstream = graph.nodes.get(node_id) if node_id.startswith('model.') and node_id not in seen else none -%}
    {%- do seen.append(node_id) -%}
    {%- if upstream is not none and upstream.config.materialized == 'incremental' -%}
      {%- set relation = adapter.get_relation(database=upstream.database, schema=upstream.schema,
                                              identifier=upstream.alias) -%}
      {%- set properties = {} if relation is none else dbt_inc_join._table_properties(relation) -%}
      {%- if properties.get('inc_join.redone') -%}
        {%- do found.redone.update({relation | string: fromjson(properties['inc_join.redone'])}) -%}
      {%- endif -%}
      {%- set units = fromjson(properties.get('inc_join.outstanding') or '[]') -%}
      {%- if units -%}
        {%- do found.outstanding.update({relation | string: {'model': upstream.name, 'units': units}}) -%}
      {%- endif -%}
    {%- elif upstream is not none and upstream.config.materialized in ['view', 'ephemeral'] -%}
      {%- do queue.extend(upstream.depends_on.nodes) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}
