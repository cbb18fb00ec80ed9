{#- The output window of a dbt run (spec §6): which units this run finalises, and why. -#}

{% macro output_window(a, b, inc_col='RecDate', time_uom='day', how='left', output_window_start=none,
                       output_window_end=none, max_window_units=none) %}
  {{ return(adapter.dispatch('output_window', 'dbt_inc_join')(a, b, inc_col, time_uom, how, output_window_start,
                                                           output_window_end, max_window_units)) }}
{% endmacro %}

{% macro default__output_window(a, b, inc_col, time_uom, how, output_window_start, output_window_end, max_window_units) %}
  {{ return(dbt_inc_join.spark__output_window(a, b, inc_col, time_uom, how, output_window_start, output_window_end,
                                          max_window_units)) }}
{% endmacro %}

{% macro spark__output_window(a, b, inc_col, time_uom, how, output_window_start, output_window_end, max_window_units) %}
  {#- start: argument > var inc_join_output_window_start > microbatch batch start > largest output arrival in
      this + 1 unit > earliest arrival of a (of a or b for how = full).
      end: argument > var inc_join_output_window_end > microbatch batch end − 1 unit > watermark; always capped
      at the availability watermark min(max a, max b), or at var inc_join_available_until when set; then at most
      max_window_units units from the start (argument > var inc_join_max_window_units).
      Returns a dict; the caller logs it. -#}
  {%- if not execute -%}
    {{ return({'start': none, 'end': none, 'empty': true, 'start_reason': 'parse', 'end_reason': 'parse',
               'watermark': none, 'a_max': none, 'b_max': none, 'time_uom': time_uom, 'units_behind': 0}) }}
  {%- endif -%}
  {%- set time_uom = dbt_inc_join._choice('time_uom', time_uom, ['day', 'hour', 'minute']) -%}
  {%- set how = dbt_inc_join._choice('how', how, ['inner', 'left', 'full', 'left_anti']) -%}
  {%- set a, b = dbt_inc_join._unfiltered(a), dbt_inc_join._unfiltered(b) -%}
  {%- set a_columns = adapter.get_columns_in_relation(dbt_inc_join._table_of(a, 'a')) -%}
  {%- set b_columns = adapter.get_columns_in_relation(dbt_inc_join._table_of(b, 'b')) -%}
  {{ return(dbt_inc_join._resolve_window(a, b, a_columns, b_columns, inc_col, time_uom, how, output_window_start,
                                     output_window_end, max_window_units)) }}
{% endmacro %}

{% macro _resolve_window(a, b, a_columns, b_columns, inc_col, time_uom, how, output_window_start, output_window_end,
                         max_window_units=none, more_inputs=[]) %}
  {#- output_window for inputs already read from the batch filter and described: inc_join calls this with the
      columns it described, so a run describes each input once. inc_join_many passes its first input as b and
      the others as more_inputs ({'relation', 'columns', 'inc_col'}): the watermark is the earliest of all. -#}
  {%- set inc_cols = dbt_inc_join._arrival_pair(inc_col) -%}
  {%- set a_column = dbt_inc_join._require_column(a_columns, inc_cols[0], 'inc_col', 'a') -%}
  {%- set b_column = dbt_inc_join._require_column(b_columns, inc_cols[1], 'inc_col', 'b') -%}
  {#- the output's arrival column, and the one of this, takes A's name -#}
  {%- set inc_col = inc_cols[0] -%}
  {%- set raw_types = [] -%}
  {%- for column, side in [(a_column, 'a'), (b_column, 'b')] -%}
    {%- set type_name = dbt_inc_join._type_name(column) -%}
    {%- do dbt_inc_join._check_arrival_type(type_name, inc_col, side, time_uom) -%}
    {%- do raw_types.append('date' if type_name == 'date' else ('timestamp_ntz' if type_name == 'timestamp_ntz' else 'timestamp')) -%}
  {%- endfor -%}
  {%- set extra_sides = [] -%}
  {%- for extra in more_inputs -%}
    {%- set column = dbt_inc_join._require_column(extra.columns, dbt_inc_join._arrival_pair(extra.inc_col)[1], 'inc_col', 'b') -%}
    {%- set type_name = dbt_inc_join._type_name(column) -%}
    {%- do extra_sides.append(('b' ~ loop.index, extra.relation, column, 'date' if type_name == 'date' else ('timestamp_ntz' if type_name == 'timestamp_ntz' else 'timestamp'))) -%}
  {%- endfor -%}
  {%- set batch = model.batch if (model is defined and model is not none and model.batch is defined) else none -%}

  {%- set explicit = dbt_inc_join._explicit_bounds(output_window_start, output_window_end, batch, time_uom) -%}
  {%- if dbt_inc_join._is_cte(a) or dbt_inc_join._is_cte(b) -%}
    {#- a unit test's given rows: the same rules, decided by SQL over them (_fixtures.sql) -#}
    {%- set more = [] -%}
    {%- for side in extra_sides -%}{%- do more.append([side[1], side[2]]) -%}{%- endfor -%}
    {{ return(dbt_inc_join._window_in_sql(a, b, a_column, b_column, inc_col, time_uom, how, explicit, max_window_units, more)) }}
  {%- endif -%}

  {#- start -#}
  {%- set start, start_reason = explicit.start, explicit.start_reason -%}
  {%- set ledger_reason = none -%}
  {%- if start is none and is_incremental() -%}
    {#- a model that records its runs starts after its last committed window (spec §13) -#}
    {%- set ledger = dbt_inc_join._ledger_for_this_model() -%}
    {%- if ledger is none -%}
      {%- set latest = dbt_inc_join._latest_output_arrival(this, inc_col, time_uom, none) -%}
      {%- set from_ledger = none -%}
    {%- else -%}
      {%- set committed = dbt_inc_join._committed_state(ledger, this, inc_col, time_uom) -%}
      {%- set latest = committed.latest -%}
      {%- set from_ledger = dbt_inc_join._ledger_start(committed.state, latest, inc_col, time_uom) -%}
    {%- endif -%}
    {%- if from_ledger is not none -%}
      {%- set start = from_ledger.start -%}
      {%- set start_reason = from_ledger.reason -%}
      {%- set ledger_reason = from_ledger.reason -%}
    {%- elif latest is not none -%}
      {%- set start = dbt_inc_join._shift(latest, 1, time_uom) -%}
      {%- set start_reason = 'max(' ~ inc_col ~ ') in ' ~ this ~ ' + 1 ' ~ time_uom -%}
    {%- endif -%}
  {%- endif -%}
  {%- set need_earliest = start is none -%}

  {#- the watermark (and the earliest arrival on a first run), in one query. An orchestrator that knows both
      inputs are loaded up to a unit (quiet days leave no rows to show it) declares it with a var instead. -#}
  {%- set declared = var('inc_join_available_until', none) -%}
  {%- set declared = none if declared in [none, ''] else dbt_inc_join._parse_bound(declared, 'inc_join_available_until', time_uom) -%}
  {%- set sides = [('a', a, a_column, raw_types[0]), ('b', b, b_column, raw_types[1])] + extra_sides -%}
  {%- set selects = ['1 AS one'] -%}
  {%- for side, relation, column, raw_type in sides -%}
    {%- set arrival = dbt_inc_join._truncate_sql(dbt_inc_join._quote(column.name), time_uom) -%}
    {%- set source = relation | string -%}
    {%- set recent = dbt_inc_join._arrival_range_sql(column.name, raw_type, start, none, time_uom) -%}
    {%- if declared is none -%}
      {%- do selects.append("(SELECT date_format(max(" ~ arrival ~ "), 'yyyy-MM-dd HH:mm:ss') FROM " ~ source ~ " WHERE " ~ recent ~ ") AS " ~ side ~ "_max") -%}
    {%- endif -%}
    {%- if need_earliest -%}
      {%- do selects.append("(SELECT date_format(min(" ~ arrival ~ "), 'yyyy-MM-dd HH:mm:ss') FROM " ~ source ~ " WHERE " ~ dbt_inc_join._quote(column.name) ~ " IS NOT NULL) AS " ~ side ~ "_min") -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set row = run_query('SELECT ' ~ selects | join(', ')).rows[0] if selects | length > 1 else none -%}
  {%- if declared is none -%}
    {%- set a_max = dbt_inc_join._parse_text_value(row['a_max'], time_uom) -%}
    {%- set b_max = dbt_inc_join._parse_text_value(row['b_max'], time_uom) -%}
    {#- several inputs: b_max is the earliest of their latest arrivals (none when one has none) -#}
    {%- set earliest = namespace(b_max=b_max) -%}
    {%- for side in extra_sides -%}
      {%- set latest = dbt_inc_join._parse_text_value(row[side[0] ~ '_max'], time_uom) -%}
      {%- set earliest.b_max = none if (earliest.b_max is none or latest is none) else [earliest.b_max, latest] | min -%}
    {%- endfor -%}
    {%- set b_max = earliest.b_max -%}
    {%- set watermark = none if (a_max is none or b_max is none) else [a_max, b_max] | min -%}
    {%- set watermark_text = dbt_inc_join._watermark_text(a_max, b_max) -%}
  {%- else -%}
    {%- set a_max, b_max, watermark = none, none, declared -%}
    {%- set watermark_text = declared ~ ' declared by var inc_join_available_until' -%}
  {%- endif -%}
  {%- if need_earliest -%}
    {%- set a_min = dbt_inc_join._parse_text_value(row['a_min'], time_uom) -%}
    {%- set b_min = dbt_inc_join._parse_text_value(row['b_min'], time_uom) -%}
    {%- set candidates = [a_min] + ([b_min] if how == 'full' else []) -%}
    {%- set candidates = candidates | reject('none') | list -%}
    {%- set start = candidates | min if candidates else none -%}
    {%- set start_reason = (ledger_reason ~ '; so from the ' if ledger_reason else '') ~ 'earliest arrival of ' ~ ('a or b' if how == 'full' else 'a') ~ ('' if ledger_reason else ' (first run or full refresh)') -%}
  {%- endif -%}

  {#- end -#}
  {%- set end, end_reason = explicit.end, explicit.end_reason -%}
  {%- if watermark is none -%}
    {%- set end = none -%}
    {%- set end_reason = ('no arrivals yet in a or b' if start is none else 'a or b has no arrival from ' ~ start ~ ' on yet') ~ ': watermark ' ~ watermark_text -%}
  {%- elif end is none -%}
    {%- set end = watermark -%}
    {%- set end_reason = 'availability watermark ' ~ watermark_text -%}
  {%- elif end > watermark -%}
    {%- set end_reason = end_reason ~ ' ' ~ end ~ ', capped at the availability watermark ' ~ watermark_text -%}
    {%- set end = watermark -%}
  {%- endif -%}
  {%- set empty = end is none or (start is not none and start > end) -%}
  {%- set capped = dbt_inc_join._cap_window(start, end, empty, max_window_units, time_uom) -%}
  {%- if capped.units_behind -%}
    {%- set end = capped.end -%}
    {%- set end_reason = end_reason ~ '; ' ~ capped.reason -%}
  {%- endif -%}
  {{ return({'start': start, 'end': end, 'empty': empty, 'start_reason': start_reason, 'end_reason': end_reason,
             'watermark': watermark, 'a_max': a_max, 'b_max': b_max, 'time_uom': time_uom,
             'units_behind': capped.units_behind}) }}
{% endmacro %}

{% macro _explicit_bounds(output_window_start, output_window_end, batch, time_uom) %}
  {#- The bounds a run is given rather than finds in the data: argument > var > microbatch batch (none where
      none is given), each with what decided it. -#}
  {%- set bounds = {'start': none, 'start_reason': none, 'end': none, 'end_reason': none} -%}
  {%- set start_var = var('inc_join_output_window_start', none) -%}
  {%- set end_var = var('inc_join_output_window_end', none) -%}
  {%- if output_window_start not in [none, ''] -%}
    {%- do bounds.update({'start': dbt_inc_join._parse_bound(output_window_start, 'output_window_start', time_uom), 'start_reason': 'argument output_window_start'}) -%}
  {%- elif start_var not in [none, ''] -%}
    {%- do bounds.update({'start': dbt_inc_join._parse_bound(start_var, 'inc_join_output_window_start', time_uom), 'start_reason': 'var inc_join_output_window_start'}) -%}
  {%- elif batch -%}
    {%- do bounds.update({'start': dbt_inc_join._parse_bound(batch.event_time_start, 'model.batch.event_time_start', time_uom), 'start_reason': 'microbatch batch start'}) -%}
  {%- endif -%}
  {%- if output_window_end not in [none, ''] -%}
    {%- do bounds.update({'end': dbt_inc_join._parse_bound(output_window_end, 'output_window_end', time_uom), 'end_reason': 'argument output_window_end'}) -%}
  {%- elif end_var not in [none, ''] -%}
    {%- do bounds.update({'end': dbt_inc_join._parse_bound(end_var, 'inc_join_output_window_end', time_uom), 'end_reason': 'var inc_join_output_window_end'}) -%}
  {%- elif batch -%}
    {%- set last_moment = batch.event_time_end - modules.datetime.timedelta(microseconds=1) -%}
    {%- do bounds.update({'end': dbt_inc_join._parse_bound(last_moment, 'model.batch.event_time_end', time_uom), 'end_reason': 'microbatch batch end - 1 ' ~ time_uom}) -%}
  {%- endif -%}
  {{ return(bounds) }}
{% endmacro %}

{% macro _unfiltered(relation) %}
  {#- The relation to read: without dbt's microbatch event-time filter, because the join reads its inputs with
      its own, wider bounds (look-back and waiting time) and a filter cut to the batch would lose partners.
      A sample limit (dbt run --empty) is kept. -#}
  {%- if relation.event_time_filter is defined and relation.event_time_filter -%}
    {{ return(api.Relation.create(database=relation.database, schema=relation.schema,
                                  identifier=relation.identifier, type=relation.type, limit=relation.limit)) }}
  {%- endif -%}
  {{ return(relation) }}
{% endmacro %}

{% macro _table_of(relation, side='a') %}
  {#- The plain table behind a relation, for metadata (describe): no batch filter, no sample limit; for a unit
      test's given rows, the table they stand for (_fixtures.sql). -#}
  {%- if dbt_inc_join._is_cte(relation) -%}
    {%- if not dbt_inc_join._in_unit_test() -%}
      {{ dbt_inc_join._fail(side ~ ' is the ephemeral model ' ~ relation ~ ': inc_join reads the columns and arrivals of its inputs from the warehouse before it writes the join. Materialize it as a view or table.') }}
    {%- endif -%}
    {{ return(dbt_inc_join._fixture_table(relation, side)) }}
  {%- endif -%}
  {%- if relation.identifier is defined and relation.identifier and (relation.limit is not none or relation.event_time_filter) -%}
    {{ return(api.Relation.create(database=relation.database, schema=relation.schema,
                                  identifier=relation.identifier, type=relation.type)) }}
  {%- endif -%}
  {{ return(relation) }}
{% endmacro %}
