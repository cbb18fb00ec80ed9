{#- The checks of a call as a whole (spec §7): its arguments by name against the arguments table, each checked by
    its table rule, the rules between them (_check_parameters), and the model-level checks; single values are
    checked in _validation.sql. The core renders _check_parameters in Python's spelling (plan/validation.py). -#}

{% macro _call_arguments(entry, signature, positional, keywords) %}
  {#- The arguments of one call of the public macro `entry` by name: the table's defaults
      (macros/tables/generated/_arguments.sql), then those given by position after the macro's own `signature`, in the
      table's order, then those given by name. A wrong name is one error that names it and the accepted names,
      raised when running (like every check: dbt renders each model while parsing the project). -#}
  {%- set rows = [] -%}
  {%- for row in dbt_inc_join._arguments() -%}
    {%- if entry in row.macros and row.name not in signature -%}{%- do rows.append(row) -%}{%- endif -%}
  {%- endfor -%}
  {%- set accepted = signature + rows | map(attribute='name') | list -%}
  {%- if execute and positional | length > rows | length -%}
    {{ exceptions.raise_compiler_error(entry ~ ': takes ' ~ accepted | length ~ ' arguments (got ' ~ (signature | length + positional | length) ~ ' by position); accepted arguments: ' ~ accepted | join(', ') ~ '.') }}
  {%- endif -%}
  {%- set arguments = {} -%}
  {%- for row in rows -%}
    {%- do arguments.update({row.name: positional[loop.index0] if loop.index0 < positional | length else row.default}) -%}
  {%- endfor -%}
  {%- for name, value in keywords.items() -%}
    {%- if execute and name not in arguments -%}
      {{ exceptions.raise_compiler_error(dbt_inc_join._unknown_argument_message(entry, name, accepted)) }}
    {%- endif -%}
    {%- if execute and name in (rows[:positional | length] | map(attribute='name') | list) -%}
      {{ exceptions.raise_compiler_error(entry ~ ": argument '" ~ name ~ "' given twice, by position and by name.") }}
    {%- endif -%}
    {%- do arguments.update({name: value}) -%}
  {%- endfor -%}
  {{ return(arguments) }}
{% endmacro %}

{% macro _unknown_argument_message(entry, name, accepted, spelling='sql') %}
  {#- An argument of a name the public macro or Python function `entry` does not take: its accepted names, and
      the nearest one when a typo away (_missing_column_hint). -#}
  {%- set known = [] -%}
  {%- for argument in accepted -%}{%- do known.append({'name': argument}) -%}{%- endfor -%}
  {{ return(entry ~ ": unknown argument '" ~ name ~ "'; accepted arguments: " ~ accepted | join(', ') ~ '.'
            ~ dbt_inc_join._missing_column_hint(known, name, 'argument', spelling)) }}
{% endmacro %}

{% macro _argument(name) %}
  {#- One row of the arguments table, by name. -#}
  {{ return(dbt_inc_join._arguments() | selectattr('name', 'equalto', name) | first) }}
{% endmacro %}

{% macro _check_argument(name, value, spelling='sql') %}
  {#- An argument checked by its table row's rule (choice, flag, window_length, flag_or_auto), normalised. -#}
  {%- set row = dbt_inc_join._argument(name) -%}
  {%- if row.check == 'choice' -%}
    {{ return(dbt_inc_join._choice(name, value, row.accepted, spelling)) }}
  {%- elif row.check == 'flag' -%}
    {{ return(dbt_inc_join._flag(name, value, spelling)) }}
  {%- elif row.check == 'window_length' -%}
    {{ return(dbt_inc_join._window_length(name, value, spelling)) }}
  {%- elif row.check == 'flag_or_auto' -%}
    {{ return(dbt_inc_join._flag_or_auto(name, value, spelling)) }}
  {%- endif -%}
  {{ exceptions.raise_compiler_error('inc_join: no table rule checks ' ~ name ~ ' (it has a check of its own).') }}
{% endmacro %}

{% macro _check_parameters(given, spelling='sql') %}
  {#- The arguments of one join by name (given), those not given at the table's defaults, checked and
      normalised (the window's own arguments are checked where the window is resolved). -#}
  {%- set arguments = {} -%}
  {%- for row in dbt_inc_join._arguments() if row.joined -%}
    {%- do arguments.update({row.name: given.get(row.name, row.default)}) -%}
  {%- endfor -%}
  {%- set inc_cols = dbt_inc_join._arrival_pair(arguments.inc_col, spelling) -%}
  {%- set key_lists = dbt_inc_join._key_pairs(arguments.join_cols, spelling) -%}
  {%- set keys, keys_b = key_lists[0], key_lists[1] -%}
  {%- for arrival, names in [(inc_cols[0], keys), (inc_cols[1], keys_b)] -%}
    {%- if (arrival | lower) in (names | map('lower') | list) -%}
      {{ dbt_inc_join._fail('join_cols must not contain the arrival column inc_col=' ~ dbt_inc_join._q(arrival, spelling) ~ '.', 'join_cols_arrival', spelling) }}
    {%- endif -%}
  {%- endfor -%}
  {%- set condition = dbt_inc_join._join_cond_text(arguments.join_cond, spelling) -%}
  {%- set how = dbt_inc_join._check_argument('how', arguments.how, spelling) -%}
  {%- set enforce = dbt_inc_join._check_argument('enforce_sliding_join_window', arguments.enforce_sliding_join_window, spelling) -%}
  {%- set partner = dbt_inc_join._check_argument('partner', arguments.partner, spelling) -%}
  {%- set order_by = dbt_inc_join._partner_order_by(arguments.partner_order_by, partner, spelling) -%}
  {%- set aggregates = dbt_inc_join._aggregates(arguments.aggregate, spelling) -%}
  {%- set fills = dbt_inc_join._null_fill(arguments.null_fill, aggregates, spelling) -%}
  {%- set many = dbt_inc_join._check_argument('many_rows_per_key', arguments.many_rows_per_key, spelling) -%}
  {%- do dbt_inc_join._check_row_mode(how, partner, aggregates | length > 0, many, enforce, spelling) -%}
  {%- set late = dbt_inc_join._check_argument('late_match_time', arguments.late_match_time, spelling) -%}
  {%- if late -%}
    {%- do dbt_inc_join._check_late_matches(how, partner, aggregates | length > 0, enforce, spelling) -%}
  {%- endif -%}
  {%- set mode = 'aggregate' if aggregates else partner -%}
  {{ return({
      'join_cols': keys,
      'join_cols_b': keys_b,
      'inc_col': inc_cols[0],
      'inc_cols': inc_cols,
      'join_cond': condition,
      'how': how,
      'look_back_time': dbt_inc_join._check_argument('look_back_time', arguments.look_back_time, spelling),
      'max_waiting_time': dbt_inc_join._check_argument('max_waiting_time', arguments.max_waiting_time, spelling),
      'time_uom': dbt_inc_join._check_argument('time_uom', arguments.time_uom, spelling),
      'enforce_sliding_join_window': enforce,
      'include_waiting': dbt_inc_join._check_argument('include_waiting', arguments.include_waiting, spelling),
      'output_select': dbt_inc_join._output_select(arguments.output_select, aggregates | length > 0, spelling),
      'suffixes': dbt_inc_join._suffixes(arguments.suffixes, spelling),
      'partner': partner,
      'partner_order_by': order_by,
      'aggregate': aggregates,
      'null_fill': fills,
      'many_rows_per_key': many,
      'late_match_time': late,
      'mode': mode,
  }) }}
{% endmacro %}

{% macro _partner_order_by(value, partner, spelling='sql') %}
  {#- spec §11: the columns that order the partners, for partner = first or last only. -#}
  {%- set order_by = [] if value is none else dbt_inc_join._name_list('partner_order_by', value, spelling) -%}
  {%- if order_by and partner == 'all' -%}
    {{ dbt_inc_join._fail("partner_order_by orders the partners for partner='first' or 'last'; with partner='all' every partner is a row of its own (set partner, or drop partner_order_by).", 'row_mode', spelling) }}
  {%- endif -%}
  {{ return(order_by) }}
{% endmacro %}

{% macro _check_row_mode(how, partner, aggregates, many, enforce, spelling='sql') %}
  {#- spec §11: aggregate takes every partner of an A row; one row per A row needs the sliding window. -#}
  {%- if aggregates and partner != 'all' -%}
    {{ dbt_inc_join._fail("aggregate combines all partners of an A row, so partner must be 'all' (got partner='" ~ partner ~ "'); use one or the other.", 'row_mode', spelling) }}
  {%- endif -%}
  {%- if aggregates and how not in ['left', 'inner'] -%}
    {{ dbt_inc_join._fail("aggregate gives one row per A row, so how must be 'left' or 'inner' (got how='" ~ how ~ "').", 'row_mode', spelling) }}
  {%- endif -%}
  {%- if not enforce and (partner != 'all' or aggregates or many is sameas true) -%}
    {%- set used = 'aggregate' if aggregates else ('many_rows_per_key' if partner == 'all' else 'partner') -%}
    {{ dbt_inc_join._fail(used ~ " needs the sliding join window; enforce_sliding_join_window=False (the compatibility mode) only supports partner='all' without aggregate.", 'row_mode', spelling) }}
  {%- endif -%}
{% endmacro %}

{% macro _check_late_matches(how, partner, aggregates, enforce, spelling='sql') %}
  {#- spec §10: late matches pair a timed-out A row with later B rows, one row per pair. -#}
  {%- if how == 'left_anti' -%}
    {{ dbt_inc_join._fail("late_match_time pairs timed-out A rows with partners that came later, but how='left_anti' outputs no pairs; use how='left' (or late_match_time=0).", 'row_mode', spelling) }}
  {%- endif -%}
  {%- if partner != 'all' or aggregates -%}
    {%- set used = 'aggregate' if aggregates else "partner='" ~ partner ~ "'" -%}
    {{ dbt_inc_join._fail("late_match_time needs partner='all' without aggregate (got " ~ used ~ "): a late partner is a row of its own, and one row per A row would have to change after it was final.", 'row_mode', spelling) }}
  {%- endif -%}
  {%- if not enforce -%}
    {{ dbt_inc_join._fail("late_match_time needs the sliding join window; enforce_sliding_join_window=False (the compatibility mode) has no window to be late for.", 'row_mode', spelling) }}
  {%- endif -%}
{% endmacro %}

{% macro _check_model_settings(settings, true_text) %}
  {#- Model-level checks, of SQL and Python models alike (orchestration/python_models/model.py renders this):
      provisional rows in a kept table, a strategy that cannot keep the output's rows once, and microbatch
      batches finer than the unit. true_text: how the model's language spells true. -#}
  {%- if settings.include_waiting and settings.materialized == 'incremental' -%}
    {{ dbt_inc_join._fail("include_waiting=" ~ true_text ~ " in an incremental model would store a_waiting rows, which are provisional (a later run emits the same A row again as matched or timed out). Use include_waiting only in a view or table model that shows what is currently waiting; see the README, 'Currently waiting'.") }}
  {%- endif -%}
  {%- if settings.materialized == 'incremental' -%}
    {%- do dbt_inc_join._check_strategy(settings) -%}
  {%- endif -%}
  {%- set batch_size = settings.batch_size -%}
  {%- set order = ['minute', 'hour', 'day', 'month', 'year'] -%}
  {%- if batch_size and (batch_size | lower) in order and order.index(batch_size | lower) < order.index(settings.time_uom) -%}
    {{ dbt_inc_join._fail("batch_size='" ~ batch_size ~ "' is finer than time_uom='" ~ settings.time_uom ~ "'; a batch must cover whole units: use batch_size '" ~ settings.time_uom ~ "' or coarser, or a finer time_uom.") }}
  {%- endif -%}
{% endmacro %}

{% macro _check_strategy(settings) %}
  {#- An incremental model's strategy must replace exactly its output window (every row whose arrival falls in
      it): by partitions of the arrival column, or on Delta and Iceberg by a predicate (merge, _replace_window_sql).
      dbt-spark's default strategy is append. -#}
  {%- set strategy = settings.incremental_strategy or 'append' -%}
  {%- set file_format = settings.file_format or 'parquet' -%}
  {%- set arrival = settings.arrival_column -%}
  {%- set use = "Use incremental_strategy='insert_overwrite' with partition_by=['" ~ arrival ~ "']" -%}
  {%- if strategy == 'merge' and file_format not in ['delta', 'iceberg'] -%}
    {{ dbt_inc_join._fail("incremental_strategy='merge' replaces the output window by a predicate on " ~ arrival ~ " on Delta and Iceberg tables only (file_format=" ~ dbt_inc_join._repr(file_format) ~ "). " ~ use ~ "; see the README, 'Incremental strategies'.") }}
  {%- endif -%}
  {%- if strategy == 'merge' and not settings.merge_replaces_window -%}
    {{ dbt_inc_join._fail("incremental_strategy='merge' needs the dispatch entry of the README's step 2 (search_order: [<your project>, 'dbt_inc_join', 'dbt']): through it the package's MERGE replaces the output window; dbt-spark's own MERGE without a unique_key would insert a window's rows again when it is re-run. Add the entry, or use incremental_strategy='insert_overwrite' with partition_by=['" ~ arrival ~ "'].") }}
  {%- endif -%}
  {%- if strategy in ['insert_overwrite', 'microbatch'] and not dbt_inc_join._partitioned_by_arrival(settings.partition_by, arrival, settings.time_uom) -%}
    {{ dbt_inc_join._fail("incremental_strategy='" ~ strategy ~ "' needs partition_by=['" ~ arrival ~ "'] (the output's arrival column; got " ~ dbt_inc_join._repr(settings.partition_by) ~ "): Spark's INSERT OVERWRITE replaces every partition the window writes, so a table not partitioned by the arrival column loses its rows outside the window." ~ (" On Delta or Iceberg, incremental_strategy='merge' replaces the window in a table partitioned otherwise or not at all." if file_format in ['delta', 'iceberg'] else '')) }}
  {%- endif -%}
  {%- set transforms = dbt_inc_join._partition_transforms(settings.partition_by) -%}
  {%- if transforms and file_format != 'iceberg' -%}
    {{ dbt_inc_join._fail("partition_by=" ~ dbt_inc_join._repr(settings.partition_by) ~ " has a partition transform (" ~ transforms | join(', ') ~ "), which only Iceberg tables take (file_format=" ~ dbt_inc_join._repr(file_format) ~ "). " ~ use ~ ".") }}
  {%- endif -%}
  {%- if transforms and strategy in ['insert_overwrite', 'microbatch'] and not settings.get('partition_clause_by_package', true) -%}
    {{ dbt_inc_join._fail("incremental_strategy='" ~ strategy ~ "' with partition_by=" ~ dbt_inc_join._repr(settings.partition_by) ~ " needs the dispatch entry of the README's step 2 (search_order: [<your project>, 'dbt_inc_join', 'dbt']): dbt-spark's INSERT OVERWRITE would name the partition " ~ transforms | join(', ') ~ ", which Spark cannot parse when the table is listed as a Hive table (Iceberg's SparkSessionCatalog). Add the entry, or use partition_by=['" ~ arrival ~ "'].") }}
  {%- endif -%}
  {%- if strategy == 'append' and settings.records_runs and file_format in ['delta', 'iceberg'] -%}
    {{ dbt_inc_join._fail("incremental_strategy='append' in a model that records its runs on " ~ file_format ~ ": a run whose commit landed but whose ledger record did not (killed between the two) is done again by the next run, and append would add its rows twice. " ~ use ~ ", or 'merge'.") }}
  {%- endif -%}
{% endmacro %}

{% macro _partition_transforms(partition_by) %}
  {#- The entries of partition_by that are partition transforms (days(col), bucket(4, col), ...): Iceberg's. -#}
  {%- set entries = [partition_by] if partition_by is string else (partition_by or []) -%}
  {%- set found = [] -%}
  {%- for entry in entries if modules.re.match('^\\s*\\w+\\s*\\(', entry | string) -%}
    {%- do found.append(entry) -%}
  {%- endfor -%}
  {{ return(found) }}
{% endmacro %}

{% macro _partitioned_by_arrival(partition_by, arrival, time_uom) %}
  {#- Whether partition_by names the arrival column, or an Iceberg transform of it no coarser than the unit
      (days(col) for day or finer, hours(col) for hour or finer): an overwrite then replaces whole units. -#}
  {%- set entries = [partition_by] if partition_by is string else (partition_by or []) -%}
  {%- set transforms = {'day': ['days', 'day', 'hours', 'hour'], 'hour': ['hours', 'hour'], 'minute': []} -%}
  {%- for entry in entries -%}
    {%- set found = modules.re.match('^\\s*(?:(\\w+)\\s*\\(\\s*)?`?([^`()]+?)`?\\s*\\)?\\s*$', entry | string) -%}
    {%- if found and found.group(2) | lower == arrival | lower
           and (found.group(1) is none or found.group(1) | lower in transforms.get(time_uom, [])) -%}
      {{ return(true) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(false) }}
{% endmacro %}

{% macro _on_restated_input_mode(argument) %}
  {#- What a run does with restated units: var inc_join_on_restated_input > argument > warn. -#}
  {%- set accepted = dbt_inc_join._argument('on_restated_input').accepted -%}
  {%- set from_var = var('inc_join_on_restated_input', none) -%}
  {%- if from_var not in [none, ''] -%}
    {{ return(dbt_inc_join._choice('inc_join_on_restated_input', from_var, accepted)) }}
  {%- endif -%}
  {%- if argument is none -%}{{ return('warn') }}{%- endif -%}
  {{ return(dbt_inc_join._choice('on_restated_input', argument, accepted)) }}
{% endmacro %}

{% macro _restated_horizon(argument) %}
  {#- How many units before its read ranges a run also compares (spec §14): var inc_join_restated_horizon >
      argument > 0. -#}
  {%- set from_var = var('inc_join_restated_horizon', none) -%}
  {%- if from_var not in [none, ''] -%}
    {{ return(dbt_inc_join._window_length('inc_join_restated_horizon', from_var)) }}
  {%- endif -%}
  {%- if argument is none -%}{{ return(0) }}{%- endif -%}
  {{ return(dbt_inc_join._window_length('restated_horizon', argument)) }}
{% endmacro %}
