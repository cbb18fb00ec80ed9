{#- An Iceberg table's log as the log check reads it (spec §17, _input_log.sql): its snapshots with the main
    branch's, the lineage between two snapshots (a rollback included, compactions left out), and the manifest
    entries each changed snapshot added or deleted with their arrival bounds. Pure: SQL texts and rows in,
    values out. -#}

{% macro _iceberg_snapshots_sql(relation) %}
  {#- An Iceberg table's snapshots (id, parent, at, operation) and, on every row, the main branch's (main): its
      version now and its log in one statement. -#}
  {{ return("SELECT CAST(snapshot_id AS STRING) AS id, CAST(parent_id AS STRING) AS parent,"
            ~ " date_format(committed_at, 'yyyy-MM-dd HH:mm:ss') AS at, operation,"
            ~ " (SELECT CAST(snapshot_id AS STRING) FROM " ~ relation ~ ".refs WHERE name = 'main') AS main"
            ~ " FROM " ~ relation ~ ".snapshots") }}
{% endmacro %}

{% macro _iceberg_path_of(rows, then, now) %}
  {#- The snapshots that changed the table between snapshot `then` and `now` (_iceberg_snapshots_sql's rows):
      those after their last common ancestor on either side (a rollback undoes the ones on `then`'s side), less
      `replace` snapshots (compaction rewrites the same rows): {'snapshots': [{'version', 'at', 'operation'}],
      'gone': true when a snapshot on the way is no longer kept (expired)}. -#}
  {%- set known = {} -%}
  {%- for row in rows -%}
    {%- do known.update({row[0]: {'version': row[0], 'parent': row[1], 'at': row[2], 'operation': row[3]}}) -%}
  {%- endfor -%}
  {%- set lineage = {then: [], now: []} -%}
  {%- set broken = namespace(value=false) -%}
  {%- for start in [then, now] -%}
    {%- set walk = namespace(at=start) -%}
    {%- for _ in range(100000) if walk.at is not none -%}
      {%- if walk.at not in known -%}
        {%- set broken.value = true -%}
        {%- set walk.at = none -%}
      {%- else -%}
        {%- do lineage[start].append(walk.at) -%}
        {%- set walk.at = known[walk.at].parent -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set common = lineage[then] | select('in', lineage[now]) | first -%}
  {%- if common is not defined or common is none -%}
    {{ return({'snapshots': [], 'gone': true}) }}
  {%- endif -%}
  {%- set changed = [] -%}
  {%- for start in [then, now] -%}
    {%- set walk = namespace(before_common=true) -%}
    {%- for id in lineage[start] -%}
      {%- set walk.before_common = walk.before_common and id != common -%}
      {%- if walk.before_common and known[id].operation != 'replace' and id not in changed | map(attribute='version') | list -%}
        {%- do changed.append({'version': id, 'at': known[id].at, 'operation': known[id].operation}) -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return({'snapshots': changed, 'gone': false}) }}
{% endmacro %}

{% macro _iceberg_entries_sql(relation, snapshots, arrival, time_uom) %}
  {#- The files each snapshot added or deleted (its own manifest entries of status 1, 2, read from the manifests of
      that snapshot: not all_entries, which reads every manifest of the table's history) with the units of their
      arrival bounds: (version, lower, upper); a delete file has no bounds of the column (lower none). -#}
  {%- set metric = 'readable_metrics.' ~ dbt_inc_join._quote(arrival) -%}
  {%- set parts = [] -%}
  {%- for snapshot in snapshots -%}
    {%- do parts.append("SELECT '" ~ snapshot ~ "' AS version, "
                        ~ dbt_inc_join._unit_of_text_sql(metric ~ '.lower_bound', time_uom) ~ " AS lower, "
                        ~ dbt_inc_join._unit_of_text_sql(metric ~ '.upper_bound', time_uom) ~ " AS upper FROM " ~ relation
                        ~ ".entries VERSION AS OF " ~ snapshot ~ " WHERE snapshot_id = " ~ snapshot ~ " AND status IN (1, 2)") -%}
  {%- endfor -%}
  {{ return(parts | join(' UNION ALL ')) }}
{% endmacro %}
