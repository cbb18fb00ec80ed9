{#- Queries of different columns sent to Spark as one statement, so that a run pays one round trip and one job
    for what it asks together (spec §17: the log check rides on the watermark's query). -#}

{% macro _one_statement(parts) %}
  {#- parts: [(name, query)]; {name: [row as a list in its query's column order]}. One part runs as it is; several
      go as a UNION ALL of (part, the row as JSON, nulls kept), each part's columns its own. -#}
  {%- set found = {} -%}
  {%- for name, query in parts -%}
    {%- do found.update({name: []}) -%}
  {%- endfor -%}
  {%- if parts | length == 1 -%}
    {%- for row in run_query(parts[0][1]).rows -%}
      {%- do found[parts[0][0]].append(row | list) -%}
    {%- endfor -%}
    {{ return(found) }}
  {%- endif -%}
  {%- set texts = [] -%}
  {%- for name, query in parts -%}
    {%- do texts.append("SELECT '" ~ name ~ "' AS part, to_json(struct(*), map('ignoreNullFields', 'false')) AS row"
                        ~ " FROM (" ~ query ~ ")") -%}
  {%- endfor -%}
  {%- if texts -%}
    {%- for row in run_query(texts | join('\nUNION ALL\n')).rows -%}
      {%- do found[row[0]].append(fromjson(row[1]).values() | list) -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(found) }}
{% endmacro %}
