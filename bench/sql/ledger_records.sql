{#- One committed record per day of `source`'s table, per copy when `copies` (`relation` and `model` are SQL
    expressions, of copy.id then), its values in the ledger's column order. -#}
{% set moment = "CAST(%s AS TIMESTAMP)" % inc_col %}
{% set synthetic = "'synthetic record (bench/ledger.py)'" %}
{% set values = {
  "model": model,
  "relation": relation,
  "table_id": "'%s'" % table_id,
  "language": "'sql'",
  "time_uom": "'day'",
  "window_start": moment,
  "window_end": moment,
  "empty": "false",
  "start_reason": synthetic,
  "end_reason": synthetic,
  "watermark": moment,
  "a_max": moment,
  "b_max": moment,
  "units_behind": "CAST(0 AS BIGINT)",
  "rows_total": "rows_total",
  "join_type_rows": "join_type_rows",
  "started_at": moment ~ " + INTERVAL 1 HOUR",
  "finished_at": moment ~ " + INTERVAL 1 HOUR + INTERVAL 5 SECONDS",
  "invocation_id": "'synthetic'",
  "package_version": "'0.1.0'",
  "redo_from": "CAST(NULL AS TIMESTAMP)",
  "restated": "CAST(array() AS array<struct<input:string,unit:timestamp,rows_then:bigint,rows_now:bigint>>)",
  "fingerprints": "CAST(NULL AS STRING)",
  "plan": "CAST(NULL AS STRING)",
  "input_versions": "CAST(array() AS array<struct<input:string,relation:string,format:string,version:string>>)",
  "rows_read": "CAST(NULL AS map<string,bigint>)",
  "recorded_month": "date_format(%s, 'yyyy-MM')" % inc_col,
  "run_key": "concat('synthetic/', %s, '/', CAST(%s AS STRING))" % (relation, inc_col),
} %}
SELECT {% for column in columns %}{{ values[column] }} AS {{ column }}{{ ", " if not loop.last }}{% endfor %}
FROM (
  SELECT {{ inc_col }}, sum(n) AS rows_total, map_from_entries(collect_list(struct(JoinType, n))) AS join_type_rows
  FROM (SELECT {{ inc_col }}, CAST(JoinType AS INT) AS JoinType, count(*) AS n FROM {{ source }} GROUP BY 1, 2)
  GROUP BY {{ inc_col }}
) AS per_day
{%- if copies %} CROSS JOIN range(1, {{ copies + 1 }}) AS copy{% endif %}
