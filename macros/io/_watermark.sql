{#- The query of the availability watermark (spec §6): the inputs' latest arrivals in one statement
    (_latest_arrivals); its rules, and the one an orchestrator declares, are the window's
    (plan/_window_rules.sql). -#}

{% macro _latest_arrivals(sides, start, declared, need_earliest, time_uom, count_first=false, riders=[]) %}
  {#- One query for the inputs' latest arrivals from `start` on (<side>_max, unless the watermark is declared)
      and, on a first run, their earliest ones (<side>_min), as text in a dict; none when there is nothing to ask
      (io/watermark.py runs it over a Python call's DataFrames). count_first: also the first side's rows from
      `start` on (<side>_rows), in the same aggregate as its maximum (a table of one row in FROM: Spark merges
      two scalar subqueries into one aggregate, but computes it once for each). riders: [(name, query of one
      value)] asked in the same query, under their names (the open state's rows, _resolve_window). -#}
  {%- set selects = ['1 AS one'] -%}
  {%- for name, query in riders -%}{%- do selects.append('(' ~ query ~ ') AS ' ~ name) -%}{%- endfor -%}
  {%- set counted = [] -%}
  {%- for side, relation, column, raw_type in sides -%}
    {%- set arrival = dbt_inc_join._truncate_sql(dbt_inc_join._quote(column.name), time_uom) -%}
    {%- set source = relation | string -%}
    {%- set recent = dbt_inc_join._arrival_range_sql(column.name, raw_type, start, none, time_uom) -%}
    {%- if declared is none -%}
      {%- set latest = "date_format(max(" ~ arrival ~ "), 'yyyy-MM-dd HH:mm:ss')" -%}
      {%- if count_first and loop.first -%}
        {%- do counted.append(" FROM (SELECT " ~ latest ~ " AS " ~ side ~ "_max, count(*) AS " ~ side ~ "_rows FROM "
                              ~ source ~ " WHERE " ~ recent ~ ") AS _counted") -%}
        {%- do selects.append('_counted.' ~ side ~ '_max, _counted.' ~ side ~ '_rows') -%}
      {%- else -%}
        {%- do selects.append("(SELECT " ~ latest ~ " FROM " ~ source ~ " WHERE " ~ recent ~ ") AS " ~ side ~ "_max") -%}
      {%- endif -%}
    {%- endif -%}
    {%- if need_earliest -%}
      {%- do selects.append("(SELECT date_format(min(" ~ arrival ~ "), 'yyyy-MM-dd HH:mm:ss') FROM " ~ source ~ " WHERE " ~ dbt_inc_join._quote(column.name) ~ " IS NOT NULL) AS " ~ side ~ "_min") -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if selects | length < 2 -%}{{ return(none) }}{%- endif -%}
  {#- a dict by column name: dbt's rows and the port's (pyspark's) answer to get() differently -#}
  {%- set found = run_query('SELECT ' ~ selects | join(', ') ~ counted | join('')) -%}
  {{ return(dict(zip(found.column_names, found.rows[0]))) }}
{% endmacro %}
