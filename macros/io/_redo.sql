{#- A redo (spec §14): a run that replaces the table's rows from a restated unit on (on_restated_input=redo, or
    var inc_join_redo_from): the check of the model's strategy before any data is read, where it starts, and the
    table emptied from there before the run writes; for SQL and Python models. -#}

{% macro _check_redo_config(mode) %}
  {#- Before any data is read: a redo (on_restated_input=redo, var inc_join_redo_from) replaces the table's rows
      from a unit on, which insert_overwrite (partitioned by the arrival column: _check_strategy) and merge on Delta
      and Iceberg can. -#}
  {%- if config.get('materialized') != 'incremental' -%}{{ return(none) }}{%- endif -%}
  {%- set parameters = [] -%}
  {%- if mode == 'redo' -%}{%- do parameters.append('on_restated_input=redo') -%}{%- endif -%}
  {%- if var('inc_join_redo_from', none) not in [none, ''] -%}{%- do parameters.append('var inc_join_redo_from') -%}{%- endif -%}
  {%- for parameter in parameters -%}
    {%- do dbt_inc_join._check_redo_strategy(config.get('incremental_strategy'), parameter) -%}
  {%- endfor -%}
{% endmacro %}

{% macro _redo_of(check, window) %}
  {#- The redo a run with on_restated_input=redo makes of its restated units, found now or earlier: start at the
      earliest (no output row a unit can change is placed before it, spec §14), or none when the window already
      starts there. -#}
  {%- if check.mode != 'redo' or not check.pending -%}{{ return(none) }}{%- endif -%}
  {%- set earliest = dbt_inc_join._parse_text_value(check.pending[0].unit, window.time_uom) -%}
  {%- if window.start is not none and earliest >= window.start -%}{{ return(none) }}{%- endif -%}
  {{ return({'start': earliest, 'reason': 'on_restated_input=redo: restated ' ~ dbt_inc_join._restated_text(check.pending, window.time_uom)}) }}
{% endmacro %}

{% macro _begin_redo(relation, inc_col, start, time_uom) %}
  {#- Before a redo writes: remember its start, then empty the table from it on (insert_overwrite replaces only
      the partitions it writes; one that the inputs no longer fill would keep its old rows). merge empties it in
      the run's own MERGE (_replace_window_sql): one commit, as any run's. -#}
  {%- set first = dbt_inc_join._unit_text(start) -%}
  {%- do dbt_inc_join._set_table_property(relation, 'inc_join.redo_from', first) -%}
  {%- if config.get('incremental_strategy') == 'merge' -%}{{ return(none) }}{%- endif -%}
  {%- set file_format = dbt_inc_join._file_format() -%}
  {%- set partitions = none if dbt_inc_join._deletes_rows(file_format) else run_query('SHOW PARTITIONS ' ~ relation).rows | map(attribute=0) | list -%}
  {%- for statement in dbt_inc_join._redo_drop_sql(relation, inc_col, first, file_format, partitions) -%}
    {%- do run_query(statement) -%}
  {%- endfor -%}
{% endmacro %}

{% macro _deletes_rows(file_format) %}
  {#- Delta and Iceberg delete rows by a predicate (one commit); parquet tables drop partitions. -#}
  {{ return(file_format in ['delta', 'iceberg']) }}
{% endmacro %}

{% macro _redo_drop_sql(relation, inc_col, first, file_format, partitions) %}
  {#- The statements that empty a table from the unit `first` on.
      partitions: SHOW PARTITIONS' rows of a parquet table ('RecDate=2025-03-06', or 'ts=2025-03-06 05%3A00%3A00':
      the catalog's, no data read); none on Delta and Iceberg, which delete by the arrival column. -#}
  {%- set column = dbt_inc_join._quote(inc_col) -%}
  {%- if dbt_inc_join._deletes_rows(file_format) -%}
    {{ return(['DELETE FROM ' ~ relation ~ ' WHERE ' ~ dbt_inc_join._arrival_compared_sql(column, '>=', "TIMESTAMP'" ~ first ~ "'", file_format)]) }}
  {%- endif -%}
  {%- set dropped = [] -%}
  {%- for row in partitions -%}
    {%- set value = row.split('=', 1)[1].replace('%3A', ':').replace('%20', ' ') -%}
    {%- if (value ~ ' 00:00:00')[:19] >= first -%}
      {%- do dropped.append('PARTITION (' ~ column ~ " = '" ~ value ~ "')") -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(['ALTER TABLE ' ~ relation ~ ' DROP IF EXISTS ' ~ dropped | join(', ')] if dropped else []) }}
{% endmacro %}
