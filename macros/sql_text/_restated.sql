{#- Inputs rewritten after a run read them (docs/spec.md §14): the fingerprints of what a run read, the units
    that differ from what an earlier committed run read, and what a run does about them. _restated_run.sql holds a
    dbt run's steps (SQL and Python models). A fingerprint record is the
    same JSON in both languages:
    {"ranges": {input: [lower, upper]}, "units": {input: {unit: "rows:hash"}}}, as 'yyyy-MM-dd HH:mm:ss' text. -#}

{% macro _row_hash_sql(columns) %}
  {#- A 64-bit hash of a whole row: every column in name order; maps as JSON (Spark refuses to hash a map).
      columns: [(name, type name), ...]. -#}
  {%- set parts = [] -%}
  {%- for name, type_name in columns | sort(attribute=0) -%}
    {%- set quoted = dbt_inc_join._quote(name) -%}
    {%- do parts.append('to_json(' ~ quoted ~ ')' if 'map<' in type_name | lower else quoted) -%}
  {%- endfor -%}
  {{ return('xxhash64(' ~ parts | join(', ') ~ ')') }}
{% endmacro %}

{% macro _unit_sql(arrival, time_uom) %}
  {#- The start of a row's arrival unit, as a timestamp (_fingerprint_sql writes it as text once per unit). -#}
  {{ return("CAST(date_trunc('" ~ time_uom | upper ~ "', " ~ dbt_inc_join._quote(arrival) ~ ") AS TIMESTAMP)") }}
{% endmacro %}

{% macro _fingerprint_sql(columns, arrival, time_uom) %}
  {#- A unit's fingerprint in three projections: per row (its unit's start, its hash), per unit (the row count,
      and the sums of three parts of the hashes, bits 42-63 signed, 21-41 and 0-20: BIGINT sums, which overflow
      only past 2^42 rows in a unit), and the result (the unit as text, the rows, the exact sum of the hashes,
      order-free, as text; DECIMAL once per unit, where a DECIMAL sum per row is slow and a BIGINT sum of whole
      hashes overflows). -#}
  {%- set per_row = [dbt_inc_join._unit_sql(arrival, time_uom) ~ ' AS unit_start',
                     dbt_inc_join._row_hash_sql(columns) ~ ' AS row_hash'] -%}
  {%- set per_unit = ['count(*) AS rows',
                      'sum(shiftright(row_hash, 42)) AS hash_high',
                      'sum(shiftright(row_hash, 21) & 2097151) AS hash_middle',
                      'sum(row_hash & 2097151) AS hash_low'] -%}
  {%- set total = 'CAST(hash_high AS DECIMAL(38,0)) * 4398046511104 + CAST(hash_middle AS DECIMAL(38,0)) * 2097152 + hash_low' -%}
  {%- set result = ["date_format(unit_start, 'yyyy-MM-dd HH:mm:ss') AS unit", 'rows', 'CAST(' ~ total ~ ' AS STRING) AS hash'] -%}
  {{ return([per_row, per_unit, result]) }}
{% endmacro %}

{% macro _fingerprint_query(side, lower, upper, time_uom, units=none) %}
  {#- One input's fingerprints over [lower, upper], or of the units listed ('yyyy-MM-dd HH:mm:ss' text): a row
      (input, unit, rows, hash) per unit with rows. side: {'name', 'relation', 'columns': [(name, type name)],
      'arrival', 'raw_type'}. -#}
  {%- set parts = dbt_inc_join._fingerprint_sql(side.columns, side.arrival, time_uom) -%}
  {%- set where = dbt_inc_join._arrival_range_sql(side.arrival, side.raw_type, lower, upper, time_uom) -%}
  {%- if units is not none -%}
    {%- set each = [] -%}
    {%- for unit in units -%}
      {%- set value = dbt_inc_join._parse_text_value(unit, time_uom) -%}
      {%- do each.append('(' ~ dbt_inc_join._arrival_range_sql(side.arrival, side.raw_type, value, value, time_uom) ~ ')') -%}
    {%- endfor -%}
    {%- set where = each | join(' OR ') -%}
  {%- endif -%}
  {{ return("SELECT '" ~ side.name ~ "' AS input, " ~ parts[2] | join(', ')
            ~ " FROM (SELECT unit_start, " ~ parts[1] | join(', ')
            ~ " FROM (SELECT " ~ parts[0] | join(', ') ~ " FROM " ~ side.relation ~ " WHERE " ~ where ~ ")"
            ~ " GROUP BY unit_start)") }}
{% endmacro %}

{% macro _unit_text(value) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {{ return(value.strftime('%Y-%m-%d %H:%M:%S') if value.hour is defined else value.isoformat() ~ ' 00:00:00') }}
{% endmacro %}

{% macro _unit_label(text, time_uom) %}
  {{ return(text[:10] if time_uom == 'day' else text) }}
{% endmacro %}

{% macro _units_of(rows) %}
  {#- {input: {unit: "rows:hash"}} from (input, unit, rows, hash) rows. -#}
  {%- set found = {} -%}
  {%- for row in rows -%}
    {%- if row[0] not in found -%}{%- do found.update({row[0]: {}}) -%}{%- endif -%}
    {%- do found[row[0]].update({row[1]: (row[2] | string) ~ ':' ~ row[3]}) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _inside(unit, lower, upper) %}
  {{ return((lower is none or unit >= lower) and (upper is none or unit <= upper)) }}
{% endmacro %}

{% macro _inside_any(unit, spans) %}
  {#- Whether a unit lies inside one of the ranges [lower, upper] of `spans`. -#}
  {%- for span in spans if dbt_inc_join._inside(unit, span[0], span[1]) -%}{{ return(true) }}{%- endfor -%}
  {{ return(false) }}
{% endmacro %}

{% macro _fingerprint_record(units, ranges, redone={}) %}
  {#- What a run records of its reads: the units the next run reads again, with their fingerprints; and the
      redo markers of the upstream inc_join tables (redone, see _upstream_restated). -#}
  {%- set kept = {} -%}
  {%- for name, bounds in ranges.items() -%}
    {%- set own = {} -%}
    {%- for unit, value in (units.get(name) or {}).items() | sort -%}
      {%- if dbt_inc_join._inside(unit, bounds[0], bounds[1]) -%}{%- do own.update({unit: value}) -%}{%- endif -%}
    {%- endfor -%}
    {%- do kept.update({name: own}) -%}
  {%- endfor -%}
  {{ return({'ranges': ranges, 'units': kept, 'redone': redone}) }}
{% endmacro %}

{% macro _rows_of(value) %}
  {{ return(0 if value is none else value.split(':')[0] | int) }}
{% endmacro %}

{% macro _rows_read(fingerprints, ranges, state_rows=none) %}
  {#- The rows a run read ({input: rows}, and 'open_state' when it read the state): each input's rows in its read
      range (ranges: {input: [lower, upper]}, values of the unit), counted from the fingerprints the run took of
      them; none when they do not cover every range (a first run reads from the beginning). -#}
  {%- if not fingerprints -%}{{ return(none) }}{%- endif -%}
  {%- set found = {} -%}
  {%- for name, bounds in ranges.items() -%}
    {%- set lower, upper = dbt_inc_join._unit_text(bounds[0]), dbt_inc_join._unit_text(bounds[1]) -%}
    {%- set covered = (fingerprints.get('ranges') or {}).get(name) -%}
    {%- if covered is none or lower is none or not dbt_inc_join._inside(lower, covered[0], covered[1])
          or not dbt_inc_join._inside(upper, covered[0], covered[1]) -%}
      {{ return(none) }}
    {%- endif -%}
    {%- set total = namespace(rows=0) -%}
    {%- for unit, value in (fingerprints.units.get(name) or {}).items() if dbt_inc_join._inside(unit, lower, upper) -%}
      {%- set total.rows = total.rows + dbt_inc_join._rows_of(value) -%}
    {%- endfor -%}
    {%- do found.update({name: total.rows}) -%}
  {%- endfor -%}
  {%- if state_rows is not none -%}{%- do found.update({'open_state': state_rows}) -%}{%- endif -%}
  {{ return(found) }}
{% endmacro %}

{% macro _restated_units(previous, units, ranges) %}
  {#- The units, inside both this run's read range and the one an earlier committed run recorded, whose
      fingerprint differs (a unit without rows has none): {input, unit, rows_then, rows_now}, earliest first.
      previous.covered, where the ledger's records gave it (_recorded_fingerprints): only the units inside one of
      their ranges were recorded; a unit between them was read by no run that recorded it. -#}
  {%- if not previous -%}{{ return([]) }}{%- endif -%}
  {%- set found = [] -%}
  {%- for name, bounds in ranges.items() -%}
    {%- set before = (previous.get('ranges') or {}).get(name) -%}
    {%- set spans = (previous.get('covered') or {}).get(name) -%}
    {%- if before is not none -%}
      {%- set then = (previous.get('units') or {}).get(name) or {} -%}
      {%- set now = units.get(name) or {} -%}
      {%- for unit in (then.keys() | list + now.keys() | list) | unique | sort -%}
        {%- set inside = dbt_inc_join._inside(unit, bounds[0], bounds[1]) and dbt_inc_join._inside(unit, before[0], before[1])
                         and (spans is none or dbt_inc_join._inside_any(unit, spans)) -%}
        {%- if inside and then.get(unit) != now.get(unit) -%}
          {%- do found.append({'input': name, 'unit': unit, 'rows_then': dbt_inc_join._rows_of(then.get(unit)),
                               'rows_now': dbt_inc_join._rows_of(now.get(unit))}) -%}
        {%- endif -%}
      {%- endfor -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found | sort(attribute='input') | sort(attribute='unit')) }}
{% endmacro %}

{% macro _upstream_restated(previous, redone, time_uom) %}
  {#- The upstream inc_join tables redone since the last committed run (their table property inc_join.redone
      names a run this table's record did not know): each restates its unit `from` on, whatever this run reads
      of it. Rows none: the unit was redone, not counted. -#}
  {%- if not previous or 'redone' not in previous -%}{{ return([]) }}{%- endif -%}
  {%- set found = [] -%}
  {%- for relation, marker in redone.items() | sort -%}
    {%- if (previous.redone.get(relation) or {}).get('run_key') != marker.run_key -%}
      {%- set moment = dbt_inc_join._parse_text_value(marker['from'], 'minute') -%}
      {%- set first = dbt_inc_join._unit_text(dbt_inc_join._floor_value(moment, time_uom)) -%}
      {%- do found.append({'input': relation, 'unit': first, 'rows_then': none, 'rows_now': none}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _upstream_outstanding_lines(target, outstanding, time_uom) %}
  {#- One line per input table whose model has restated units it did not redo (_upstream_state's outstanding):
      this table, which read it, is stale where they reach it until that model and this one are redone. -#}
  {%- set lines = [] -%}
  {%- for relation, entry in outstanding.items() | sort -%}
    {%- set units = entry.units | sort(attribute='input') | sort(attribute='unit') -%}
    {%- do lines.append('inc_join ' ~ target ~ ': its input ' ~ relation ~ ' has restated units that its model has not'
                        ~ ' redone: ' ~ dbt_inc_join._restated_text(units, time_uom, 3) ~ '; this table is stale from '
                        ~ dbt_inc_join._unit_label(units[0].unit, time_uom) ~ ' on at least. Redo both with: '
                        ~ dbt_inc_join._redo_command(entry.model)) -%}
  {%- endfor -%}
  {{ return(lines) }}
{% endmacro %}

{% macro _pending_units(found, outstanding) %}
  {#- The restated units a run acts on: those it found now, and those found earlier (by a run or by the test
      restated_inputs, the table property inc_join.outstanding) that no run has redone; one per input and unit,
      earliest first. -#}
  {%- set seen = [] -%}
  {%- set merged = [] -%}
  {%- for row in found -%}
    {%- do seen.append(row.input ~ '|' ~ row.unit) -%}
    {%- do merged.append(row) -%}
  {%- endfor -%}
  {%- for row in outstanding or [] if (row.input ~ '|' ~ row.unit) not in seen -%}
    {%- do seen.append(row.input ~ '|' ~ row.unit) -%}
    {%- set kept = row.copy() -%}
    {%- do kept.update({'outstanding': true}) -%}
    {%- do merged.append(kept) -%}
  {%- endfor -%}
  {{ return(merged | sort(attribute='input') | sort(attribute='unit')) }}
{% endmacro %}

{% macro _still_outstanding(outstanding, found, window_start, empty) %}
  {#- What stays outstanding after a committed run (the post-hook's inc_join.outstanding): the units outstanding
      before and those it found, less those it redid (a run that wrote from a unit at or before them on). -#}
  {%- set kept = [] -%}
  {%- for row in dbt_inc_join._pending_units(found, outstanding) -%}
    {%- if empty or (window_start is not none and window_start > row.unit) -%}
      {%- do kept.append({'input': row.input, 'unit': row.unit, 'rows_then': row.rows_then, 'rows_now': row.rows_now}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(kept) }}
{% endmacro %}

{% macro _recorded_fingerprints(records, ranges) %}
  {#- What the ledger's records ({ranges, units} each, oldest first) last saw of each unit of `ranges`: per input
      and unit, the latest record whose range holds it. Its ranges: the part of `ranges` from the records' first
      unit to their last; covered: each record's range, for the units between them that no record holds (a full
      refresh records only what the next run reads again, a run given a past window only its own range). -#}
  {%- set recorded = {'ranges': {}, 'units': {}, 'covered': {}} -%}
  {%- for name, bounds in ranges.items() -%}
    {%- set seen = {} -%}
    {%- set spans = [] -%}
    {%- set covered = namespace(lower=none, upper=none, any=false) -%}
    {%- for record in records if name in record.ranges -%}
      {%- set range = record.ranges[name] -%}
      {%- do spans.append([range[0], range[1]]) -%}
      {%- set covered.lower = range[0] if not covered.any or (range[0] or '') < (covered.lower or '') else covered.lower -%}
      {%- set covered.upper = range[1] if not covered.any or range[1] > covered.upper else covered.upper -%}
      {%- set covered.any = true -%}
      {%- for key in seen.keys() | list if dbt_inc_join._inside(key, range[0], range[1]) -%}
        {%- do seen.pop(key) -%}
      {%- endfor -%}
      {%- for key, value in (record.units.get(name) or {}).items() if dbt_inc_join._inside(key, range[0], range[1]) -%}
        {%- do seen.update({key: value}) -%}
      {%- endfor -%}
    {%- endfor -%}
    {%- if covered.any -%}
      {%- do recorded.ranges.update({name: [[covered.lower or '', bounds[0] or ''] | max or none,
                                            [covered.upper, bounds[1]] | min]}) -%}
      {%- do recorded.units.update({name: seen}) -%}
      {%- do recorded.covered.update({name: spans}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(recorded) }}
{% endmacro %}

{% macro _covers(record, ranges, last_read) %}
  {#- Whether a fingerprint record reaches back to the start of every range of `ranges`, and on to last_read
      (the unit before the run's window, as text), or to the range's end where that comes first: the units after
      last_read are arrivals no run has read, and restate nothing. A run given a past window leaves a record
      that ends before the units the runs before it read. -#}
  {%- if not record -%}{{ return(false) }}{%- endif -%}
  {%- for name, bounds in ranges.items() -%}
    {%- set have = (record.get('ranges') or {}).get(name) -%}
    {%- if not have or bounds[0] is none or (have[0] is not none and bounds[0] < have[0])
           or have[1] is none or have[1] < [bounds[1], last_read] | min -%}
      {{ return(false) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(true) }}
{% endmacro %}

{% macro _with_horizon(reaches, horizon) %}
  {#- The reaches of the fingerprints: each input's read range, and horizon more units before it. -#}
  {%- set found = {} -%}
  {%- for name, reach in reaches.items() -%}{%- do found.update({name: reach + horizon}) -%}{%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _check_redo_strategy(strategy, parameter) %}
  {#- A redo replaces the table's rows from a unit on: insert_overwrite by partitions, or merge by a predicate on
      Delta and Iceberg (_check_strategy admits merge only there). -#}
  {%- if strategy not in ['insert_overwrite', 'merge'] -%}
    {{ exceptions.raise_compiler_error("inc_join: " ~ parameter ~ " needs incremental_strategy='insert_overwrite' (or 'merge' on Delta and Iceberg; got "
       ~ dbt_inc_join._repr(strategy) ~ "): a redo replaces the table's rows from the restated unit on; any "
       ~ "other strategy would keep the rows it replaces, or write them twice."
       ~ (" A microbatch model is repaired by running its batches again from that unit (dbt run --select <model> "
          ~ "--event-time-start <unit> --event-time-end <after the last batch>), and the models that read it then with "
          ~ "the redo." if strategy == 'microbatch' else '')) }}
  {%- endif -%}
{% endmacro %}
