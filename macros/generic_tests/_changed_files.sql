{#- Restated units of input tables found from their files, anywhere in history (spec §14), for the test
    restated_inputs. An input that is a table partitioned by its arrival column, whose files are its rows
    (parquet, ORC, Hive; not Delta or Iceberg, whose folders keep files that are no longer rows), has its files
    listed: path, size and modification time, no row read. The units whose files changed since the last listing
    (the table properties inc_join.files.<i>) are the candidates; each is confirmed against the fingerprint the
    ledger's runs last recorded of it, so that no unit is named without a change. A SQL-only rule: the test is
    the only caller, for SQL and Python models alike. -#}

{% macro _partition_location(relation, arrival) %}
  {#- The location of a table partitioned by `arrival` whose files are its rows; none for a view, a table not
      partitioned by it, or a Delta, Iceberg or Hudi table. From DESCRIBE TABLE EXTENDED (the catalog only). -#}
  {%- set found = namespace(section='columns', location=none, provider=none, type=none, partitioned=false) -%}
  {%- for row in run_query('DESCRIBE TABLE EXTENDED ' ~ relation).rows -%}
    {%- set name = (row[0] or '') | trim -%}
    {%- if name == '# Partition Information' -%}
      {%- set found.section = 'partitions' -%}
    {%- elif name == '# Detailed Table Information' -%}
      {%- set found.section = 'details' -%}
    {%- elif found.section == 'partitions' and name | lower == arrival | lower -%}
      {%- set found.partitioned = true -%}
    {%- elif found.section == 'details' and name in ['Location', 'Provider', 'Type'] -%}
      {%- set value = (row[1] or '') | trim -%}
      {%- if name == 'Location' -%}{%- set found.location = value -%}
      {%- elif name == 'Provider' -%}{%- set found.provider = value | lower -%}
      {%- else -%}{%- set found.type = value | upper -%}{%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not found.partitioned or not found.location or found.type == 'VIEW' or found.provider in ['delta', 'iceberg', 'hudi'] -%}
    {{ return(none) }}
  {%- endif -%}
  {{ return(found.location) }}
{% endmacro %}

{% macro _file_listing_sql(name, location, arrival, time_uom) %}
  {#- One input's files per unit, from the listing of its location (Spark's binaryFile source reads no file's
      content unless asked): (input, unit, files, hash), the hash an order-free sum over the files' paths, sizes
      and modification times. -#}
  {%- set unit = "date_format(date_trunc('" ~ time_uom | upper ~ "', CAST(" ~ dbt_inc_join._quote(arrival)
                 ~ " AS TIMESTAMP)), 'yyyy-MM-dd HH:mm:ss')" -%}
  {{ return("SELECT " ~ dbt_inc_join._text_literal(name) ~ " AS input, " ~ unit ~ " AS unit, count(*) AS files"
            ~ ", CAST(sum(CAST(xxhash64(path, length, modificationTime) AS DECIMAL(38,0))) AS STRING) AS hash"
            ~ " FROM binaryFile.`" ~ location | replace('`', '``') ~ "` GROUP BY 1, 2") }}
{% endmacro %}

{% macro _registered_units(relation, arrival, time_uom) %}
  {#- The units of the table's partitions as its catalog knows them (SHOW PARTITIONS: 'RecDate=2025-03-06', or
      'ts=2025-03-06 05%3A00%3A00', one part per partition column): a folder under the table's location that is
      no partition of the table holds no row of it. -#}
  {%- set found = [] -%}
  {%- for row in run_query('SHOW PARTITIONS ' ~ relation).rows -%}
    {%- for part in row[0].split('/') if part.split('=', 1)[0] | lower == arrival | lower -%}
      {%- set value = (part.split('=', 1)[1].replace('%3A', ':').replace('%20', ' ') ~ ' 00:00:00')[:19] -%}
      {%- set unit = dbt_inc_join._unit_text(dbt_inc_join._floor_value(modules.datetime.datetime.strptime(value, '%Y-%m-%d %H:%M:%S'), time_uom)) -%}
      {%- if unit not in found -%}{%- do found.append(unit) -%}{%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _listed_files(rows, name, before, last_read, registered=none) %}
  {#- One input's listing (rows of _file_listing_sql) against the last one (`before`: {unit: 'files:hash'}, none
      for none): the candidate units up to `last_read` (their files were added, removed or written again since;
      'all' without a last listing), and the listing as the next one compares it (`state`); only the units of
      `registered` (the table's partitions), when given. -#}
  {%- set state = {} -%}
  {%- for row in rows if row[0] == name and (registered is none or row[1] in registered) -%}
    {#- the hash sum reduced to 64 bits, in hex: 16 characters a unit in the table property -#}
    {%- do state.update({row[1]: row[2] ~ ':' ~ '%016x' | format((row[3] | int) % 18446744073709551616)}) -%}
  {%- endfor -%}
  {%- if before is none -%}
    {{ return({'candidates': 'all', 'state': state}) }}
  {%- endif -%}
  {%- set candidates = [] -%}
  {%- for unit in (state.keys() | list + before.keys() | list) | unique | sort
        if unit <= last_read and state.get(unit) != before.get(unit) -%}
    {%- do candidates.append(unit) -%}
  {%- endfor -%}
  {{ return({'candidates': candidates, 'state': state}) }}
{% endmacro %}

{% macro _files_state(properties) %}
  {#- The last listings ({relation: {unit: 'files:hash'}}), kept in the table properties inc_join.files.<i>:
      parts of at most 3,900 characters, as Hive metastores keep at most 4,000 in one (inc_join.files.parts
      says how many). -#}
  {%- set parts = [] -%}
  {%- for index in range(properties.get('inc_join.files.parts', '0') | int) -%}
    {%- do parts.append(properties.get('inc_join.files.' ~ index, '')) -%}
  {%- endfor -%}
  {{ return(fromjson(parts | join) if parts else {}) }}
{% endmacro %}

{% macro _files_properties(state) %}
  {#- The table properties that keep the listings (_files_state). -#}
  {%- set text = tojson(state) -%}
  {%- set found = {} -%}
  {%- for start in range(0, text | length, 3900) -%}
    {%- do found.update({'inc_join.files.' ~ loop.index0: text[start:start + 3900]}) -%}
  {%- endfor -%}
  {%- do found.update({'inc_join.files.parts': found | length | string}) -%}
  {{ return(found) }}
{% endmacro %}

{% macro _changed_files(sides, records, time_uom, state) %}
  {#- The restated units of the input tables (sides: the test's inputs) anywhere up to the last unit the model's
      runs read, found from their files and confirmed by fingerprints; with the listing's state for the table
      properties inc_join.files.<i> ({relation: {unit: 'files:hash'}}, _files_state) and a line saying what was listed. -#}
  {%- set last = records[-1].get('next') or records[-1].ranges -%}
  {%- set tables = [] -%}
  {%- for side in sides if side.name in last -%}
    {%- set location = dbt_inc_join._partition_location(side.relation, side.arrival) -%}
    {%- if location is not none -%}{%- do tables.append({'side': side, 'location': location}) -%}{%- endif -%}
  {%- endfor -%}
  {%- if not tables -%}{{ return({'found': [], 'state': none, 'text': none}) }}{%- endif -%}
  {%- set queries = [] -%}
  {%- for table in tables -%}
    {%- do queries.append(dbt_inc_join._file_listing_sql(table.side.name, table.location, table.side.arrival, time_uom)) -%}
  {%- endfor -%}
  {#- Spark lists more than 32 folders in a job of its own, a task per folder: seconds for a year of daily
      partitions, where the driver lists a local or HDFS location in a fraction of that; object stores keep
      Spark's parallel listing. Set for the listing only. -#}
  {%- set listing = namespace(serial=true) -%}
  {%- for table in tables if not modules.re.match('(file|hdfs|viewfs):', table.location | lower) -%}
    {%- set listing.serial = false -%}
  {%- endfor -%}
  {%- set key = 'spark.sql.sources.parallelPartitionDiscovery.threshold' -%}
  {%- set kept = run_query('SET ' ~ key).rows[0][1] if listing.serial else none -%}
  {%- if listing.serial -%}{%- do run_query('SET ' ~ key ~ '=1000000') -%}{%- endif -%}
  {%- set rows = run_query(queries | join('\nUNION ALL\n')).rows -%}
  {%- if listing.serial -%}{%- do run_query('SET ' ~ key ~ '=' ~ kept) -%}{%- endif -%}
  {%- set after = state.copy() -%}
  {%- set wanted = {} -%}
  {%- set texts = [] -%}
  {%- for table in tables -%}
    {%- set name = table.side.name -%}
    {%- set registered = dbt_inc_join._registered_units(table.side.relation, table.side.arrival, time_uom) -%}
    {%- set listed = dbt_inc_join._listed_files(rows, name, state.get(table.side.relation | string), last[name][1], registered) -%}
    {%- do after.update({table.side.relation | string: listed.state}) -%}
    {%- if listed.candidates == 'all' -%}
      {%- do wanted.update({name: [none, last[name][1]]}) -%}
      {%- do texts.append(name ~ ': every unit (first listing)') -%}
    {%- elif listed.candidates -%}
      {%- do wanted.update({name: listed.candidates}) -%}
      {%- do texts.append(name ~ ': ' ~ listed.candidates | length ~ ' unit(s) with files changed') -%}
    {%- else -%}
      {%- do texts.append(name ~ ': no file changed') -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set text = 'listed the files of ' ~ texts | join('; ') -%}
  {%- if not wanted -%}{{ return({'found': [], 'state': after, 'text': text}) }}{%- endif -%}
  {{ return({'found': dbt_inc_join._confirmed_units(sides, records, wanted, time_uom), 'state': after, 'text': text}) }}
{% endmacro %}

{% macro _confirmed_units(sides, records, wanted, time_uom) %}
  {#- The units of `wanted` ({input: [units] or [none, last]: every unit up to last}) whose fingerprint now
      differs from what the ledger's runs last recorded of them (a unit no recorded run read is not judged). -#}
  {%- set spans = {} -%}
  {%- for name, units in wanted.items() -%}
    {%- do spans.update({name: [units[0], units[-1]]}) -%}
  {%- endfor -%}
  {%- set recorded = dbt_inc_join._recorded_fingerprints(records, spans) -%}
  {%- set queries = [] -%}
  {%- set compared = {'ranges': recorded.ranges, 'covered': recorded.covered, 'units': {}} -%}
  {%- for side in sides if side.name in recorded.ranges -%}
    {%- set units = wanted[side.name] -%}
    {%- set bounds = recorded.ranges[side.name] -%}
    {%- set every = units[0] is none or units | length > 50 -%}
    {%- set kept = {} -%}
    {%- for unit, value in (recorded.units.get(side.name) or {}).items() if every or unit in units -%}
      {%- do kept.update({unit: value}) -%}
    {%- endfor -%}
    {%- do compared.units.update({side.name: kept}) -%}
    {%- if every -%}
      {%- do queries.append(dbt_inc_join._fingerprint_query(side, dbt_inc_join._parse_text_value(bounds[0], time_uom),
                                                            dbt_inc_join._parse_text_value(bounds[1], time_uom), time_uom)) -%}
    {%- else -%}
      {%- do queries.append(dbt_inc_join._fingerprint_query(side, none, none, time_uom, units)) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not queries -%}{{ return([]) }}{%- endif -%}
  {%- set now = dbt_inc_join._units_of(run_query(queries | join('\nUNION ALL\n')).rows) -%}
  {#- a list of units compares only those (a unit's absence from `now` means no rows now) -#}
  {%- set found = [] -%}
  {%- for row in dbt_inc_join._restated_units(compared, now, recorded.ranges) -%}
    {%- set units = wanted[row.input] -%}
    {%- if units[0] is none or units | length > 50 or row.unit in units -%}{%- do found.append(row) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}
