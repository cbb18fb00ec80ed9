{#- The versions of a run's inputs (spec §17): for every input that is a Delta or Iceberg table, the table version
    or snapshot the run read, in its ledger record (input_versions) and in the table property
    inc_join.input_versions, from which a later run can list the input's commits since. Read before the model's
    query of its inputs' rows, so a version is never later than what the run read; and the newest version in the
    log the run checks, so no commit falls between two runs' checks. Views and parquet tables have
    none: their restatements are found by fingerprints (spec §14). model.py's input_versions is the same for
    Python models. -#}

{% macro _table_version_sql(relation, file_format) %}
  {#- The query of a table's current version, its column `version`: Delta's newest commit, Iceberg's main branch
      snapshot; none for other formats. -#}
  {%- if file_format == 'delta' -%}
    {{ return('DESCRIBE HISTORY ' ~ relation ~ ' LIMIT 1') }}
  {%- elif file_format == 'iceberg' -%}
    {{ return('SELECT snapshot_id AS version FROM ' ~ relation ~ ".refs WHERE name = 'main'") }}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro _table_version_of(columns, rows) %}
  {#- The version in _table_version_sql's rows, as text; none for a table without a commit. -#}
  {%- if rows | length == 0 -%}
    {{ return(none) }}
  {%- endif -%}
  {{ return(rows[0][columns.index('version')] | string) }}
{% endmacro %}

{% macro _table_version(relation, file_format) %}
  {%- set query = dbt_inc_join._table_version_sql(relation, file_format) -%}
  {%- if query is none -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set found = run_query(query) -%}
  {{ return(dbt_inc_join._table_version_of(found.column_names | list, found.rows)) }}
{% endmacro %}

{% macro _table_facts(relation) %}
  {#- {'format': 'delta' or 'iceberg' for a table in that format, 'location', 'information': the cache's text,
      'snapshot'}, from dbt-spark's relation cache: its
      provider, and for an Iceberg table in Iceberg's SparkSessionCatalog (which SHOW TABLE EXTENDED shows with
      provider hive) the table property table_type=ICEBERG; the location from its `Location:` line (none when
      absent). Format none for a view, a parquet table, or a relation dbt does not find (a CTE of a unit test).
      snapshot: an Iceberg table's current snapshot as dbt's listing of its schema showed it
      (_iceberg_cached_snapshot). -#}
  {%- set facts = {'format': none, 'location': none, 'information': none, 'snapshot': none, 'snapshot_at': none} -%}
  {%- if relation is string or relation.identifier is none -%}
    {{ return(facts) }}
  {%- endif -%}
  {%- set found = adapter.get_relation(database=relation.database, schema=relation.schema,
                                       identifier=relation.identifier) -%}
  {%- if found is none or found.type == 'view' -%}
    {{ return(facts) }}
  {%- endif -%}
  {%- set information = found.information or '' -%}
  {%- do facts.update({'information': information}) -%}
  {%- if found.is_delta -%}
    {%- do facts.update({'format': 'delta'}) -%}
  {%- elif found.is_iceberg or 'TABLE_TYPE=ICEBERG' in information | upper -%}
    {%- do facts.update({'format': 'iceberg', 'snapshot': dbt_inc_join._iceberg_cached_snapshot(information),
                         'snapshot_at': dbt_inc_join._iceberg_cached_snapshot(information, 'timestamp-ms')}) -%}
  {%- endif -%}
  {%- for line in information.split('\n') if line.startswith('Location:') -%}
    {%- do facts.update({'location': line[9:] | trim}) -%}
  {%- endfor -%}
  {{ return(facts) }}
{% endmacro %}

{% macro _recorded_version(recorded, input, relation, file_format, field='version') %}
  {#- The version of `input` a committed run recorded (inc_join.input_versions' rows), while the input is the same
      table in the same format; else none. field 'at': an Iceberg version's commit time (epoch milliseconds),
      where the run knew it. -#}
  {%- set found = namespace(version=none) -%}
  {%- for row in recorded or [] if row.input == input and row.relation == relation and row.format == file_format -%}
    {%- set found.version = row.get(field) -%}
  {%- endfor -%}
  {{ return(found.version) }}
{% endmacro %}

{% macro _input_state(state, rows) %}
  {#- The versions of the inputs (_fingerprint_sides' sides) that are Delta or Iceberg tables, and their logs since
      the versions the last committed run read, for the log check (spec §17): {'versions': [{'input', 'relation',
      'format', 'version', 'location'}], 'logs': {input: {'since', 'rows'}}} (the location: where the log check
      reads a Delta table's log, _input_log.sql). state: _input_state_parts'; rows: its parts read
      (_one_statement's rows, alone or riding on the watermark's query). A Delta input's version is the newest of
      its commit files after the recorded one (those past the names read, in a statement of their own,
      _delta_log_more); an Iceberg input's, its main branch's snapshot. -#}
  {%- set found = {'versions': state.versions, 'logs': state.logs} -%}
  {%- for file_format in ['delta', 'iceberg'] -%}
    {%- for row in rows.get(file_format) or [] -%}
      {%- do found.logs[row[0]].rows.append(row[1:]) -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- for row in rows.get('iceberg_manifests') or [] -%}
    {%- do found.logs[row[0]].manifests.append(row[1:]) -%}
  {%- endfor -%}
  {%- for entry in found.versions if entry.version is none -%}
    {%- set log = found.logs[entry.input] -%}
    {%- if entry.format == 'delta' -%}
      {%- set now = dbt_inc_join._delta_changes_of(log.rows, log.since, none, true).now -%}
      {%- if dbt_inc_join._delta_log_more(entry.location, log.since, now) -%}
        {#- more commits since than the names read: the rest of the log, by pattern -#}
        {%- for row in run_query(log.rest).rows -%}{%- do log.rows.append((row | list)[1:]) -%}{%- endfor -%}
        {%- set now = dbt_inc_join._delta_changes_of(log.rows, log.since, none, true).now -%}
      {%- endif -%}
      {#- the recorded version's commit is gone: the version from the table's history -#}
      {%- do entry.update({'version': dbt_inc_join._table_version(state.relation_of[entry.input], 'delta') if now is none else now | string}) -%}
    {%- else -%}
      {%- set main = dbt_inc_join._iceberg_main_of(log.rows, log.cached[0]) -%}
      {%- do entry.update({'version': main if main is not none
                                      else dbt_inc_join._table_version(state.relation_of[entry.input], 'iceberg')}) -%}
      {#- its commit time, where the listing gave it: the next run reads the snapshots from there on -#}
      {%- if log.cached[0] is not none and entry.version == log.cached[0] and log.cached[1] is not none -%}
        {%- do entry.update({'at': log.cached[1]}) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _input_state_parts(sides, recorded, time_uom) %}
  {#- What _input_state reads, not yet read: {'versions' (none where the log gives it), 'logs' (no rows yet; a
      Delta input's 'rest': the query of its commits past the names read, _delta_log_more), 'relation_of',
      'parts': [(format, query)] for _one_statement}: one query per format for all its inputs, each row led by
      its input's name. Versions that no log gives are asked here (DESCRIBE HISTORY). -#}
  {%- set state = {'versions': [], 'logs': {}, 'relation_of': {}, 'parts': []} -%}
  {%- set queries = {'delta': [], 'iceberg': [], 'iceberg_manifests': []} -%}
  {%- for side in sides -%}
    {%- set facts = dbt_inc_join._table_facts(side.relation) -%}
    {%- if facts.format is not none -%}
      {%- set relation = side.relation | string -%}
      {%- do state.relation_of.update({side.name: side.relation}) -%}
      {%- set since = dbt_inc_join._recorded_version(recorded, side.name, relation, facts.format) -%}
      {%- set entry = {'input': side.name, 'relation': relation, 'format': facts.format, 'version': none,
                       'location': facts.location} -%}
      {%- if facts.format == 'iceberg' -%}
        {%- set since_at = dbt_inc_join._recorded_version(recorded, side.name, relation, facts.format, 'at') if since else none -%}
        {%- set from_ms = dbt_inc_join._iceberg_read_from(since, since_at, facts.snapshot_at) -%}
        {%- do queries.iceberg.append("SELECT '" ~ side.name ~ "' AS input, * FROM (" ~ dbt_inc_join._iceberg_snapshots_sql(relation, facts.snapshot, from_ms) ~ ")") -%}
        {#- where a manifest's partition summaries give the arrival units, the current manifests ride along: a
            daily append's own manifest then names its units without a read of its entries -#}
        {%- set field = dbt_inc_join._iceberg_arrival_field(facts.get('information'), side.arrival, time_uom) if since else none -%}
        {%- if field is not none -%}
          {%- do queries.iceberg_manifests.append("SELECT '" ~ side.name ~ "' AS input, * FROM (" ~ dbt_inc_join._iceberg_manifests_sql(relation) ~ ")") -%}
        {%- endif -%}
        {%- do state.logs.update({side.name: {'since': since, 'rows': [], 'manifests': [], 'field': field,
                                              'cached': [facts.snapshot, facts.snapshot_at],
                                              'partial': since is not none and from_ms is not none}}) -%}
      {%- elif since and facts.location -%}
        {%- set led = "SELECT '" ~ side.name ~ "' AS input, * FROM " -%}
        {%- set past = since | int + dbt_inc_join._delta_named_commits() -%}
        {%- do queries.delta.append(led ~ '(' ~ dbt_inc_join._delta_log_sql(facts.location, since, none, side.arrival, time_uom) ~ ')') -%}
        {%- set rest = led ~ '(' ~ dbt_inc_join._delta_log_sql(facts.location, past, none, side.arrival, time_uom, true) ~ ')' -%}
        {%- do state.logs.update({side.name: {'since': since, 'rows': [], 'rest': rest}}) -%}
      {%- else -%}
        {%- do entry.update({'version': dbt_inc_join._table_version(side.relation, facts.format)}) -%}
      {%- endif -%}
      {%- do state.versions.append(entry) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- for file_format in ['delta', 'iceberg', 'iceberg_manifests'] if queries[file_format] -%}
    {%- do state.parts.append((file_format, queries[file_format] | join('\nUNION ALL\n'))) -%}
  {%- endfor -%}
  {{ return(state) }}
{% endmacro %}

{% macro _input_versions_literal(versions) %}
  {#- The ledger's input_versions column: one struct per input read at a version. -#}
  {%- set type = dbt_inc_join._ledger_columns() | selectattr(0, 'equalto', 'input_versions') | map(attribute=1) | first -%}
  {%- set items = [] -%}
  {%- for row in versions -%}
    {%- do items.append("named_struct('input', " ~ dbt_inc_join._text_literal(row.input)
                        ~ ", 'relation', " ~ dbt_inc_join._text_literal(row.relation)
                        ~ ", 'format', " ~ dbt_inc_join._text_literal(row.format)
                        ~ ", 'version', " ~ dbt_inc_join._text_literal(row.version) ~ ")") -%}
  {%- endfor -%}
  {{ return('CAST(array(' ~ items | join(', ') ~ ') AS ' ~ type ~ ')') }}
{% endmacro %}

{% macro _relation_key(relation) %}
  {#- A relation's name without quotes, in lower case: how a Python model's loads are matched with it. -#}
  {{ return((relation | string).replace('`', '') | lower) }}
{% endmacro %}

{% macro _upstream_versions() %}
  {#- For a Python model (whose inputs are DataFrames only its code knows): the versions of every Delta and
      Iceberg table the model depends on, by _relation_key, read before its code runs. model.py's input_versions
      gives each input the version of the table its DataFrame was loaded from. -#}
  {%- set found = {} -%}
  {%- for unique_id in model.depends_on.nodes -%}
    {%- set node = graph.nodes.get(unique_id) or graph.sources.get(unique_id) -%}
    {%- if node is not none and node.resource_type in ['model', 'seed', 'snapshot', 'source'] -%}
      {%- set relation = api.Relation.create(database=node.database, schema=node.schema,
                                             identifier=node.identifier if node.resource_type == 'source' else node.alias) -%}
      {%- set facts = dbt_inc_join._table_facts(relation) -%}
      {%- if facts.format is not none -%}
        {#- the refs' main (the listing's may lag, _iceberg_main_of: no list is read here to tell) -#}
        {%- do found.update({dbt_inc_join._relation_key(relation): {'relation': relation | string, 'format': facts.format,
                             'version': dbt_inc_join._table_version(relation, facts.format), 'location': facts.location}}) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}
