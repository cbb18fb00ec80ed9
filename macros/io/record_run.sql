{#- The post-hook of a model that records its runs (spec §13, README "The run ledger"); its steps are in
    _run_record.sql, the ledger table in _ledger_table.sql. -#}

{% macro record_run() %}
  {{ return(adapter.dispatch('record_run', 'dbt_inc_join')()) }}
{% endmacro %}

{% macro default__record_run() %}
  {#- The post-hook of a model that records its runs; no-op for models that are not inc_join models. Runs after
      the materialization wrote the table, so a run that was killed before never has a record. Its statements:
      count the rows the run wrote per JoinType, write the record, then mirror it in the table property
      inc_join.committed (what the next run reads, _ledger_state). Returns no statement of its own. -#}
  {%- do dbt_inc_join._ledger_switch_check() -%}
  {%- if not execute -%}
    {%- do dbt_inc_join._ledger_dependency() -%}
    {{ return('') }}
  {%- endif -%}
  {%- if model is not defined or model.config.materialized not in ['incremental', 'table'] -%}
    {{ return('') }}
  {%- endif -%}
  {%- set properties = dbt_inc_join._table_properties(this) -%}
  {%- set record = dbt_inc_join._this_run(properties, true) -%}
  {%- if record is none -%}
    {{ return('') }}
  {%- endif -%}
  {%- do dbt_inc_join._reset_commit_metadata() -%}
  {%- set ledger = dbt_inc_join._ledger_for_this_model() -%}
  {%- do dbt_inc_join._ensure_ledger(ledger) -%}
  {%- set table_id = properties.get('inc_join.table_id') -%}
  {%- if table_id is none -%}
    {#- a table made before the model recorded its runs (or by dbt's own CREATE TABLE AS): from now on it has one -#}
    {%- set table_id = dbt_inc_join._new_table_id() -%}
    {%- do dbt_inc_join._set_table_property(this, 'inc_join.table_id', table_id) -%}
  {%- endif -%}
  {%- set run_key = dbt_inc_join._run_key(record, model.unique_id) -%}
  {%- do dbt_inc_join._refuse_concurrent_commit(record, run_key) -%}
  {%- set counted = dbt_inc_join._rows_per_join_type(record) -%}
  {%- do run_query(dbt_inc_join._ledger_insert_sql(ledger, record, table_id, run_key, counted)) -%}
  {%- if not record.empty -%}
    {#- what the next run compares its reads with (spec §14); a redo's mark, which the models that read this
        table see as restated from there on (_upstream_state) -#}
    {%- set mirrored = {} -%}
    {%- set fingerprints = record.get('fingerprints') -%}
    {%- if fingerprints -%}
      {#- the property holds what the next run compares ('next'); the ledger, every unit the run read -#}
      {%- if fingerprints.get('next') -%}
        {%- set fingerprints = dbt_inc_join._fingerprint_record(fingerprints.units, fingerprints.next, fingerprints.get('redone') or {}) -%}
      {%- endif -%}
      {%- do mirrored.update({'inc_join.fingerprints': tojson(fingerprints)}) -%}
    {%- endif -%}
    {#- the restated units no run has redone yet (spec §14): this run's finds join them, its window redoes them -#}
    {%- set before = properties.get('inc_join.outstanding') -%}
    {%- set outstanding = dbt_inc_join._still_outstanding(fromjson(before) if before else [], record.get('restated') or [],
                                                          record.window_start, record.empty) -%}
    {%- if outstanding or before -%}
      {%- do mirrored.update({'inc_join.outstanding': tojson(outstanding)}) -%}
    {%- endif -%}
    {%- do mirrored.update({'inc_join.committed': tojson({
        'window_start': record.window_start, 'window_end': record.window_end, 'rows_total': counted.rows_total,
        'run_key': run_key})}) -%}
    {#- the input versions the run read (spec §17): a later run lists the inputs' commits since. None read (the
        logs switched off, the inputs no longer Delta or Iceberg): none kept, so no later run lists commits from a
        version older than what this run read -#}
    {%- if record.get('input_versions') or properties.get('inc_join.input_versions') -%}
      {%- do mirrored.update({'inc_join.input_versions': tojson(record.get('input_versions') or [])}) -%}
    {%- endif -%}
    {%- if record.get('redo_from') -%}
      {%- do mirrored.update({'inc_join.redone': tojson({'from': record.redo_from, 'run_key': run_key})}) -%}
    {%- endif -%}
    {%- do dbt_inc_join._set_table_properties(this, mirrored) -%}
    {%- set pending = properties.get('inc_join.redo_from') -%}
    {%- if pending and (record.window_start is none or record.window_start <= pending) -%}
      {%- do run_query('ALTER TABLE ' ~ this ~ " UNSET TBLPROPERTIES IF EXISTS ('inc_join.redo_from')") -%}
    {%- endif -%}
  {%- endif -%}
  {{ return('') }}
{% endmacro %}
