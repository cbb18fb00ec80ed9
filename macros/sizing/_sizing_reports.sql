{#- The reports suggest_windows prints; sizing/report.py renders _format_a_row_report and the cells of its report of
    pairs (_percent_text, _text_table, _censoring_text). -#}

{% macro _percent(share) %}
  {%- set text = '%.2f' % (share * 100) -%}
  {%- if '.' in text -%}{%- set text = text.rstrip('0').rstrip('.') -%}{%- endif -%}
  {{ return(text ~ '%') }}
{% endmacro %}

{% macro _format_report(s, unit) %}
  {%- set lines = ['inc_join window sizing: ' ~ s['count'] ~ ' partner pairs, delta = b - a in ' ~ unit ~ 's'] -%}
  {%- set censored = dbt_inc_join._censoring_text(s.censoring, unit) -%}
  {%- if censored -%}{%- do lines.append(censored) -%}{%- endif -%}
  {%- if s['count'] == 0 -%}
    {%- do lines.append('  no partner pairs: the history says nothing about the window; suggested: look_back_time=0, max_waiting_time=0') -%}
    {{ return(lines | join('\n')) }}
  {%- endif -%}
  {%- do lines.append('  delta from ' ~ s.minimum ~ ' to ' ~ s.maximum ~ ' ' ~ unit ~ 's') -%}
  {%- set cells = [] -%}{%- for level, value in s.quantiles -%}{%- do cells.append(dbt_inc_join._percent(level) ~ ': ' ~ value) -%}{%- endfor -%}
  {%- do lines.append('  quantiles ' ~ cells | join(', ')) -%}
  {%- do lines.append('suggested for coverage ' ~ dbt_inc_join._percent(s.coverage) ~ ': look_back_time=' ~ s.look_back_time
                      ~ ', max_waiting_time=' ~ s.max_waiting_time ~ ' (keeps ' ~ dbt_inc_join._percent(s.covered)
                      ~ ' of the pairs, loses ' ~ s.lost_pairs ~ ')') -%}
  {%- do lines.append('  coverage  look_back_time  max_waiting_time  lost  lost pairs') -%}
  {%- for c in s.candidates -%}
    {%- do lines.append('  ' ~ dbt_inc_join._percent(c.target) ~ '  ' ~ c.look_back_time ~ '  ' ~ c.max_waiting_time ~ '  '
                        ~ dbt_inc_join._percent(c.lost) ~ '  ' ~ c.lost_pairs) -%}
  {%- endfor -%}
  {%- if s.late_matches -%}
    {%- set mw = s.late_window[1] -%}
    {%- do lines.append('late matches with look_back_time=' ~ s.late_window[0] ~ ', max_waiting_time=' ~ mw ~ ': pairs with '
                        ~ mw ~ ' < delta <= ' ~ mw ~ ' + late_match_time (late matches when their A row has no partner in the window)') -%}
    {%- do lines.append('  late_match_time  pairs  share') -%}
    {%- for m in s.late_matches -%}
      {%- do lines.append('  ' ~ m.late_match_time ~ '  ' ~ m.pairs ~ '  ' ~ dbt_inc_join._percent(m.share)) -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(lines | join('\n')) }}
{% endmacro %}

{% macro _percent_text(share) %}
  {#- Two decimals, more when they would round a non-zero loss to 0% or a share that is not
      whole to 100%. (The partner='all' report keeps _percent, two decimals always.) -#}
  {%- set value = share * 100 -%}
  {%- set ns = namespace(digits=2) -%}
  {%- for _ in range(6) -%}
    {%- if value not in [0, 100] and (value | round(ns.digits)) in [0, 100] -%}{%- set ns.digits = ns.digits + 1 -%}{%- else -%}{%- break -%}{%- endif -%}
  {%- endfor -%}
  {{ return((('%.' ~ ns.digits ~ 'f') % value).rstrip('0').rstrip('.') ~ '%') }}
{% endmacro %}

{% macro _text_table(header, rows) %}
  {#- The first column left-aligned, the others right-aligned, two spaces apart. -#}
  {%- set table = [header] + rows -%}
  {%- set widths = [] -%}
  {%- for i in range(header | length) -%}
    {%- do widths.append(table | map(attribute=i) | map('length') | max) -%}
  {%- endfor -%}
  {%- set lines = [] -%}
  {%- for row in table -%}
    {%- set cells = [] -%}
    {%- for cell in row -%}
      {%- do cells.append(cell.ljust(widths[loop.index0]) if loop.first else cell.rjust(widths[loop.index0])) -%}
    {%- endfor -%}
    {%- do lines.append((cells | join('  ')).rstrip()) -%}
  {%- endfor -%}
  {{ return(lines) }}
{% endmacro %}

{% macro _format_a_row_report(s, unit, minus='-') %}
  {#- The report of one row per A; sizing/report.py renders it with minus='−' (the run-operation prints '-'). -#}
  {%- set lines = ["inc_join window sizing, partner='" ~ s.partner ~ "': " ~ '{:,}'.format(s['count'])
                   ~ ' A rows with a partner, distances in ' ~ unit ~ 's (counts A rows, not pairs)',
                   '  ' ~ '{:,}'.format(s.without_partner) ~ ' A rows without any partner of equal keys are left out: no window gives them one'] -%}
  {%- set censored = dbt_inc_join._censoring_text(s.censoring, unit) -%}
  {%- if censored -%}{%- do lines.append(censored) -%}{%- endif -%}
  {%- if s['count'] == 0 -%}
    {%- do lines.append('  no A row has a partner: no key occurs in both inputs with both arrivals known, so the history says nothing about the window; lb = mw = 0 is a placeholder') -%}
    {%- do lines.append('  suggested: look_back_time=0, max_waiting_time=0') -%}
    {{ return(lines | join('\n')) }}
  {%- endif -%}
  {%- do lines.append('  an A row is kept when at least one partner arrives in [a ' ~ minus ~ ' lb, a + mw], else it times out') -%}
  {%- set levels = [0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999] -%}
  {%- set header = ['nearest partner', 'A rows'] -%}
  {%- for level in levels -%}{%- do header.append(dbt_inc_join._percent_text(level)) -%}{%- endfor -%}
  {%- set sides = [] -%}
  {%- for label, rows, found in [('at or before a: a ' ~ minus ~ ' b', s.before, s.before_quantiles), ('at or after a: b ' ~ minus ~ ' a', s.after, s.after_quantiles)] -%}
    {%- set cells = [label, '{:,}'.format(rows)] -%}
    {%- for level in levels -%}{%- do cells.append(found[loop.index0][1] | string if rows else '-') -%}{%- endfor -%}
    {%- do sides.append(cells) -%}
  {%- endfor -%}
  {%- for line in dbt_inc_join._text_table(header, sides) -%}{%- do lines.append('  ' ~ line) -%}{%- endfor -%}
  {%- set window = '[' ~ (minus ~ s.look_back_time if s.look_back_time else '0') ~ ', ' ~ ('+' ~ s.max_waiting_time if s.max_waiting_time else '0') ~ ']' -%}
  {%- do lines.append('suggested for coverage ' ~ dbt_inc_join._percent_text(s.coverage) ~ ': look_back_time=' ~ s.look_back_time
                      ~ ', max_waiting_time=' ~ s.max_waiting_time ~ ' (window ' ~ window ~ ' keeps '
                      ~ dbt_inc_join._percent_text(s.covered) ~ ' of the A rows, loses ' ~ '{:,}'.format(s.lost_rows) ~ ')') -%}
  {%- set rows = [] -%}
  {%- for c in s.candidates -%}
    {%- do rows.append([dbt_inc_join._percent_text(c.target), c.look_back_time | string, c.max_waiting_time | string,
                        dbt_inc_join._percent_text(c.lost), '{:,}'.format(c.lost_rows)]) -%}
  {%- endfor -%}
  {%- for line in dbt_inc_join._text_table(['coverage', 'look_back_time', 'max_waiting_time', 'lost', 'lost A rows'], rows) -%}
    {%- do lines.append('  ' ~ line) -%}
  {%- endfor -%}
  {{ return(lines | join('\n')) }}
{% endmacro %}

{% macro _censoring_text(censoring, unit) %}
  {#- The line on the censored A rows, empty with complete_history. -#}
  {%- if not censoring.applied -%}{{ return('') }}{%- endif -%}
  {%- if censoring.watermark is none -%}
    {%- set why = 'a or b has no arrival, so there is no watermark' -%}
  {%- else -%}
    {%- set why = 'a + ' ~ censoring.reach ~ ' ' ~ unit ~ 's is after the watermark ' ~ censoring.watermark
                  ~ ' (the earlier of the latest arrivals of a and b), so partners of theirs may not have arrived yet' -%}
  {%- endif -%}
  {{ return('  ' ~ '{:,}'.format(censoring.left_out) ~ ' A rows left out as censored: ' ~ why ~ '; complete_history=True counts them') }}
{% endmacro %}
