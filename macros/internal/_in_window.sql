{% macro _in_window_sql(arrival, ctx) %}
  {#- arrival lies in the output window [start, end] (no lower test without a start). -#}
  {%- set test = arrival ~ ' <= ' ~ ctx.end_sql -%}
  {%- if ctx.start_sql is not none -%}{%- set test = test ~ ' AND ' ~ arrival ~ ' >= ' ~ ctx.start_sql -%}{%- endif -%}
  {{ return('(' ~ test ~ ')') }}
{% endmacro %}
