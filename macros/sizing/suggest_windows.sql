{#- dbt run-operation dbt_inc_join.suggest_windows --args '{a: trx_financial, b: trx_sepa, join_cols: [TrxId],
    inc_col: RecDate, coverage: 0.999}'
    inc_col defaults to the var inc_join_inc_col, else 'RecDate'.
    partner='all' (the default) prints the distribution of Δ = b − a over the partner pairs of the whole
    history (equal keys, any arrival) and the smallest look_back_time and max_waiting_time that keep `coverage`
    of them. partner='first', 'last' or 'aggregate' (one row per A, spec §11) counts A rows instead: an A row
    is kept when at least one partner arrives in [a − lb, a + mw]; it prints the nearest partner before and
    after each A row and the smallest window that keeps `coverage` of the A rows that have a partner. The same
    numbers as dbt_inc_join.suggest_windows in Python (for one row per A, the same text with '-' for '−').
    The query counts rows per (keys, arrival) on each side and never forms the pairs, so a key with thousands
    of rows a day costs its distinct arrivals, not its rows squared.
    look_back_time and max_waiting_time (both or neither): the window in use; with partner='all' the report counts,
    for a few late_match_time values (spec §10), the pairs with mw < delta <= mw + late_match_time, which that
    window would pair late (the suggested window when none is given). -#}

{% macro suggest_windows(a, b, join_cols, inc_col=none, time_uom='day', coverage=0.999, partner='all',
                         look_back_time=none, max_waiting_time=none) %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col, allow_pair=true) -%}
  {{ return(adapter.dispatch('suggest_windows', 'dbt_inc_join')(a, b, join_cols, inc_col, time_uom, coverage, partner,
                                                            look_back_time, max_waiting_time)) }}
{% endmacro %}

{% macro default__suggest_windows(a, b, join_cols, inc_col, time_uom, coverage, partner='all', look_back_time=none,
                                  max_waiting_time=none) %}
  {%- set coverage = dbt_inc_join._check_coverage(coverage) -%}
  {%- set window = none -%}
  {%- if look_back_time is not none or max_waiting_time is not none -%}
    {%- if look_back_time is none or max_waiting_time is none -%}
      {{ dbt_inc_join._fail('suggest_windows takes the window in use as look_back_time and max_waiting_time together (got only one of them).') }}
    {%- endif -%}
    {%- set window = [dbt_inc_join._window_length('look_back_time', look_back_time), dbt_inc_join._window_length('max_waiting_time', max_waiting_time)] -%}
  {%- endif -%}
  {%- set partner = dbt_inc_join._choice('partner', partner, ['all', 'first', 'last', 'aggregate']) -%}
  {%- set params = dbt_inc_join._check_parameters({'join_cols': join_cols, 'inc_col': inc_col, 'how': 'inner', 'time_uom': time_uom}) -%}
  {%- set a, b = dbt_inc_join._relation_argument(a, 'a'), dbt_inc_join._relation_argument(b, 'b') -%}
  {%- set inputs = dbt_inc_join._resolve_inputs(params, adapter.get_columns_in_relation(a), adapter.get_columns_in_relation(b)) -%}
  {%- set unit = params.time_uom -%}
  {#- Rows per (keys, arrival truncated to the unit) on each side, arrival known: _ak0.., _a_arrival, _a_rows. -#}
  {%- set counts = [] -%}
  {%- for side, relation in [('a', a), ('b', b)] -%}
    {%- set index = loop.index0 -%}
    {%- set arrival = dbt_inc_join._quote(inputs.inc_col[index]) -%}
    {%- set projection, grouping = [], [] -%}
    {%- for pair in inputs['keys'] -%}
      {%- do projection.append(dbt_inc_join._quote(pair[index]) ~ ' AS _' ~ side ~ 'k' ~ loop.index0) -%}
      {%- do grouping.append(dbt_inc_join._quote(pair[index])) -%}
    {%- endfor -%}
    {%- do projection.append(dbt_inc_join._truncate_sql(arrival, unit) ~ ' AS _' ~ side ~ '_arrival') -%}
    {%- do grouping.append(dbt_inc_join._truncate_sql(arrival, unit)) -%}
    {%- do counts.append('SELECT ' ~ projection | join(', ') ~ ', count(*) AS _' ~ side ~ '_rows FROM ' ~ relation
                         ~ ' WHERE ' ~ arrival ~ ' IS NOT NULL GROUP BY ' ~ grouping | join(', ')) -%}
  {%- endfor -%}
  {%- set condition = [] -%}
  {%- for pair in inputs['keys'] -%}{%- do condition.append('_ak' ~ loop.index0 ~ ' = _bk' ~ loop.index0) -%}{%- endfor -%}
  {%- set delta = dbt_inc_join._diff_units_sql('_b_arrival', '_a_arrival', unit) -%}
  {%- if partner == 'all' -%}
    {#- Pairs per delta: count_a × count_b summed over the (keys, a), (keys, b) of equal keys. -#}
    {%- set query -%}
      SELECT delta, sum(pairs) AS pairs FROM (
        SELECT {{ delta }} AS delta, pa._a_rows * pb._b_rows AS pairs
        FROM ({{ counts[0] }}) AS pa INNER JOIN ({{ counts[1] }}) AS pb ON {{ condition | join(' AND ') }}
      ) AS counted
      GROUP BY delta ORDER BY delta
    {%- endset -%}
    {%- set histogram = [] -%}
    {%- for row in run_query(query).rows -%}{%- do histogram.append([row[0] | int, row[1] | int]) -%}{%- endfor -%}
    {%- set suggestion = dbt_inc_join._suggest_from_histogram(histogram, coverage, window) -%}
    {%- do print(dbt_inc_join._window_report(suggestion, unit)) -%}
    {{ return(suggestion) }}
  {%- endif -%}
  {#- One row per A: per (keys, a), the nearest partner at or before a (a - b) and at or after a (b - a), both
      NULL without partner; A rows per (before, after). -#}
  {%- set key_columns = [] -%}
  {%- for pair in inputs['keys'] -%}{%- do key_columns.append('_ak' ~ loop.index0) -%}{%- endfor -%}
  {%- set query -%}
    SELECT _before, _after, sum(_a_rows) AS a_rows FROM (
      SELECT min(CASE WHEN delta <= 0 THEN -delta END) AS _before, min(CASE WHEN delta >= 0 THEN delta END) AS _after, _a_rows
      FROM (
        SELECT pa.*, {{ delta }} AS delta
        FROM ({{ counts[0] }}) AS pa LEFT JOIN ({{ counts[1] }}) AS pb ON {{ condition | join(' AND ') }}
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
  {%- set suggestion = dbt_inc_join._suggest_from_nearest(points, ns.without_partner, coverage, partner) -%}
  {%- do print(dbt_inc_join._a_row_report(suggestion, unit)) -%}
  {{ return(suggestion) }}
{% endmacro %}

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

{% macro _check_coverage(value) %}
  {%- if value is not number or value is boolean or value <= 0 or value > 1 -%}
    {{ dbt_inc_join._fail('coverage must be a share greater than 0 and at most 1, e.g. 0.999 (got ' ~ dbt_inc_join._repr(value) ~ ').') }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _at_least(share, count) %}
  {#- ceil(share · count) with the share's exact decimal value as written (0.999 = 999/1000), so that
      floating point never moves a rank or a threshold: the same rule as the Python module. -#}
  {%- set text = '%r' % (share | float) -%}
  {%- set whole, _, fraction = text.partition('.') -%}
  {%- set denominator = 10 ** (fraction | length) -%}
  {%- set numerator = (whole ~ fraction) | int -%}
  {{ return((numerator * count + denominator - 1) // denominator) }}
{% endmacro %}

{% macro _covered(histogram, lb, mw) %}
  {%- set ns = namespace(pairs=0) -%}
  {%- for delta, pairs in histogram -%}{%- if -lb <= delta <= mw -%}{%- set ns.pairs = ns.pairs + pairs -%}{%- endif -%}{%- endfor -%}
  {{ return(ns.pairs) }}
{% endmacro %}

{% macro _minimal_window(histogram, count, coverage) %}
  {#- Smallest lb + mw (ties: smaller mw) keeping at least `coverage` of the pairs; only 0 and the distances
      that occur can be optimal. Two pointers over the distinct distances. -#}
  {%- set need = dbt_inc_join._at_least(coverage, count) -%}
  {%- if need == 0 -%}{{ return([0, 0]) }}{%- endif -%}
  {%- set back = [[0, 0]] -%}
  {%- for delta, pairs in histogram | reverse -%}
    {%- if delta < 0 -%}{%- do back.append([-delta, back[-1][1] + pairs]) -%}{%- endif -%}
  {%- endfor -%}
  {%- set at_zero = histogram | selectattr(0, 'equalto', 0) | map(attribute=1) | sum -%}
  {%- set ahead = [[0, at_zero]] -%}
  {%- for delta, pairs in histogram -%}
    {%- if delta > 0 -%}{%- do ahead.append([delta, ahead[-1][1] + pairs]) -%}{%- endif -%}
  {%- endfor -%}
  {%- set ns = namespace(j=ahead | length - 1, best=none) -%}
  {%- for lb, behind in back -%}
    {%- if behind + ahead[ns.j][1] >= need -%}
      {%- for _ in range(ns.j) -%}
        {%- if behind + ahead[ns.j - 1][1] >= need -%}{%- set ns.j = ns.j - 1 -%}{%- else -%}{%- break -%}{%- endif -%}
      {%- endfor -%}
      {%- set mw = ahead[ns.j][0] -%}
      {%- if ns.best is none or (lb + mw) < (ns.best[0] + ns.best[1]) or ((lb + mw) == (ns.best[0] + ns.best[1]) and mw < ns.best[1]) -%}
        {%- set ns.best = [lb, mw] -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(ns.best) }}
{% endmacro %}

{% macro _quantiles(histogram, count) %}
  {#- Nearest-rank quantiles [[level, delta], ...] of a histogram [[delta, count], ...] ascending by delta. -#}
  {%- set quantiles = [] -%}
  {%- for level in [0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999] -%}
    {%- set rank = [1, dbt_inc_join._at_least(level, count)] | max -%}
    {%- set ns = namespace(seen=0, value=none) -%}
    {%- for delta, pairs in histogram -%}
      {%- set ns.seen = ns.seen + pairs -%}
      {%- if ns.seen >= rank -%}{%- set ns.value = delta -%}{%- break -%}{%- endif -%}
    {%- endfor -%}
    {%- do quantiles.append([level, ns.value]) -%}
  {%- endfor -%}
  {{ return(quantiles) }}
{% endmacro %}

{% macro _late_match_values(mw) %}
  {#- The late_match_time values the report shows: 1, half, one and two times max_waiting_time (sizing.py). -#}
  {{ return([1, mw // 2, mw, 2 * mw] | select('gt', 0) | unique | sort | list) }}
{% endmacro %}

{% macro _late_match_shares(histogram, count, mw) %}
  {#- Per late_match_time value: the pairs with mw < delta <= mw + L and their share of all pairs. -#}
  {%- set shares = [] -%}
  {%- for late in dbt_inc_join._late_match_values(mw) -%}
    {%- set ns = namespace(pairs=0) -%}
    {%- for delta, pairs in histogram -%}
      {%- if mw < delta and delta <= mw + late -%}{%- set ns.pairs = ns.pairs + pairs -%}{%- endif -%}
    {%- endfor -%}
    {%- do shares.append({'late_match_time': late, 'pairs': ns.pairs, 'share': ns.pairs / count}) -%}
  {%- endfor -%}
  {{ return(shares) }}
{% endmacro %}

{% macro _suggest_from_histogram(histogram, coverage, window=none) %}
  {%- set count = histogram | map(attribute=1) | sum -%}
  {%- if count == 0 -%}
    {{ return({'count': 0, 'minimum': none, 'maximum': none, 'quantiles': [], 'look_back_time': 0,
               'max_waiting_time': 0, 'coverage': coverage, 'covered': 1.0, 'candidates': []}) }}
  {%- endif -%}
  {%- set given = window -%}
  {%- set quantiles = dbt_inc_join._quantiles(histogram, count) -%}
  {%- set suggested = dbt_inc_join._minimal_window(histogram, count, coverage) -%}
  {%- set candidates = [] -%}
  {%- for target in ([0.9, 0.99, 0.999, 1.0] + [coverage | float]) | unique | sort -%}
    {%- set candidate = dbt_inc_join._minimal_window(histogram, count, target) -%}
    {%- set kept = dbt_inc_join._covered(histogram, candidate[0], candidate[1]) -%}
    {%- do candidates.append({'target': target, 'look_back_time': candidate[0], 'max_waiting_time': candidate[1],
                              'lost': 1.0 - kept / count, 'lost_pairs': count - kept}) -%}
  {%- endfor -%}
  {%- set late_window = given if given is not none else suggested -%}
  {%- set kept = dbt_inc_join._covered(histogram, suggested[0], suggested[1]) -%}
  {{ return({'count': count, 'minimum': histogram[0][0], 'maximum': histogram[-1][0], 'quantiles': quantiles,
             'look_back_time': suggested[0], 'max_waiting_time': suggested[1], 'coverage': coverage,
             'covered': kept / count, 'lost_pairs': count - kept, 'candidates': candidates,
             'late_window': late_window, 'late_matches': dbt_inc_join._late_match_shares(histogram, count, late_window[1])}) }}
{% endmacro %}

{% macro _percent(share) %}
  {%- set text = '%.2f' % (share * 100) -%}
  {%- if '.' in text -%}{%- set text = text.rstrip('0').rstrip('.') -%}{%- endif -%}
  {{ return(text ~ '%') }}
{% endmacro %}

{% macro _window_report(s, unit) %}
  {%- set lines = ['inc_join window sizing: ' ~ s['count'] ~ ' partner pairs, delta = b - a in ' ~ unit ~ 's'] -%}
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

{#- One row per A (partner = first, last or aggregate): points are [before, after, A rows] with before = a - b
    of the nearest partner at or before a and after = b - a of the nearest at or after a (none where there is
    none, never both). An A row is covered by (lb, mw) when before <= lb or after <= mw. The rules of
    sizing.py's one-row-per-A functions, line for line. -#}

{% macro _covered_a_rows(points, lb, mw) %}
  {%- set ns = namespace(rows=0) -%}
  {%- for before, after, rows in points -%}
    {%- if (before is not none and before <= lb) or (after is not none and after <= mw) -%}{%- set ns.rows = ns.rows + rows -%}{%- endif -%}
  {%- endfor -%}
  {{ return(ns.rows) }}
{% endmacro %}

{% macro _minimal_a_row_window(points, count, coverage) %}
  {#- Smallest lb + mw (ties: smaller mw) keeping at least `coverage` of the A rows; only 0 and the distances
      that occur can be optimal. The smallest sufficient mw only moves down as lb grows; the A rows not yet
      covered by lb are kept per `after`, and raising lb takes each A row out of them once. -#}
  {%- set need = dbt_inc_join._at_least(coverage, count) -%}
  {%- if need == 0 -%}{{ return([0, 0]) }}{%- endif -%}
  {%- set by_before, uncovered = {}, {} -%}
  {%- set ns = namespace(kept=0, j=0, best=none) -%}
  {%- for before, after, rows in points -%}
    {%- if before is not none -%}
      {%- if before not in by_before -%}{%- do by_before.update({before: []}) -%}{%- endif -%}
      {%- do by_before[before].append([after, rows]) -%}
    {%- endif -%}
    {%- if after is not none -%}
      {%- do uncovered.update({after: uncovered.get(after, 0) + rows}) -%}
      {%- set ns.kept = ns.kept + rows -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set backs, aheads = [0], [0] -%}
  {%- for distance in by_before.keys() | list | sort -%}{%- if distance > 0 -%}{%- do backs.append(distance) -%}{%- endif -%}{%- endfor -%}
  {%- for distance in uncovered.keys() | list | sort -%}{%- if distance > 0 -%}{%- do aheads.append(distance) -%}{%- endif -%}{%- endfor -%}
  {%- set ns.j = aheads | length - 1 -%}
  {%- for lb in backs -%}
    {%- for after, rows in by_before.get(lb, []) -%}
      {%- if after is not none -%}{%- do uncovered.update({after: uncovered[after] - rows}) -%}{%- endif -%}
      {%- if after is none or after > aheads[ns.j] -%}{%- set ns.kept = ns.kept + rows -%}{%- endif -%}
    {%- endfor -%}
    {%- if ns.kept >= need -%}
      {%- for _ in range(ns.j) -%}
        {%- set losing = uncovered.get(aheads[ns.j], 0) -%}
        {%- if ns.kept - losing >= need -%}
          {%- set ns.kept = ns.kept - losing -%}
          {%- set ns.j = ns.j - 1 -%}
        {%- else -%}{%- break -%}{%- endif -%}
      {%- endfor -%}
      {%- set mw = aheads[ns.j] -%}
      {%- if ns.best is none or (lb + mw) < (ns.best[0] + ns.best[1]) or ((lb + mw) == (ns.best[0] + ns.best[1]) and mw < ns.best[1]) -%}
        {%- set ns.best = [lb, mw] -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(ns.best) }}
{% endmacro %}

{% macro _side_histogram(points, side) %}
  {#- [[distance, A rows], ...] ascending: the nearest partner at or before a (side 0) or at or after a (1). -#}
  {%- set counts = {} -%}
  {%- for point in points -%}
    {%- if point[side] is not none -%}{%- do counts.update({point[side]: counts.get(point[side], 0) + point[2]}) -%}{%- endif -%}
  {%- endfor -%}
  {%- set histogram = [] -%}
  {%- for distance in counts.keys() | list | sort -%}{%- do histogram.append([distance, counts[distance]]) -%}{%- endfor -%}
  {{ return(histogram) }}
{% endmacro %}

{% macro _suggest_from_nearest(points, without_partner, coverage, partner) %}
  {%- set count = points | map(attribute=2) | sum -%}
  {%- set before = dbt_inc_join._side_histogram(points, 0) -%}
  {%- set after = dbt_inc_join._side_histogram(points, 1) -%}
  {%- set result = {'partner': partner, 'count': count, 'without_partner': without_partner,
                    'before': before | map(attribute=1) | sum, 'after': after | map(attribute=1) | sum,
                    'before_quantiles': [], 'after_quantiles': [], 'coverage': coverage, 'points': points} -%}
  {%- if count == 0 -%}
    {%- do result.update({'look_back_time': 0, 'max_waiting_time': 0, 'covered': 1.0, 'lost_rows': 0, 'candidates': []}) -%}
    {{ return(result) }}
  {%- endif -%}
  {%- if result.before -%}{%- do result.update({'before_quantiles': dbt_inc_join._quantiles(before, result.before)}) -%}{%- endif -%}
  {%- if result.after -%}{%- do result.update({'after_quantiles': dbt_inc_join._quantiles(after, result.after)}) -%}{%- endif -%}
  {%- set window = dbt_inc_join._minimal_a_row_window(points, count, coverage) -%}
  {%- set candidates = [] -%}
  {%- for target in ([0.9, 0.99, 0.999, 1.0] + [coverage | float]) | unique | sort -%}
    {%- set candidate = dbt_inc_join._minimal_a_row_window(points, count, target) -%}
    {%- set kept = dbt_inc_join._covered_a_rows(points, candidate[0], candidate[1]) -%}
    {%- do candidates.append({'target': target, 'look_back_time': candidate[0], 'max_waiting_time': candidate[1],
                              'lost': 1.0 - kept / count, 'lost_rows': count - kept}) -%}
  {%- endfor -%}
  {%- set kept = dbt_inc_join._covered_a_rows(points, window[0], window[1]) -%}
  {%- do result.update({'look_back_time': window[0], 'max_waiting_time': window[1], 'covered': kept / count,
                        'lost_rows': count - kept, 'candidates': candidates}) -%}
  {{ return(result) }}
{% endmacro %}

{% macro _percent_text(share) %}
  {#- sizing.percent: two decimals, more when they would round a non-zero loss to 0% or a share that is not
      whole to 100%. (The partner='all' report keeps _percent, two decimals always.) -#}
  {%- set value = share * 100 -%}
  {%- set ns = namespace(digits=2) -%}
  {%- for _ in range(6) -%}
    {%- if value not in [0, 100] and (value | round(ns.digits)) in [0, 100] -%}{%- set ns.digits = ns.digits + 1 -%}{%- else -%}{%- break -%}{%- endif -%}
  {%- endfor -%}
  {{ return((('%.' ~ ns.digits ~ 'f') % value).rstrip('0').rstrip('.') ~ '%') }}
{% endmacro %}

{% macro _text_table(header, rows) %}
  {#- sizing._table: the first column left-aligned, the others right-aligned, two spaces apart. -#}
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

{% macro _a_row_report(s, unit) %}
  {#- The text of sizing.format_a_row_report with '-' for '−'. -#}
  {%- set lines = ["inc_join window sizing, partner='" ~ s.partner ~ "': " ~ '{:,}'.format(s['count'])
                   ~ ' A rows with a partner, distances in ' ~ unit ~ 's (counts A rows, not pairs)',
                   '  ' ~ '{:,}'.format(s.without_partner) ~ ' A rows without any partner of equal keys are left out: no window gives them one'] -%}
  {%- if s['count'] == 0 -%}
    {%- do lines.append('  no A row has a partner: no key occurs in both inputs with both arrivals known, so the history says nothing about the window; lb = mw = 0 is a placeholder') -%}
    {%- do lines.append('  suggested: look_back_time=0, max_waiting_time=0') -%}
    {{ return(lines | join('\n')) }}
  {%- endif -%}
  {%- do lines.append('  an A row is kept when at least one partner arrives in [a - lb, a + mw], else it times out') -%}
  {%- set levels = [0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999] -%}
  {%- set header = ['nearest partner', 'A rows'] -%}
  {%- for level in levels -%}{%- do header.append(dbt_inc_join._percent_text(level)) -%}{%- endfor -%}
  {%- set sides = [] -%}
  {%- for label, rows, found in [('at or before a: a - b', s.before, s.before_quantiles), ('at or after a: b - a', s.after, s.after_quantiles)] -%}
    {%- set cells = [label, '{:,}'.format(rows)] -%}
    {%- for level in levels -%}{%- do cells.append(found[loop.index0][1] | string if rows else '-') -%}{%- endfor -%}
    {%- do sides.append(cells) -%}
  {%- endfor -%}
  {%- for line in dbt_inc_join._text_table(header, sides) -%}{%- do lines.append('  ' ~ line) -%}{%- endfor -%}
  {%- set window = '[' ~ ('-' ~ s.look_back_time if s.look_back_time else '0') ~ ', ' ~ ('+' ~ s.max_waiting_time if s.max_waiting_time else '0') ~ ']' -%}
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

{#- dbt run-operation dbt_inc_join.suggest_windows_many --args '{a: orders, inputs: [{b: payments, name: payment,
    join_cols: OrderId}, {b: fees, name: fees, join_cols: OrderId, aggregate: true}]}'
    Sizes each input of an inc_join_many model (spec §12) in one call: per input, its heading and the report of
    suggest_windows with the input's own keys and arrival columns, as one row per A (partner 'first' by default,
    'last', or 'aggregate' when the input has an aggregate). sizing.py: suggest_windows_many, the same numbers. -#}

{% macro suggest_windows_many(a, inputs, time_uom='day', coverage=0.999) %}
  {%- set suggestions = {} -%}
  {%- for spec in dbt_inc_join._many_sizing_specs(inputs) -%}
    {%- set mode = 'aggregate' if spec.get('aggregate') else (spec.get('partner') or 'first') -%}
    {%- do print("inc_join_many input '" ~ spec.name ~ "' (" ~ mode ~ '):') -%}
    {%- do suggestions.update({spec.name: dbt_inc_join.suggest_windows(a, spec.get('b') or spec.get('relation'),
                                                                      spec.join_cols, spec.get('inc_col'), time_uom,
                                                                      coverage, mode)}) -%}
  {%- endfor -%}
  {{ return(suggestions) }}
{% endmacro %}

{% macro _many_sizing_specs(inputs) %}
  {#- The inputs of suggest_windows_many: a list of mappings, each with b (or relation), name and join_cols. -#}
  {%- if inputs is string or inputs is mapping or inputs is not iterable or inputs | length == 0 -%}
    {{ dbt_inc_join._fail_many('suggest_windows_many: inputs must be a non-empty list of inputs ({b: <model>, name: <name>, join_cols: ...}).') }}
  {%- endif -%}
  {%- for spec in inputs -%}
    {%- if spec is not mapping or not spec.get('name') or not (spec.get('b') or spec.get('relation')) or 'join_cols' not in spec -%}
      {{ dbt_inc_join._fail_many('suggest_windows_many: inputs[' ~ loop.index0 ~ '] needs b (the input), name and join_cols (got ' ~ dbt_inc_join._repr(spec) ~ ').') }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(inputs) }}
{% endmacro %}
