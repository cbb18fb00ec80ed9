{#- Window bounds: dates, datetimes (aware ones converted to the Spark session time zone) and ISO-8601
    strings, each mapped to the unit that contains it. -#}

{% macro _session_time_zone() %}
  {%- if not execute -%}{{ return('UTC') }}{%- endif -%}
  {%- set result = run_query('SET spark.sql.session.timeZone') -%}
  {{ return(result.rows[0][1] if result and result.rows else 'UTC') }}
{% endmacro %}

{% macro _parse_bound(value, parameter, time_uom, spelling='sql', zone=none) %}
  {#- A window bound as the unit that contains it, or none. The core gives `zone` (the Spark session's time
      zone) and Python's spelling; a dbt model's is asked of Spark. -#}
  {%- if value is none or (value is string and value | trim == '') -%}
    {{ return(none) }}
  {%- endif -%}
  {%- if value is string -%}
    {%- set text = value | trim -%}
    {%- set iso = '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?)?([Zz]|[+-]\\d{2}:\\d{2})?$' -%}
    {%- if not modules.re.match(iso, text) -%}
      {{ dbt_inc_join._fail(parameter ~ '=' ~ dbt_inc_join._q(value, spelling)
                            ~ " is not an ISO-8601 date or timestamp; use e.g. '2025-03-06' or '2025-03-06 10:00:00'.",
                            'bound_text', spelling) }}
    {%- endif -%}
    {%- set impossible = dbt_inc_join._impossible_iso(text) -%}
    {%- if impossible -%}
      {{ dbt_inc_join._fail(parameter ~ '=' ~ dbt_inc_join._q(value, spelling) ~ ' is not a date or timestamp that exists ('
                            ~ impossible ~ "); use e.g. '2025-03-06' or '2025-03-06 10:00:00'.", 'bound_text', spelling) }}
    {%- endif -%}
    {%- if text | length == 10 -%}
      {%- set value = modules.datetime.date.fromisoformat(text) -%}
    {%- else -%}
      {%- set value = modules.datetime.datetime.fromisoformat(text.replace('Z', '+00:00').replace('z', '+00:00')) -%}
    {%- endif -%}
  {%- elif value.year is not defined or value.isoformat is not defined -%}
    {{ dbt_inc_join._fail(parameter ~ " must be a date, a datetime or an ISO-8601 string such as '2025-03-06' or '2025-03-06 10:00:00' (got "
                          ~ dbt_inc_join._typed(value, spelling) ~ ").", 'bound_type', spelling) }}
  {%- endif -%}
  {%- if value.tzinfo is defined and value.tzinfo is not none -%}
    {%- set zone = modules.pytz.timezone(zone or dbt_inc_join._session_time_zone()) -%}
    {%- set value = value.astimezone(zone).replace(tzinfo=none) -%}
  {%- endif -%}
  {{ return(dbt_inc_join._floor_value(value, time_uom)) }}
{% endmacro %}

{% macro _impossible_iso(text) %}
  {#- Why an ISO-8601 text of the right shape names no instant (a month 13, a 30 February, an hour 24), or none. -#}
  {%- set parts = modules.re.match('^(\\d{4})-(\\d{2})-(\\d{2})(?:[ T](\\d{2}):(\\d{2})(?::(\\d{2}))?)?', text) -%}
  {%- set year, month, day = parts.group(1) | int, parts.group(2) | int, parts.group(3) | int -%}
  {%- if year < 1 or month < 1 or month > 12 -%}
    {{ return('no ' ~ ('year 0' if year < 1 else 'month ' ~ month)) }}
  {%- endif -%}
  {%- set days = 31 if month == 12 else (modules.datetime.date(year, month + 1, 1) - modules.datetime.timedelta(days=1)).day -%}
  {%- if day < 1 or day > days -%}
    {{ return('%04d-%02d has %d days' | format(year, month, days)) }}
  {%- endif -%}
  {%- for index, name, most in [(4, 'hour', 23), (5, 'minute', 59), (6, 'second', 59)] -%}
    {%- if parts.group(index) is not none and parts.group(index) | int > most -%}
      {{ return('no ' ~ name ~ ' ' ~ parts.group(index)) }}
    {%- endif -%}
  {%- endfor -%}
  {%- set offset = modules.re.search('[+-](\\d{2}):(\\d{2})$', text) -%}
  {%- if offset and (offset.group(1) | int > 23 or offset.group(2) | int > 59) -%}
    {{ return('no offset ' ~ offset.group(0)) }}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro _rows_read_text(window) %}
  {#- The log line's clause of the rows the run read (_rows_read), or nothing when they are not known. -#}
  {%- set rows = window.get('rows_read') -%}
  {%- if not rows -%}{{ return('') }}{%- endif -%}
  {%- set parts = [] -%}
  {%- for name, count in rows.items() -%}
    {%- do parts.append(('open state' if name == 'open_state' else name) ~ ' ' ~ count) -%}
  {%- endfor -%}
  {{ return('; rows read: ' ~ parts | join(', ')) }}
{% endmacro %}

{% macro _run_log_line(target, window, ranges) %}
  {#- The one line a run logs (SQL and Python models: _log_run, _log_many_run): the window, what decided each
      bound, and what it reads of each input. -#}
  {%- if window.get('in_sql') -%}
    {{ return('inc_join ' ~ target ~ ': window decided in SQL over the given rows of a unit test; start: '
              ~ window.start_reason ~ '; end: ' ~ window.end_reason) }}
  {%- elif window.empty and window.end is none -%}
    {%- set shown = 'empty (no end: no availability watermark)' -%}
  {%- elif window.empty -%}
    {%- set shown = 'empty (' ~ window.start ~ ' is after ' ~ window.end ~ ')' -%}
  {%- else -%}
    {%- set shown = (window.start or 'beginning') ~ '..' ~ window.end -%}
  {%- endif -%}
  {%- if window.empty -%}
    {%- set reads = 'reads nothing' -%}
  {%- else -%}
    {%- set reads = 'reads a ' ~ (ranges[0][0] or 'beginning') ~ '..' ~ ranges[0][1]
                    ~ ', b ' ~ (ranges[1][0] or 'beginning') ~ '..' ~ ranges[1][1] -%}
  {%- endif -%}
  {{ return('inc_join ' ~ target ~ ': window ' ~ shown ~ '; start: ' ~ window.start_reason
            ~ '; end: ' ~ window.end_reason ~ '; ' ~ reads) }}
{% endmacro %}
