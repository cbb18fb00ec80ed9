{#- A committed window computed again as its run's inputs were (spec §17): with var inc_join_audit set, `dbt show`
    of an inc_join model gives, per JoinType, the rows the table holds in the window, the rows one run over the
    inputs at the versions that window's run recorded gives (Delta VERSION AS OF, Iceberg snapshot), and the rows
    one run over the inputs as they are now gives. It answers "what did that run see?" after a restatement. -#}

{% macro _audit_window(text, time_uom, parameter='var inc_join_audit') %}
  {#- The audited window: one unit ('2025-03-05') or two ('2025-03-01..2025-03-05'); parameter: how the message
      names it (the var, or the Python function's argument). -#}
  {%- set parts = (text | string).split('..') -%}
  {%- if parts | length > 2 -%}
    {{ dbt_inc_join._fail(parameter ~ "='" ~ text ~ "': give one unit or two joined by '..' (e.g. '2025-03-01..2025-03-05').") }}
  {%- endif -%}
  {%- set start = dbt_inc_join._parse_bound(parts[0] | trim, parameter, time_uom) -%}
  {%- set end = dbt_inc_join._parse_bound(parts[-1] | trim, parameter, time_uom) -%}
  {%- if start > end -%}
    {{ dbt_inc_join._fail(parameter ~ "='" ~ text ~ "': its start is after its end.") }}
  {%- endif -%}
  {{ return({'start': start, 'end': end, 'empty': false, 'time_uom': time_uom}) }}
{% endmacro %}

{% macro _audit_record_sql(ledger, relation, table_id, window) %}
  {#- The last committed run of the table whose window holds the audited one: its window and input versions. The
      table by its name without quotes, in lower case (the Python audit is given it as the user spells it). -#}
  {{ return("SELECT date_format(window_start, 'yyyy-MM-dd HH:mm:ss'), date_format(window_end, 'yyyy-MM-dd HH:mm:ss'),"
            ~ " to_json(input_versions) FROM " ~ ledger
            ~ " WHERE lower(replace(relation, '`', '')) = " ~ dbt_inc_join._text_literal(dbt_inc_join._relation_key(relation))
            ~ " AND table_id = " ~ dbt_inc_join._text_literal(table_id) ~ " AND NOT empty"
            ~ " AND window_start <= " ~ dbt_inc_join._moment_literal(window.start)
            ~ " AND window_end >= " ~ dbt_inc_join._moment_literal(window.end)
            ~ " ORDER BY finished_at DESC LIMIT 1") }}
{% endmacro %}

{% macro _audit_versions_of(relation, ledger, table_id, window, found) %}
  {#- {input: {'relation', 'version'}} of the committed run whose window holds the audited one (found: the rows of
      _audit_record_sql); one message when the table records no runs (table_id none) or no committed run holds
      the window. -#}
  {%- if table_id is none -%}
    {{ dbt_inc_join._fail('inc_join_audit: ' ~ relation ~ ' has no run ledger record (its model needs the post-hook record_run, spec §13).') }}
  {%- endif -%}
  {%- if found | length == 0 -%}
    {{ dbt_inc_join._fail('inc_join_audit: no committed run of ' ~ relation ~ ' in ' ~ ledger ~ ' has a window that holds '
                          ~ dbt_inc_join._unit_text(window.start) ~ '..' ~ dbt_inc_join._unit_text(window.end)
                          ~ '; audit a window one run wrote (the ledger\'s window_start..window_end).') }}
  {%- endif -%}
  {%- set versions = {} -%}
  {%- for row in fromjson(found[0][2] or '[]') or [] -%}
    {%- do versions.update({row.input: {'relation': row.relation, 'version': row.version}}) -%}
  {%- endfor -%}
  {{ return(versions) }}
{% endmacro %}

{% macro _audit_versions(window) %}
  {#- _audit_versions_of the model's table, read from its ledger. -#}
  {%- set ledger = dbt_inc_join._ledger_for_this_model() -%}
  {%- set table_id = none if ledger is none else dbt_inc_join._table_properties(this).get('inc_join.table_id') -%}
  {%- set found = [] if table_id is none else run_query(dbt_inc_join._audit_record_sql(ledger, this, table_id, window)).rows -%}
  {{ return(dbt_inc_join._audit_versions_of(this, ledger, table_id, window, found)) }}
{% endmacro %}

{% macro _audit_counts_sql(table_rows, as_of_rows, now_rows, columns=['JoinType']) %}
  {#- Rows per JoinType (inc_join_many: per combination of its JoinType_<input> columns) of three queries side by
      side: the columns, table_rows, as_of_rows, now_rows. -#}
  {%- set keys = columns | map('string') | list -%}
  {%- set listed = keys | join(', ') -%}
  {%- set counted = [] -%}
  {%- for name, query in [('table_rows', table_rows), ('as_of_rows', as_of_rows), ('now_rows', now_rows)] -%}
    {%- do counted.append("SELECT " ~ listed ~ ", '" ~ name ~ "' AS counted FROM (" ~ query ~ ")") -%}
  {%- endfor -%}
  {{ return("SELECT " ~ listed ~ ", count_if(counted = 'table_rows') AS table_rows, count_if(counted = 'as_of_rows') AS as_of_rows,"
            ~ " count_if(counted = 'now_rows') AS now_rows FROM (" ~ counted | join(' UNION ALL ') ~ ")"
            ~ " GROUP BY " ~ listed ~ " ORDER BY " ~ listed) }}
{% endmacro %}

{% macro _audit_start(params_time_uom, text) %}
  {#- Before anything is read: only in `dbt show` or `dbt compile` (it must never replace the table's rows); the
      window and the versions of the committed run whose window holds it. -#}
  {%- if flags.WHICH not in ['show', 'compile'] -%}
    {{ dbt_inc_join._fail('var inc_join_audit is for dbt show (e.g. dbt show --select ' ~ model.name ~ ' --vars '
                          ~ "'{inc_join_audit: " ~ '"2025-03-05"' ~ "}'" ~ '), not dbt ' ~ flags.WHICH ~ '.') }}
  {%- endif -%}
  {%- set window = dbt_inc_join._audit_window(text, params_time_uom) -%}
  {{ return({'window': window, 'versions': dbt_inc_join._audit_versions(window)}) }}
{% endmacro %}

{% macro _audit_relation(relation, name, versions) %}
  {#- An input as the audited run read it: as of its recorded version, or as it is (no version recorded: a view, a
      parquet table). -#}
  {%- set recorded = versions.get(name) -%}
  {{ return(relation if recorded is none else dbt_inc_join._as_of(relation, recorded.version)) }}
{% endmacro %}

{% macro _audit_table_sql(relation, inc_col, window) %}
  {#- The table's rows in the audited window. -#}
  {{ return('SELECT * FROM ' ~ relation ~ ' WHERE ' ~ dbt_inc_join._arrival_range_sql(inc_col, 'timestamp', window.start,
                                                                                window.end, window.time_uom)) }}
{% endmacro %}

{% macro _audit_sql(a, b, params, inputs, plan, text) %}
  {#- The audit of inc_join. -#}
  {%- set audit = dbt_inc_join._audit_start(params.time_uom, text) -%}
  {%- set window = audit.window -%}
  {%- set choice = dbt_inc_join._plan_choice(false, 'an audit') -%}
  {%- set as_of_rows = dbt_inc_join._render_join(dbt_inc_join._audit_relation(a, 'a', audit.versions),
                                                 dbt_inc_join._audit_relation(b, 'b', audit.versions),
                                                 params, inputs, plan, window, choice) -%}
  {%- set now_rows = dbt_inc_join._render_join(a, b, params, inputs, plan, window, choice) -%}
  {{ return(dbt_inc_join._audit_counts_sql(dbt_inc_join._audit_table_sql(this, params.inc_col, window), as_of_rows, now_rows)) }}
{% endmacro %}

{% macro _audit_many_sql(a, a_columns, prepared, time_uom, output_select, include_waiting, text) %}
  {#- The audit of inc_join_many: counted per combination of the inputs' JoinType_<name> columns. -#}
  {%- set audit = dbt_inc_join._audit_start(time_uom, text) -%}
  {%- set window = audit.window -%}
  {%- set as_of = [] -%}
  {%- set plans = [] -%}
  {%- for item in prepared -%}
    {%- set copied = item.copy() -%}
    {%- do copied.update({'relation': dbt_inc_join._audit_relation(item.relation, item.name, audit.versions)}) -%}
    {%- do as_of.append(copied) -%}
    {%- do plans.append(dbt_inc_join._plan_choice(false, 'an audit')) -%}
  {%- endfor -%}
  {%- set columns = [] -%}
  {%- for item in prepared -%}{%- do columns.append('JoinType_' ~ item.name) -%}{%- endfor -%}
  {%- set as_of_rows = dbt_inc_join._render_many(dbt_inc_join._audit_relation(a, 'a', audit.versions), a_columns, as_of,
                                                 window, output_select, include_waiting, plans) -%}
  {%- set now_rows = dbt_inc_join._render_many(a, a_columns, prepared, window, output_select, include_waiting, plans) -%}
  {{ return(dbt_inc_join._audit_counts_sql(dbt_inc_join._audit_table_sql(this, prepared[0].params.inc_col, window),
                                           as_of_rows, now_rows, columns)) }}
{% endmacro %}

{% macro _select_all_sql(relation) %}
  {#- Every row of a relation (the Python audit's inputs as of a version, and its two runs' rows). -#}
  {{ return('SELECT * FROM ' ~ relation) }}
{% endmacro %}
