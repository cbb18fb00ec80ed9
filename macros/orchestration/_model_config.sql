{#- The model-level checks of a dbt model, on what its config and the project say (plan's _check_model_settings
    holds the rules, which Python models render with their own settings). -#}

{% macro _check_model_config(settings) %}
  {#- Model-level checks on the model's config (_check_model_settings). settings: include_waiting, time_uom and
      inc_col (the output's arrival column) of the call. -#}
  {%- set strategy = config.get('incremental_strategy') -%}
  {%- set entry = dbt_inc_join._dispatch_reaches_package() -%}
  {%- do dbt_inc_join._check_model_settings({
      'materialized': config.get('materialized'),
      'incremental_strategy': strategy,
      'batch_size': config.get('batch_size'),
      'include_waiting': settings.include_waiting,
      'time_uom': settings.time_uom,
      'arrival_column': settings.inc_col,
      'partition_by': config.get('partition_by'),
      'file_format': dbt_inc_join._file_format(),
      'records_runs': dbt_inc_join._ledger_for_this_model() is not none,
      'merge_replaces_window': strategy == 'merge' and entry,
      'partition_clause_by_package': dbt_inc_join._on_databricks() or entry}, 'true') -%}
{% endmacro %}
