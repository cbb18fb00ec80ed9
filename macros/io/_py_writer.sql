{#- inc_join's writer for dbt-spark Python models: which models it writes, and the Python code it appends to
    theirs (the context the model reads, the write, the run's record); orchestration/python_models/model.py reads that
    context. -#}

{% macro _is_inc_join_python_model(compiled_code) %}
  {#- The model's config meta inc_join_writer (true or false) decides when set. Otherwise: the model's own code
      (before the part dbt appends) names inc_join_model or inc_join_many_model on a line that is not a comment, e.g.
      `from dbt_inc_join import inc_join_model` or `dbt_inc_join.inc_join_model(...)`. A model that reaches
      inc_join_model only through a module of its own sets meta inc_join_writer: true. -#}
  {%- set meta = config.get('meta') or {} -%}
  {%- set chosen = meta.get('inc_join_writer') if meta is mapping else none -%}
  {%- if chosen is not none -%}
    {%- if chosen is not boolean -%}
      {{ dbt_inc_join._fail('meta inc_join_writer must be true or false (got ' ~ dbt_inc_join._repr(chosen) ~ ').') }}
    {%- endif -%}
    {{ return(chosen) }}
  {%- endif -%}
  {%- set own_code = compiled_code.split('# this part is dbt logic for get ref work')[0] -%}
  {{ return(modules.re.search('(?m)^[^#\\n]*\\binc_join(_many)?_model\\b', own_code) is not none) }}
{% endmacro %}

{% macro _py_text(value) -%}
  {#- A Python literal of a config value or var: a string, or None. -#}
  {{- 'None' if value is none or value == '' else value | string | tojson -}}
{%- endmacro %}

{% macro _py_write_table(temporary, relation, compiled_code) -%}
  {#- Over 60 lines on purpose: a template of the Python code dbt-spark submits (the model's code, the context
      the model reads, the write, the run's record), read top to bottom like the program it renders. -#}
  {%- set file_format = dbt_inc_join._file_format() -%}
  {%- set partition_by = config.get('partition_by') or [] -%}
  {%- if partition_by is string -%}{%- set partition_by = [partition_by] -%}{%- endif -%}
  {#- The incremental materialization's temporary relation is a plain table for Python models (a temp view
      cannot be schema-qualified); it is dropped after the insert, so it needs no partitions. -#}
  {%- if temporary -%}{%- set partition_by = [] -%}{%- endif -%}
  {%- set batch = model.batch if model.batch is defined else none -%}
  {#- a model that records its runs (spec §13): its incremental runs start from the ledger, its first run creates
      the table before writing it, and its run's record goes to the post-hook as a table property -#}
  {%- set ledger = dbt_inc_join._ledger_for_this_model() -%}
  {%- set ledger_state = dbt_inc_join._ledger_state(ledger, this) if (ledger is not none and temporary) else none -%}
  {%- set create_first = ledger is not none and not temporary and file_format not in ['delta', 'iceberg', 'hudi'] -%}
  {%- set upstream = dbt_inc_join._upstream_state() if ledger is not none else {'redone': {}, 'outstanding': {}} -%}
  {#- the open state's tag follows the output's commit (spec §18): a post-hook, which the SQL macro sets in its
      models' config while parsing. A Python model's config comes from its own code, so the hook is added here to
      the list the materialization runs after its commit (the context's post_hooks). -#}
  {%- if config.get('materialized') == 'incremental' and post_hooks is defined -%}
    {%- do post_hooks.append({'sql': '{{ dbt_inc_join._open_state_after() }}', 'transaction': true}) -%}
  {%- endif -%}
  {%- set quoted_partitions = [] -%}
  {#- a column quoted; an Iceberg transform (days(RecDate)) as written -#}
  {%- set transforms = dbt_inc_join._partition_transforms(partition_by) -%}
  {%- for column in partition_by -%}
    {%- do quoted_partitions.append(column if column in transforms else dbt_inc_join._quote(column)) -%}
  {%- endfor -%}
{{ compiled_code }}
# --- inc_join's writer for dbt-spark Python models ---
# each DataFrame that dbt.ref and dbt.source load, with its table's name: an input's version is its table's (spec §17)
_inc_join_loaded = []


def _inc_join_load(name):
    frame = spark.table(name)
    _inc_join_loaded.append((frame, name))
    return frame


dbt = dbtObj(_inc_join_load)
dbt.batch = None
dbt.inc_join_context = {
    "materialized": {{ dbt_inc_join._py_text(config.get('materialized')) }},
    "incremental_strategy": {{ dbt_inc_join._py_text(config.get('incremental_strategy')) }},
    "batch_size": {{ dbt_inc_join._py_text(config.get('batch_size')) }},
    "lookback": {{ dbt_inc_join._py_json(config.get('lookback')) }},
    "concurrent_batches": {{ dbt_inc_join._py_json(config.get('concurrent_batches')) }},
    "batch_start": {{ dbt_inc_join._py_text(batch.event_time_start.isoformat() if batch else none) }},
    "batch_end": {{ dbt_inc_join._py_text(batch.event_time_end.isoformat() if batch else none) }},
    "output_window_start": {{ dbt_inc_join._py_text(var('inc_join_output_window_start', none)) }},
    "output_window_end": {{ dbt_inc_join._py_text(var('inc_join_output_window_end', none)) }},
    "available_until": {{ dbt_inc_join._py_text(var('inc_join_available_until', none)) }},
    "max_window_units": {{ dbt_inc_join._py_json(var('inc_join_max_window_units', none)) }},
    "invocation_id": {{ dbt_inc_join._py_text(invocation_id) }},
    "unique_id": {{ dbt_inc_join._py_text(model.unique_id) }},
    "ledger": {{ dbt_inc_join._py_json(ledger_state) }},
    "records_runs": {{ 'False' if ledger is none else 'True' }},
    "ledger_relation": {{ dbt_inc_join._py_text(ledger) }},
    "on_restated_input": {{ dbt_inc_join._py_text(var('inc_join_on_restated_input', none)) }},
    "restated_horizon": {{ dbt_inc_join._py_json(var('inc_join_restated_horizon', none)) }},
    "redo_from": {{ dbt_inc_join._py_text(var('inc_join_redo_from', none)) }},
    "partition_by": {{ dbt_inc_join._py_json(config.get('partition_by')) }},
    "file_format": {{ dbt_inc_join._py_text(dbt_inc_join._file_format()) }},
    "upstream_redos": {{ dbt_inc_join._py_json(upstream.redone) }},
    "upstream_outstanding": {{ dbt_inc_join._py_json(upstream.outstanding) }},
    "table_versions": {{ dbt_inc_join._py_json(dbt_inc_join._upstream_versions() if dbt_inc_join._checks_inputs() and dbt_inc_join._reads_input_logs() else {}) }},
    "loaded": _inc_join_loaded,
}
df = model(dbt, spark)

# a classic or a Spark Connect DataFrame (pyspark 3.5's Connect DataFrame does not derive from pyspark.sql's)
if not any(c.__name__ == "DataFrame" and c.__module__.startswith("pyspark.sql.") for c in type(df).__mro__):
    if hasattr(df, "to_spark"):  # pyspark.pandas
        df = df.to_spark()
    else:
        df = spark.createDataFrame(df)  # pandas
{%- if create_first %}
_inc_join_fields = ", ".join("`" + f.name.replace("`", "``") + "` " + f.dataType.simpleString() for f in df.schema.fields)
spark.sql(
    "CREATE TABLE " + {{ relation | string | tojson }} + " (" + _inc_join_fields + ") USING " + {{ file_format | tojson }}
    {%- if partition_by %}
    + " PARTITIONED BY (" + {{ quoted_partitions | join(', ') | tojson }} + ")"
    {%- endif %}
    + " TBLPROPERTIES ('inc_join.table_id' = " + {{ dbt_inc_join._text_literal(dbt_inc_join._new_table_id()) | tojson }} + ")"
)
_inc_join_columns = ["`" + c.replace("`", "``") + "`" for c in spark.table({{ relation | string | tojson }}).columns]
df.select(*_inc_join_columns).write.insertInto({{ relation | string | tojson }}, overwrite=True)
{%- elif file_format in ['delta', 'iceberg'] %}
# the format's own atomic replace, one commit: CREATE OR REPLACE TABLE AS SELECT over a temporary view of the rows.
# saveAsTable's overwrite drops and re-creates a Delta table on Spark 3.5 (a partitioned one then fails on RECOVER
# PARTITIONS), and writeTo(...).createOrReplace() re-analyses a statement run with DataFrame arguments, whose views
# are gone by then (TABLE_OR_VIEW_NOT_FOUND, Spark 3.5 and 4.1).
import uuid as _inc_join_uuid

_inc_join_view = "_inc_join_rows_" + _inc_join_uuid.uuid4().hex
df.createOrReplaceTempView(_inc_join_view)
_inc_join_create = (
    "CREATE OR REPLACE TABLE " + {{ relation | string | tojson }} + " USING " + {{ file_format | tojson }}
    {%- if partition_by %}
    + " PARTITIONED BY (" + {{ quoted_partitions | join(', ') | tojson }} + ")"
    {%- endif %}
)
{%- if temporary and file_format == 'delta' %}
# an incremental run's temporary table, which dbt-spark inserts from and then drops. Where the package's own helpers
# run this code (in dbt's process: Spark outside Databricks) it is a parquet table, which costs no Delta commit and
# no log to read back (about 0.9 s a run on small tables). Elsewhere (Databricks, where Unity Catalog manages Delta
# tables only) it is a Delta table. (Iceberg keeps its own format: its session catalog drops a parquet table's entry
# but not its files, and the next CREATE TABLE there would fail.)
if globals().get("_inc_join_in_process"):
    spark.sql("DROP TABLE IF EXISTS " + {{ relation | string | tojson }})  # a killed run's
    _inc_join_create = "CREATE TABLE " + {{ relation | string | tojson }} + " USING parquet"
{%- endif %}
spark.sql(_inc_join_create + " AS SELECT * FROM " + _inc_join_view)
spark.catalog.dropTempView(_inc_join_view)
{%- else %}
writer = df.write.mode("overwrite").format({{ file_format | tojson }})
{%- if partition_by %}
writer = writer.partitionBy(*{{ partition_by | tojson }})
{%- endif %}
writer.saveAsTable({{ relation | string | tojson }})
{%- endif %}
# the rows of the open state of a run that keeps it (spec §18), after the output's: the post-hook tags them
_inc_join_state = getattr(dbt, "inc_join_state", None)
if _inc_join_state is not None:
    _inc_join_state()
{%- if ledger is not none %}
_inc_join_run = getattr(dbt, "inc_join_run", None)
if _inc_join_run is not None:
    import json as _inc_join_json
    if globals().get("_inc_join_shares_session"):
        # dbt's own session (method: session): the record waits for record_run in the session's settings, so a run
        # commits to its table only when it writes rows (a table property is a commit of its own on Delta); in hex
        # digits, which Spark's redaction of settings never matches (_run_setting_key)
        spark.conf.set({{ dbt_inc_join._run_setting_key() | tojson }}, _inc_join_json.dumps(_inc_join_run).encode("ascii").hex())
    else:
        _inc_join_text = _inc_join_json.dumps(_inc_join_run).replace("\\", "\\\\").replace("'", "\\'")
        spark.sql("ALTER TABLE " + {{ this | string | tojson }} + " SET TBLPROPERTIES ('inc_join.run' = '" + _inc_join_text + "')")
{%- endif %}
{%- endmacro %}

{% macro _py_json(value) -%}
  {#- A Python literal of a JSON value (a dict, a number, or None). -#}
  {{- 'None' if value is none else '__import__("json").loads(' ~ (value | tojson | tojson) ~ ')' -}}
{%- endmacro %}
