{#- The queries of suggest_windows (sizing/spark.py: _arrival_counts, delta_histogram, nearest_partners): rows per
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

{% macro _current_window(look_back_time, max_waiting_time) %}
  {#- The window in use, [lb, mw], or none when neither is given (sizing/checks.py: current_window). -#}
  {%- set window = none -%}
  {%- if look_back_time is not none or max_waiting_time is not none -%}
    {%- if look_back_time is none or max_waiting_time is none -%}
      {{ dbt_inc_join._fail('suggest_windows takes the window in use as look_back_time and max_waiting_time together (got only one of them).') }}
    {%- endif -%}
    {%- set window = [dbt_inc_join._window_length('look_back_time', look_back_time), dbt_inc_join._window_length('max_waiting_time', max_waiting_time)] -%}
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

{% macro _delta_histogram(counts, inputs, unit) %}
  {#- Pairs per delta, [[delta, pairs], ...] ascending: count_a x count_b summed over the (keys, a), (keys, b)
      of equal keys. -#}
  {%- set condition = dbt_inc_join._keys_equal_sql(inputs['keys'] | length) -%}
  {%- set delta = dbt_inc_join._diff_units_sql('_b_arrival', '_a_arrival', unit) -%}
    {%- set query -%}
      SELECT delta, sum(pairs) AS pairs FROM (
        SELECT {{ delta }} AS delta, pa._a_rows * pb._b_rows AS pairs
        FROM ({{ counts[0] }}) AS pa INNER JOIN ({{ counts[1] }}) AS pb ON {{ condition }}
      ) AS counted
      GROUP BY delta ORDER BY delta
    {%- endset -%}
  {%- set histogram = [] -%}
  {%- for row in run_query(query).rows -%}{%- do histogram.append([row[0] | int, row[1] | int]) -%}{%- endfor -%}
  {{ return(histogram) }}
{% endmacro %}

{% macro _nearest_partners(counts, inputs, unit) %}
  {#- One row per A: per (keys, a), the nearest partner at or before a (a - b) and at or after a (b - a), both
      NULL without partner; A rows per (before, after). {'points': [[before, after, A rows], ...],
      'without_partner': A rows without any partner}. -#}
  {%- set condition = dbt_inc_join._keys_equal_sql(inputs['keys'] | length) -%}
  {%- set delta = dbt_inc_join._diff_units_sql('_b_arrival', '_a_arrival', unit) -%}
  {%- set key_columns = [] -%}
  {%- for pair in inputs['keys'] -%}{%- do key_columns.append('_ak' ~ loop.index0) -%}{%- endfor -%}
  {%- set query -%}
    SELECT _before, _after, sum(_a_rows) AS a_rows FROM (
      SELECT min(CASE WHEN delta <= 0 THEN -delta END) AS _before, min(CASE WHEN delta >= 0 THEN delta END) AS _after, _a_rows
      FROM (
        SELECT pa.*, {{ delta }} AS delta
        FROM ({{ counts[0] }}) AS pa LEFT JOIN ({{ counts[1] }}) AS pb ON {{ condition }}
      ) AS paired
      GROUP BY {{ key_columns | join(', ') }}, _a_arrival, _a_rows
    ) AS nearest
    GROUP BY _before, _after
  {%- endset -%}
  {%- set points = [] -%}
  {%- set ns = namespace(without_partner=0) -%}
  {%- for row in run_query(query).rows -%}
    {%- if row[0] is none and row[1] is none -%}
      {%- set ns.without_partner = ns.without_partner + row[2] | int -%}
    {%- else -%}
      {%- do points.append([none if row[0] is none else row[0] | int, none if row[1] is none else row[1] | int, row[2] | int]) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return({'points': points, 'without_partner': ns.without_partner}) }}
{% endmacro %}
