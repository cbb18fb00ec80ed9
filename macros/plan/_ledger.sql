{#- Where an incremental run starts when its model records its runs, and how much of the way it goes
    (max_window_units), spec §13. -#}

{% macro _ledger_start(state, latest, inc_col, time_uom) %}
  {#- The start of an incremental run from the ledger state and the table's latest output arrival (a unit value
      or none), with its reason; none when the table was never recorded (then the table decides, as without
      the ledger).
      - no committed run of this table with a window: the run that made it was killed, or every run so far had
        an empty window (state.empty_runs); start from the beginning;
      - the table holds rows after the last committed window: a run wrote and was killed before it recorded
        (or inside its renames); start after the committed window, so that run is done again;
      - the last committed run wrote rows, but the table has none from that window's start on: they are gone;
        start after the table's latest arrival;
      - else after the last committed window. -#}
  {%- if state.table_id is none -%}
    {{ return(none) }}
  {%- endif -%}
  {%- set where = 'in ' ~ state.ledger ~ ' (table_id ' ~ state.table_id ~ ')' -%}
  {%- if state.committed_end is none -%}
    {%- set why = 'every committed run of it had an empty window' if state.get('empty_runs')
                  else 'the run that created it did not finish' -%}
    {{ return({'start': none, 'reason': 'no committed run of this table with a window ' ~ where ~ ': ' ~ why}) }}
  {%- endif -%}
  {%- set committed_end = dbt_inc_join._parse_text_value(state.committed_end, time_uom) -%}
  {%- set last_start = dbt_inc_join._parse_text_value(state.last_start, time_uom) -%}
  {%- set after_ledger = dbt_inc_join._shift_value(committed_end, 1, time_uom) -%}
  {%- set column = 'max(' ~ inc_col ~ ') in this' -%}
  {%- if latest is not none and latest > committed_end -%}
    {{ return({'start': after_ledger, 'reason': 'last committed window ' ~ where ~ ' ends ' ~ committed_end ~ ' + 1 ' ~ time_uom
               ~ '; ' ~ column ~ ' is ' ~ latest ~ ', written by a run that did not record its commit'
               ~ dbt_inc_join._unrecorded_commit_text(state.get('last_commit'), committed_end, time_uom) ~ ': doing it again'}) }}
  {%- endif -%}
  {%- if state.last_rows and (latest is none or latest < last_start) -%}
    {%- set start = none if latest is none else dbt_inc_join._shift_value(latest, 1, time_uom) -%}
    {{ return({'start': start, 'reason': column ~ ' is ' ~ (latest or 'none') ~ ', before the last committed window '
               ~ last_start ~ '..' ~ committed_end ~ ' ' ~ where ~ ', which wrote ' ~ state.last_rows
               ~ ' rows: starting from the table'}) }}
  {%- endif -%}
  {{ return({'start': after_ledger, 'reason': 'last committed window ' ~ where ~ ' ends ' ~ committed_end ~ ' + 1 ' ~ time_uom}) }}
{% endmacro %}

{% macro _unrecorded_commit_text(commit, committed_end, time_uom) %}
  {#- The commit of a run the ledger has no record of, as the start's reason names it: its window ends after the
      last committed one (_last_commit; empty text when there is none). -#}
  {%- set window_end = commit.run.window_end if commit else none -%}
  {%- if not window_end or dbt_inc_join._parse_text_value(window_end, time_uom) <= committed_end -%}
    {{ return('') }}
  {%- endif -%}
  {{ return(' (' ~ commit.version ~ ' at ' ~ commit.at ~ ', ' ~ commit.operation ~ ', run ' ~ commit.run.inc_join_run
            ~ ', window ' ~ (commit.run.window_start or 'from the beginning') ~ '..' ~ window_end ~ ')') }}
{% endmacro %}

{% macro _max_window_units(value) %}
  {#- The cap of spec §13: argument > var inc_join_max_window_units; none: no cap. -#}
  {%- set parameter = 'max_window_units' -%}
  {%- if value is none -%}
    {%- set value = var('inc_join_max_window_units', none) -%}
    {%- set parameter = 'inc_join_max_window_units' -%}
  {%- endif -%}
  {{ return(dbt_inc_join._check_window_cap(value, parameter)) }}
{% endmacro %}

{% macro _check_window_cap(value, parameter, spelling='sql') %}
  {#- A positive whole number of units, or none (no cap); both languages show the value as Jinja does. -#}
  {%- if value is none or value == '' -%}
    {{ return(none) }}
  {%- endif -%}
  {%- if value is not integer or value is boolean or value < 1 -%}
    {{ dbt_inc_join._fail(parameter ~ ' must be a positive whole number of time_uom units, e.g. 31 (got ' ~ dbt_inc_join._repr(value) ~ ').', 'window_cap', spelling) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _cap_window(start, end, empty, max_window_units, time_uom) %}
  {#- A run finalises at most max_window_units units: a first run over years, or a catch-up after downtime,
      goes in committed chunks, one per dbt run. -#}
  {%- set cap = dbt_inc_join._max_window_units(max_window_units) -%}
  {%- if cap is none or empty or start is none -%}
    {{ return({'end': end, 'units_behind': 0, 'reason': none}) }}
  {%- endif -%}
  {%- set last = dbt_inc_join._shift_value(start, cap - 1, time_uom) -%}
  {%- if end <= last -%}
    {{ return({'end': end, 'units_behind': 0, 'reason': none}) }}
  {%- endif -%}
  {%- set behind = dbt_inc_join._units_between(end, last, time_uom) -%}
  {{ return({'end': last, 'units_behind': behind,
             'reason': 'max_window_units=' ~ cap ~ ': caught up to ' ~ last ~ ', '
                       ~ dbt_inc_join._units_text(behind, time_uom) ~ ' behind ' ~ end}) }}
{% endmacro %}
