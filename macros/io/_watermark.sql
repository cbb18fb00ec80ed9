{#- The availability watermark (spec §6): the earliest of the inputs' latest arrivals, or the one an orchestrator
    declares (watermark.py). Its rules serve both paths of the output window: values read by one query
    (_resolve_window.sql), and SQL over a unit test's given rows (_fixtures.sql: _window_in_sql). -#}

{% macro _declared_watermark(time_uom) %}
  {#- The watermark declared by var inc_join_available_until (quiet days leave no rows to show it), or none. -#}
  {%- set declared = var('inc_join_available_until', none) -%}
  {{ return(none if declared in [none, ''] else dbt_inc_join._parse_bound(declared, 'inc_join_available_until', time_uom)) }}
{% endmacro %}

{% macro _earliest_of(how) %}
  {#- Where a first run starts: the earliest arrival of a (of a or b for how = full); the sides and the text. -#}
  {%- set sides = ['a', 'b'] if how == 'full' else ['a'] -%}
  {{ return({'sides': sides, 'text': 'earliest arrival of ' ~ sides | join(' or ')}) }}
{% endmacro %}

{% macro _watermark_of(maxima, least) %}
  {#- The earliest of the latest arrivals, none while one of them is none (watermark.py: watermark_of). `least`
      takes two of them: _least_value for values, _least_sql for SQL over them. -#}
  {%- set found = namespace(value=maxima[0]) -%}
  {%- for latest in maxima[1:] -%}
    {%- set found.value = least(found.value, latest) -%}
  {%- endfor -%}
  {{ return(found.value) }}
{% endmacro %}

{% macro _least_value(first, second) %}
  {#- The smaller of two unit values, none when either is none. -#}
  {{- return(none if (first is none or second is none) else [first, second] | min) -}}
{% endmacro %}

{% macro _least_sql(first, second) %}
  {#- The smaller of two unit values, none when either is none (Spark's least skips NULLs). -#}
  {{- return('CASE WHEN ' ~ first ~ ' IS NULL OR ' ~ second ~ ' IS NULL THEN NULL ELSE least(' ~ first ~ ', ' ~ second ~ ') END') -}}
{% endmacro %}

{% macro _latest_arrivals(sides, start, declared, need_earliest, time_uom) %}
  {#- One query for the inputs' latest arrivals from `start` on (<side>_max, unless the watermark is declared)
      and, on a first run, their earliest ones (<side>_min), as text; none when there is nothing to ask
      (watermark.py: latest_arrivals). -#}
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
  {{ return(run_query('SELECT ' ~ selects | join(', ')).rows[0] if selects | length > 1 else none) }}
{% endmacro %}

{% macro _watermark_from(row, sides, declared, time_uom, names=none) %}
  {#- {'a_max', 'b_max', 'watermark', 'text'}: b_max is the earliest of the inputs' latest arrivals (several
      inputs: none while one has none); text says how the watermark came about, with `names` (inc_join_many:
      a, then each input's name) naming each latest arrival and the inputs that hold the watermark back. -#}
  {%- if declared is not none -%}
    {{ return({'a_max': none, 'b_max': none, 'watermark': declared,
               'text': declared ~ ' declared by var inc_join_available_until'}) }}
  {%- endif -%}
  {%- set maxima = [] -%}
  {%- for side in sides -%}
    {%- do maxima.append(dbt_inc_join._parse_text_value(row[side[0] ~ '_max'], time_uom)) -%}
  {%- endfor -%}
  {%- set a_max = maxima[0] -%}
  {%- set b_max = dbt_inc_join._watermark_of(maxima[1:], dbt_inc_join._least_value) -%}
  {%- if names is none -%}
    {%- set text = dbt_inc_join._watermark_text(a_max, b_max) -%}
  {%- else -%}
    {%- set text = dbt_inc_join._named_watermark_text(names, maxima) -%}
  {%- endif -%}
  {{ return({'a_max': a_max, 'b_max': b_max, 'watermark': dbt_inc_join._watermark_of([a_max, b_max], dbt_inc_join._least_value),
             'text': text}) }}
{% endmacro %}

{% macro _watermark_text(a_max, b_max) %}
  {#- How the watermark came about, naming the input that holds it back. (watermark.py: watermark_text) -#}
  {{ return('min(max a ' ~ (a_max or 'none') ~ ', max b ' ~ (b_max or 'none') ~ ')') }}
{% endmacro %}

{% macro _named_watermark_text(names, maxima) %}
  {#- inc_join_many's watermark: each input's latest arrival under its name, and the inputs that hold the
      watermark back. (watermark.py: named_watermark_text) -#}
  {%- set listed = [] -%}
  {%- for name in names -%}
    {%- do listed.append('max ' ~ name ~ ' ' ~ (maxima[loop.index0] or 'none')) -%}
  {%- endfor -%}
  {{ return('min(' ~ listed | join(', ') ~ '), held back by ' ~ dbt_inc_join._watermark_holders(names, maxima) | join(' and ')) }}
{% endmacro %}

{% macro _watermark_holders(names, maxima) %}
  {#- The inputs that hold the watermark back: those without an arrival, else those whose latest arrival is
      the watermark (ties name each). (watermark.py: watermark_holders) -#}
  {%- set stalled = [] -%}
  {%- for name in names -%}
    {%- if maxima[loop.index0] is none -%}{%- do stalled.append(name) -%}{%- endif -%}
  {%- endfor -%}
  {%- if stalled -%}
    {{ return(stalled) }}
  {%- endif -%}
  {%- set earliest = maxima | min -%}
  {%- set holders = [] -%}
  {%- for name in names -%}
    {%- if maxima[loop.index0] == earliest -%}{%- do holders.append(name) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(holders) }}
{% endmacro %}
