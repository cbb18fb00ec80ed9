{#- What a run with restated inputs says (spec §14): the units it found, the ranges it compared, and the one
    command that repairs the table; the rules are in _restated.sql. -#}

{% macro _restated_parts(restated, time_uom) %}
  {#- Each restated unit as the messages name it: 'b 2025-03-06 (rows 5 → 6)', 'b 2025-03-07 (rows 5, contents
      changed)'. -#}
  {%- set parts = [] -%}
  {%- for row in restated -%}
    {%- set part = row.input ~ ' ' ~ dbt_inc_join._unit_label(row.unit, time_uom) -%}
    {%- set since = '; found earlier, not redone' if row.get('outstanding') else '' -%}
    {%- if row.rows_then is none -%}
      {%- do parts.append(part ~ ' (redone by its model' ~ since ~ ')') -%}
    {%- else -%}
      {%- set commit = dbt_inc_join._commit_text(row.get('commit')) -%}
      {#- as many rows as before: their contents changed (the fingerprints differ) -#}
      {%- set counts = row.rows_then ~ (', contents changed' if row.rows_then == row.rows_now else ' → ' ~ row.rows_now) -%}
      {%- do parts.append(part ~ ' (rows ' ~ counts ~ commit ~ since ~ ')') -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(parts) }}
{% endmacro %}

{% macro _listed_units() %}
  {#- How many restated units a message or a reason lists; the rest are counted (a re-delivered day in hours is
      24 of them, a month of days 31). -#}
  {{ return(10) }}
{% endmacro %}

{% macro _restated_text(restated, time_uom, shown=none) %}
  {#- The restated units on one line (the ledger's reason, the test's log line): the first `shown` (by default
      _listed_units), then how many more. -#}
  {%- set parts = dbt_inc_join._restated_parts(restated, time_uom) -%}
  {%- set shown = dbt_inc_join._listed_units() if shown is none else shown -%}
  {%- set more = parts | length - shown -%}
  {%- set counted = (' and ' ~ more ~ ' more (' ~ parts | length ~ ' units)') if more > 0 else '' -%}
  {{ return(parts[:shown] | join(', ') ~ counted) }}
{% endmacro %}

{% macro _commit_word(file_format) %}
  {#- What a format calls one of its commits in messages: Delta's version, Iceberg's snapshot. -#}
  {{ return('snapshot' if file_format == 'iceberg' else 'version') }}
{% endmacro %}

{% macro _commit_text(commit) %}
  {#- The input's commit that restated a unit, as the log names it (spec §17), after the rows: empty for none.
      A Delta version, an Iceberg snapshot (named). -#}
  {%- if not commit -%}{{ return('') }}{%- endif -%}
  {{ return('; ' ~ commit.operation ~ ' at ' ~ commit.at ~ ', ' ~ (commit.get('named') or dbt_inc_join._commit_word('delta')) ~ ' ' ~ commit.version) }}
{% endmacro %}

{% macro _checked_text(checked, time_uom) %}
  {#- The units a run compared, per input: 'a 2025-03-04..2025-03-06, b 2025-03-03..2025-03-06'. -#}
  {%- set parts = [] -%}
  {%- for name, bounds in checked.items() | sort -%}
    {%- set lower = 'the beginning' if bounds[0] is none else dbt_inc_join._unit_label(bounds[0], time_uom) -%}
    {%- do parts.append(name ~ ' ' ~ lower ~ '..' ~ dbt_inc_join._unit_label(bounds[1], time_uom)) -%}
  {%- endfor -%}
  {{ return(parts | join(', ')) }}
{% endmacro %}

{% macro _older_inputs(restated, checked, logged=[]) %}
  {#- The inputs whose earliest checked unit is restated: their older units, which no one compared, may be too;
      not those whose older units the run checked from their logs (logged, spec §17). -#}
  {%- set found = [] -%}
  {%- for row in restated if row.rows_then is not none and not row.get('outstanding') and row.input not in logged -%}
    {%- set bounds = checked.get(row.input) -%}
    {%- if bounds and bounds[0] is not none and row.unit == bounds[0] and row.input not in found -%}
      {%- do found.append(row.input) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(found | sort) }}
{% endmacro %}

{% macro _wider_horizon(horizon, time_uom) %}
  {#- The restated_horizon a repair command suggests when older units may be restated: twice the run's own, and
      at least a week of days, two days of hours or two hours of minutes. -#}
  {{ return([horizon * 2, {'day': 7, 'hour': 48, 'minute': 120}[time_uom]] | max) }}
{% endmacro %}

{% macro _redo_command(model_name, horizon=none) %}
  {#- The one command that repairs a model's table and the models that read it (`model+`: dbt's graph; the var
      holds for the whole invocation, so each downstream model redoes from the upstream's redo, spec §14 Chains):
      a run that redoes it from its earliest outstanding unit (and, with a horizon, compares that many more
      units first). -#}
  {%- set settings = 'inc_join_on_restated_input: redo' ~ ('' if horizon is none else ', inc_join_restated_horizon: ' ~ horizon) -%}
  {{ return("dbt run --select " ~ model_name ~ "+ --vars '{" ~ settings ~ "}'") }}
{% endmacro %}

{% macro _batches_command(model_name, start, end, time_uom) %}
  {#- A microbatch model's repair: its batches run again from `start` to `end` (unit texts, both included), then
      the models that read it redone from there (a redo cannot move a batch's bounds). -#}
  {%- set form = '%Y-%m-%d' if time_uom == 'day' else '%Y-%m-%dT%H:%M:%S' -%}
  {%- set after = dbt_inc_join._shift_value(dbt_inc_join._parse_text_value(end, time_uom), 1, time_uom) -%}
  {{ return(['dbt run --select ' ~ model_name ~ ' --event-time-start ' ~ dbt_inc_join._parse_text_value(start, time_uom).strftime(form)
             ~ ' --event-time-end ' ~ after.strftime(form),
             'dbt run --select ' ~ model_name ~ '+ --exclude ' ~ model_name ~ " --vars '{inc_join_on_restated_input: redo}'"]) }}
{% endmacro %}

{% macro _restated_message(target, model_name, restated, time_uom, mode, checked, horizon, logged=[], batches=false) %}
  {#- The warning (mode warn) or the error (mode fail) of a run with restated units not yet redone, one field a
      line, sized for a terminal: what it found (the first _listed_units units, one a line, then how many more
      and where all are listed), what it compared (checked: {input: [lower, upper]}; logged: the inputs whose
      older units it checked from their logs), and, on a line of its own, the one command that repairs the
      table and the models that read it (batches: a microbatch model's two, _batches_command). -#}
  {%- set older = dbt_inc_join._older_inputs(restated, checked, logged) -%}
  {%- set others = checked.keys() | reject('in', logged) | list | sort -%}
  {%- if not logged -%}
    {%- set before = 'units before those were not compared' -%}
  {%- elif not others -%}
    {%- set before = "units before those were checked from the inputs' logs" -%}
  {%- else -%}
    {%- set before = 'units before those were checked from the logs of ' ~ dbt_inc_join._in_words(logged | sort)
                     ~ ', not compared for ' ~ dbt_inc_join._in_words(others) -%}
  {%- endif -%}
  {%- set done = 'written as usual, unless dbt stops on warnings (--warn-error)' if mode == 'warn' else 'nothing was written' -%}
  {%- set parts = dbt_inc_join._restated_parts(restated, time_uom) -%}
  {%- set shown = dbt_inc_join._listed_units() -%}
  {%- set lines = ['inc_join ' ~ target ~ ': inputs changed after a committed run read them (' ~ parts | length
                   ~ (' unit' if parts | length == 1 else ' units') ~ '):'] -%}
  {%- for part in parts[:shown] -%}
    {%- do lines.append('  ' ~ part) -%}
  {%- endfor -%}
  {%- if parts | length > shown -%}
    {%- set recorded = 'once this run is recorded' if mode == 'warn'
                       else 'once a run with on_restated_input=warn records them' -%}
    {%- set where = recorded ~ ', all of them: select outstanding_units from dbt_inc_join_model_status'
                    ~ " where model_name = '" ~ model_name ~ "'" -%}
    {%- do lines.append('  ... and ' ~ (parts | length - shown) ~ ' more (' ~ where ~ ')') -%}
  {%- endif -%}
  {%- do lines.append('Compared: ' ~ (dbt_inc_join._checked_text(checked, time_uom) or 'nothing') ~ ' (restated_horizon='
                      ~ horizon ~ '); ' ~ before ~ '.') -%}
  {%- do lines.append('The table differs from one run over the current inputs from '
                      ~ dbt_inc_join._unit_label(restated[0].unit, time_uom) ~ ' on at least (on_restated_input=' ~ mode
                      ~ ': ' ~ done ~ ').') -%}
  {%- if batches -%}
    {%- set uppers = checked.values() | map(attribute=1) | select | list -%}
    {%- do lines.append('Run its batches again from the earliest restated unit, then redo the models that read it, with:') -%}
    {%- for command in dbt_inc_join._batches_command(model_name, restated[0].unit, (uppers | max) if uppers else restated[-1].unit, time_uom) -%}
      {%- do lines.append('  ' ~ command) -%}
    {%- endfor -%}
  {%- elif older -%}
    {%- set wider = dbt_inc_join._wider_horizon(horizon, time_uom) -%}
    {%- do lines.append('The earliest compared unit of ' ~ dbt_inc_join._in_words(older) ~ ' is restated, so older units may be'
                        ~ ' restated too. Compare ' ~ wider ~ ' more units, and redo it and the models that read it'
                        ~ ' from the earliest restated unit, with:') -%}
    {%- do lines.append('  ' ~ dbt_inc_join._redo_command(model_name, wider)) -%}
  {%- else -%}
    {%- do lines.append('Redo it and the models that read it from the earliest restated unit with:') -%}
    {%- do lines.append('  ' ~ dbt_inc_join._redo_command(model_name)) -%}
  {%- endif -%}
  {{ return(lines | join('\n')) }}
{% endmacro %}
