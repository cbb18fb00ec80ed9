{#- The queries of suggest_windows (sizing/spark.py renders and runs them too): rows per
    (keys, arrival) on each side, joined on the keys; the pairs are counted, never formed. -#}

{% macro _relation_argument(value, parameter) %}
  {#- A relation, a model/seed name (ref) or 'schema.table'. -#}
  {%- if value is not string -%}{{ return(value) }}{%- endif -%}
  {%- if '.' in value -%}
    {%- set parts = value.split('.') -%}
    {%- set relation = adapter.get_relation(database=none, schema=parts[-2], identifier=parts[-1]) -%}
  {%- else -%}
    {%- set relation = ref(value) -%}
  {%- endif -%}
  {%- if relation is none -%}
    {{ dbt_inc_join._fail(parameter ~ "='" ~ value ~ "' is neither a model, a seed nor an existing schema.table.") }}
  {%- endif -%}
  {{ return(relation) }}
{% endmacro %}

{% macro _current_window(look_back_time, max_waiting_time, spelling='sql') %}
  {#- The window in use, [lb, mw], or none when neither is given. -#}
  {%- set window = none -%}
  {%- if look_back_time is not none or max_waiting_time is not none -%}
    {%- if look_back_time is none or max_waiting_time is none -%}
      {{ dbt_inc_join._fail('suggest_windows takes the window in use as look_back_time and max_waiting_time together (got only one of them).', 'window_pair', spelling) }}
    {%- endif -%}
    {%- set window = [dbt_inc_join._window_length('look_back_time', look_back_time, spelling), dbt_inc_join._window_length('max_waiting_time', max_waiting_time, spelling)] -%}
  {%- endif -%}
  {{ return(window) }}
{% endmacro %}

{% macro _arrival_counts(relation, side, index, inputs, unit) %}
  {#- Rows per (keys, arrival truncated to the unit) of one side, arrival known: _<side>k0.., _<side>_arrival,
      _<side>_rows (a SELECT). -#}
  {%- set arrival = dbt_inc_join._quote(inputs.inc_col[index]) -%}
  {%- set projection, grouping = [], [] -%}
  {%- for pair in inputs['keys'] -%}
    {%- do projection.append(dbt_inc_join._quote(pair[index]) ~ ' AS _' ~ side ~ 'k' ~ loop.index0) -%}
    {%- do grouping.append(dbt_inc_join._quote(pair[index])) -%}
  {%- endfor -%}
  {%- do projection.append(dbt_inc_join._truncate_sql(arrival, unit) ~ ' AS _' ~ side ~ '_arrival') -%}
  {%- do grouping.append(dbt_inc_join._truncate_sql(arrival, unit)) -%}
  {{ return('SELECT ' ~ projection | join(', ') ~ ', count(*) AS _' ~ side ~ '_rows FROM ' ~ relation
            ~ ' WHERE ' ~ arrival ~ ' IS NOT NULL GROUP BY ' ~ grouping | join(', ')) }}
{% endmacro %}

{% macro _sizing_bounds(reach_sql, unit) %}
  {#- The CTE `bounds`: the watermark, min of the latest arrivals of a and b (NULL when
      either has none), its text, and _reach, the largest max_waiting_time the suggestion considers (>= 0). -#}
  {%- set watermark = 'CASE WHEN la IS NULL OR lb IS NULL THEN NULL ELSE least(la, lb) END' -%}
  {%- set pattern = 'yyyy-MM-dd' if unit == 'day' else 'yyyy-MM-dd HH:mm' -%}
  {{ return('bounds AS (SELECT ' ~ watermark ~ ' AS _watermark, date_format(' ~ watermark ~ ", '" ~ pattern ~ "') AS _watermark_text, "
            ~ 'greatest(0, coalesce(r, 0)) AS _reach FROM (SELECT max(_a_arrival) AS la FROM pa) AS xa '
            ~ 'CROSS JOIN (SELECT max(_b_arrival) AS lb FROM pb) AS xb CROSS JOIN (' ~ reach_sql ~ ') AS xr)') }}
{% endmacro %}

{% macro _kept_sql(unit, complete_history) %}
  {#- An A row counts when its whole candidate window, up to a + _reach, lies at or before the watermark. -#}
  {%- if complete_history -%}{{ return('true') }}{%- endif -%}
  {{ return('coalesce(' ~ dbt_inc_join._diff_units_sql('_watermark', '_a_arrival', unit) ~ ' >= _reach, false)') }}
{% endmacro %}

{% macro _censoring(text, reach, left_out, complete_history) %}
  {{ return({'watermark': text, 'reach': reach | int, 'left_out': left_out | int, 'applied': not complete_history}) }}
{% endmacro %}

{% macro _delta_histogram(counts, inputs, unit, complete_history=false) %}
  {#- Pairs per delta, [[delta, pairs], ...] ascending: count_a x count_b summed over the (keys, a), (keys, b)
      of equal keys, for the A rows whose whole candidate window lies at or before the watermark (all of them
      with complete_history); {'histogram', 'censoring'}. The query and the reading of its rows are pure
      macros that sizing/spark.py (censored_delta_histogram) renders too. -#}
  {%- set query = dbt_inc_join._delta_histogram_sql(counts, inputs, unit, complete_history) -%}
  {{ return(dbt_inc_join._delta_histogram_counted(run_query(query).rows, complete_history)) }}
{% endmacro %}

{% macro _delta_histogram_sql(counts, inputs, unit, complete_history=false) %}
  {#- The query of _delta_histogram: ('pairs', delta, pairs) per delta, and one row (watermark text, reach,
      A rows left out). -#}
  {%- set condition = dbt_inc_join._keys_equal_sql(inputs['keys'] | length) -%}
  {%- set delta = dbt_inc_join._diff_units_sql('_b_arrival', '_a_arrival', unit) -%}
  {%- set kept = dbt_inc_join._kept_sql(unit, complete_history) -%}
  {%- set query -%}
    WITH pa AS ({{ counts[0] }}), pb AS ({{ counts[1] }}),
    per_a AS (
      SELECT _a_arrival, delta, sum(pairs) AS pairs FROM (
        SELECT pa._a_arrival, {{ delta }} AS delta, pa._a_rows * pb._b_rows AS pairs
        FROM pa INNER JOIN pb ON {{ condition }}
      ) AS counted
      GROUP BY _a_arrival, delta
    ),
    {{ dbt_inc_join._sizing_bounds('SELECT max(delta) AS r FROM per_a', unit) }}
    SELECT 'pairs' AS kind, CAST(delta AS BIGINT) AS value, CAST(sum(pairs) AS BIGINT) AS n
    FROM per_a CROSS JOIN bounds WHERE {{ kept }} GROUP BY delta
    UNION ALL
    SELECT _watermark_text, CAST(_reach AS BIGINT),
           CAST(coalesce((SELECT sum(_a_rows) FROM pa CROSS JOIN bounds WHERE NOT ({{ kept }})), 0) AS BIGINT)
    FROM bounds
  {%- endset -%}
  {{ return(query) }}
{% endmacro %}

{% macro _delta_histogram_counted(rows, complete_history) %}
  {#- The rows of _delta_histogram_sql as {'histogram': [[delta, pairs], ...] ascending, 'censoring'}. -#}
  {%- set histogram = [] -%}
  {%- set ns = namespace(censoring=dbt_inc_join._censoring(none, 0, 0, true)) -%}
  {%- for row in rows -%}
    {%- if row[0] == 'pairs' -%}
      {%- do histogram.append([row[1] | int, row[2] | int]) -%}
    {%- else -%}
      {%- set ns.censoring = dbt_inc_join._censoring(row[0], row[1], row[2], complete_history) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'histogram': histogram | sort(attribute=0), 'censoring': ns.censoring}) }}
{% endmacro %}

{% macro _nearest_partners(counts, inputs, unit, complete_history=false) %}
  {#- One row per A: per (keys, a), the nearest partner at or before a (a - b) and at or after a (b - a), both
      NULL without partner; A rows per (before, after), for the A rows whose whole candidate window lies at or
      before the watermark (all of them with complete_history). {'points': [[before, after, A rows], ...],
      'without_partner': A rows without any partner, 'censoring'}. The query and the reading of its rows are pure
      macros that sizing/spark.py (censored_nearest_partners) renders too. -#}
  {%- set query = dbt_inc_join._nearest_partners_sql(counts, inputs, unit, complete_history) -%}
  {{ return(dbt_inc_join._nearest_partners_counted(run_query(query).rows, complete_history)) }}
{% endmacro %}

{% macro _nearest_partners_sql(counts, inputs, unit, complete_history=false) %}
  {#- The query of _nearest_partners: A rows per (before, after, kept), each row with the watermark text and
      the reach. -#}
  {%- set condition = dbt_inc_join._keys_equal_sql(inputs['keys'] | length) -%}
  {%- set delta = dbt_inc_join._diff_units_sql('_b_arrival', '_a_arrival', unit) -%}
  {%- set key_columns = [] -%}
  {%- for pair in inputs['keys'] -%}{%- do key_columns.append('_ak' ~ loop.index0) -%}{%- endfor -%}
  {%- set query -%}
    WITH pa AS ({{ counts[0] }}), pb AS ({{ counts[1] }}),
    per_a AS (
      SELECT _a_arrival, _a_rows, min(CASE WHEN delta <= 0 THEN -delta END) AS _before, min(CASE WHEN delta >= 0 THEN delta END) AS _after
      FROM (
        SELECT pa.*, {{ delta }} AS delta
        FROM pa LEFT JOIN pb ON {{ condition }}
      ) AS paired
      GROUP BY {{ key_columns | join(', ') }}, _a_arrival, _a_rows
    ),
    {{ dbt_inc_join._sizing_bounds('SELECT max(_after) AS r FROM per_a', unit) }}
    SELECT g._before, g._after, g.a_rows, g._kept, bounds._watermark_text, bounds._reach FROM (
      SELECT _before, _after, _kept, sum(_a_rows) AS a_rows FROM (
        SELECT _before, _after, _a_rows, {{ dbt_inc_join._kept_sql(unit, complete_history) }} AS _kept
        FROM per_a CROSS JOIN bounds
      ) AS tagged
      GROUP BY _before, _after, _kept
    ) AS g CROSS JOIN bounds
  {%- endset -%}
  {{ return(query) }}
{% endmacro %}

{% macro _nearest_partners_counted(rows, complete_history) %}
  {#- The rows of _nearest_partners_sql as {'points': [[before, after, A rows], ...], 'without_partner',
      'censoring'}. -#}
  {%- set points = [] -%}
  {%- set ns = namespace(without_partner=0, left_out=0, watermark=none, reach=0) -%}
  {%- for row in rows -%}
    {%- set ns.watermark = row[4] -%}
    {%- set ns.reach = row[5] | int -%}
    {%- if not row[3] -%}
      {%- set ns.left_out = ns.left_out + row[2] | int -%}
    {%- elif row[0] is none and row[1] is none -%}
      {%- set ns.without_partner = ns.without_partner + row[2] | int -%}
    {%- else -%}
      {%- do points.append([none if row[0] is none else row[0] | int, none if row[1] is none else row[1] | int, row[2] | int]) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'points': points, 'without_partner': ns.without_partner,
             'censoring': dbt_inc_join._censoring(ns.watermark, ns.reach, ns.left_out, complete_history)}) }}
{% endmacro %}
