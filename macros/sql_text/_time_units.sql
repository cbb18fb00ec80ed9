{#- Time units (time_uom): Python values (dates/datetimes) and the SQL text that truncates, shifts and
    compares arrivals. A "unit value" is a date for day, a naive datetime cut to the hour/minute otherwise. -#}

{% macro _unit_step(time_uom, units=1) %}
  {%- set td = modules.datetime.timedelta -%}
  {%- if time_uom == 'day' -%}{{ return(td(days=units)) }}
  {%- elif time_uom == 'hour' -%}{{ return(td(hours=units)) }}
  {%- else -%}{{ return(td(minutes=units)) }}
  {%- endif -%}
{% endmacro %}

{% macro _unit_type(time_uom) %}
  {{- return('date' if time_uom == 'day' else 'timestamp') -}}
{% endmacro %}

{% macro _floor_value(value, time_uom) %}
  {#- value: a date or a naive datetime -#}
  {%- set is_datetime = value.hour is defined -%}
  {%- if time_uom == 'day' -%}
    {{ return(value.date() if is_datetime else value) }}
  {%- endif -%}
  {%- if not is_datetime -%}
    {%- set value = modules.datetime.datetime(value.year, value.month, value.day) -%}
  {%- endif -%}
  {%- if time_uom == 'hour' -%}
    {{ return(value.replace(minute=0, second=0, microsecond=0)) }}
  {%- endif -%}
  {{ return(value.replace(second=0, microsecond=0)) }}
{% endmacro %}

{% macro _units_text(units, time_uom) %}
  {#- A number of units as a log line says it: 1 day, 3 hours. -#}
  {{ return(units ~ ' ' ~ time_uom ~ ('' if units == 1 else 's')) }}
{% endmacro %}

{% macro _shift_value(value, units, time_uom) %}
  {#- A unit value, or a SQL bound ({'sql': expression, 'units': n, 'time_uom': unit}: a window decided in SQL, _fixtures.sql). -#}
  {%- if value is mapping -%}
    {{- return({'sql': value.sql, 'units': value.units + units, 'time_uom': value.time_uom}) -}}
  {%- endif -%}
  {{- return(value + dbt_inc_join._unit_step(time_uom, units)) -}}
{% endmacro %}

{% macro _sql_literal(value, sql_type) %}
  {#- A typed literal read in the Spark session time zone; a SQL bound as its expression of that type. -#}
  {%- if value is mapping -%}
    {{ return('CAST(' ~ dbt_inc_join._add_units_sql(value.sql, value.units, value.time_uom) ~ ' AS ' ~ sql_type | upper ~ ')') }}
  {%- endif -%}
  {%- if sql_type == 'date' -%}
    {%- set day = value.date() if value.hour is defined else value -%}
    {{ return("DATE'" ~ day.isoformat() ~ "'") }}
  {%- endif -%}
  {%- set moment = value if value.hour is defined else modules.datetime.datetime(value.year, value.month, value.day) -%}
  {{ return(sql_type | upper ~ "'" ~ moment.strftime('%Y-%m-%d %H:%M:%S') ~ "'") }}
{% endmacro %}

{% macro _truncate_sql(arrival, time_uom) %}
  {%- if time_uom == 'day' -%}{{ return('to_date(' ~ arrival ~ ')') }}{%- endif -%}
  {{ return("CAST(date_trunc('" ~ time_uom | upper ~ "', " ~ arrival ~ ") AS TIMESTAMP)") }}
{% endmacro %}

{% macro _add_units_sql(value, units, time_uom) %}
  {%- if units == 0 -%}{{ return(value) }}{%- endif -%}
  {%- if time_uom == 'day' -%}{{ return('date_add(' ~ value ~ ', ' ~ units ~ ')') }}{%- endif -%}
  {{ return('(' ~ value ~ ' + INTERVAL ' ~ units ~ ' ' ~ time_uom | upper ~ 'S)') }}
{% endmacro %}

{% macro _diff_units_sql(later, earlier, time_uom) %}
  {%- if time_uom == 'day' -%}{{ return('datediff(' ~ later ~ ', ' ~ earlier ~ ')') }}{%- endif -%}
  {%- set seconds = 3600 if time_uom == 'hour' else 60 -%}
  {{ return('CAST((unix_timestamp(' ~ later ~ ') - unix_timestamp(' ~ earlier ~ ')) DIV ' ~ seconds ~ ' AS INT)') }}
{% endmacro %}

{% macro _unit_number_sql(arrival, time_uom) %}
  {#- A truncated arrival as a whole number of units since 1970-01-01 (BIGINT): consecutive units get consecutive
      numbers, so _add_units_sql by n adds n to it. -#}
  {%- if time_uom == 'day' -%}{{ return('CAST(unix_date(' ~ arrival ~ ') AS BIGINT)') }}{%- endif -%}
  {%- set seconds = 3600 if time_uom == 'hour' else 60 -%}
  {{ return('CAST(floor(unix_seconds(' ~ arrival ~ ') / ' ~ seconds ~ ') AS BIGINT)') }}
{% endmacro %}

{% macro _arrival_compared_sql(column, operator, moment, table_format=none) %}
  {#- `column` (an arrival of a model's own table) compared with `moment` (a TIMESTAMP literal). On a parquet table
      through unix_seconds, which keeps the test out of the metastore's partition filter (Spark prunes the
      partitions itself; with threads > 1 the embedded Derby metastore failed pushed-down filters now and then:
      INTERNAL_ERROR_HIVE_METASTORE_PARTITION_FILTER). On Delta and Iceberg (table_format) as a plain comparison,
      which Spark unwraps to the column's own type and the format prunes its files with (Iceberg reads every file
      under unix_seconds). -#}
  {%- if table_format in ['delta', 'iceberg'] -%}
    {{ return('CAST(' ~ column ~ ' AS TIMESTAMP) ' ~ operator ~ ' ' ~ moment) }}
  {%- endif -%}
  {{ return('unix_seconds(CAST(' ~ column ~ ' AS TIMESTAMP)) ' ~ operator ~ ' unix_seconds(' ~ moment ~ ')') }}
{% endmacro %}

{% macro _parse_text_value(text, time_uom) %}
  {#- A 'yyyy-MM-dd HH:mm:ss' string returned by Spark, as a unit value (none stays none). -#}
  {%- if text is none -%}{{ return(none) }}{%- endif -%}
  {%- set moment = modules.datetime.datetime.strptime(text, '%Y-%m-%d %H:%M:%S') -%}
  {{ return(moment.date() if time_uom == 'day' else moment) }}
{% endmacro %}

{% macro _units_between(later, earlier, time_uom) %}
  {%- set gap = later - earlier -%}
  {%- if time_uom == 'day' -%}{{ return(gap.days) }}{%- endif -%}
  {{ return(((gap.days * 86400 + gap.seconds) // (3600 if time_uom == 'hour' else 60)) | int) }}
{% endmacro %}
