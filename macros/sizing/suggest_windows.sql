{#- dbt run-operation dbt_inc_join.suggest_windows --args '{a: trx_financial, b: trx_sepa, join_cols: [TrxId],
    inc_col: RecDate, coverage: 0.999}'
    inc_col defaults to the var inc_join_inc_col, else 'RecDate'.
    Prints the distribution of Δ = b − a over the partner pairs of the whole history (equal keys, any
    arrival) and the smallest look_back_time and max_waiting_time that keep `coverage` of them; the same
    numbers as dbt_inc_join.suggest_windows in Python. The query counts rows per (keys, arrival) on each side
    and never forms the pairs, so a key with thousands of rows a day costs its distinct arrivals, not its rows
    squared. -#}

{% macro suggest_windows(a, b, join_cols, inc_col=none, time_uom='day', coverage=0.999) %}
  {%- set inc_col = dbt_inc_join._arrival_column(inc_col) -%}
  {{ return(adapter.dispatch('suggest_windows', 'dbt_inc_join')(a, b, join_cols, inc_col, time_uom, coverage)) }}
{% endmacro %}

{% macro default__suggest_windows(a, b, join_cols, inc_col, time_uom, coverage) %}
  {%- set coverage = dbt_inc_join._check_coverage(coverage) -%}
  {%- set params = dbt_inc_join._check_parameters(join_cols, inc_col, 'inner', 0, 0, time_uom, true, false, none, ['_A', '_B']) -%}
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
  {#- Pairs per delta: count_a × count_b summed over the (keys, a), (keys, b) of equal keys. -#}
  {%- set query -%}
    SELECT delta, sum(pairs) AS pairs FROM (
      SELECT {{ dbt_inc_join._diff_units_sql('_b_arrival', '_a_arrival', unit) }} AS delta, pa._a_rows * pb._b_rows AS pairs
      FROM ({{ counts[0] }}) AS pa INNER JOIN ({{ counts[1] }}) AS pb ON {{ condition | join(' AND ') }}
    ) AS counted
    GROUP BY delta ORDER BY delta
  {%- endset -%}
  {%- set histogram = [] -%}
  {%- for row in run_query(query).rows -%}{%- do histogram.append([row[0] | int, row[1] | int]) -%}{%- endfor -%}
  {%- set suggestion = dbt_inc_join._suggest_from_histogram(histogram, coverage) -%}
  {%- do print(dbt_inc_join._window_report(suggestion, unit)) -%}
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
        {%- if ns.j > 0 and behind + ahead[ns.j - 1][1] >= need -%}{%- set ns.j = ns.j - 1 -%}{%- endif -%}
      {%- endfor -%}
      {%- set mw = ahead[ns.j][0] -%}
      {%- if ns.best is none or (lb + mw) < (ns.best[0] + ns.best[1]) or ((lb + mw) == (ns.best[0] + ns.best[1]) and mw < ns.best[1]) -%}
        {%- set ns.best = [lb, mw] -%}
      {%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(ns.best) }}
{% endmacro %}

{% macro _suggest_from_histogram(histogram, coverage) %}
  {%- set count = histogram | map(attribute=1) | sum -%}
  {%- if count == 0 -%}
    {{ return({'count': 0, 'minimum': none, 'maximum': none, 'quantiles': [], 'look_back_time': 0,
               'max_waiting_time': 0, 'coverage': coverage, 'covered': 1.0, 'candidates': []}) }}
  {%- endif -%}
  {%- set quantiles = [] -%}
  {%- for level in [0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999] -%}
    {%- set rank = [1, dbt_inc_join._at_least(level, count)] | max -%}
    {%- set ns = namespace(seen=0, value=none) -%}
    {%- for delta, pairs in histogram -%}
      {%- set ns.seen = ns.seen + pairs -%}
      {%- if ns.value is none and ns.seen >= rank -%}{%- set ns.value = delta -%}{%- endif -%}
    {%- endfor -%}
    {%- do quantiles.append([level, ns.value]) -%}
  {%- endfor -%}
  {%- set window = dbt_inc_join._minimal_window(histogram, count, coverage) -%}
  {%- set candidates = [] -%}
  {%- for target in ([0.9, 0.99, 0.999, 1.0] + [coverage | float]) | unique | sort -%}
    {%- set candidate = dbt_inc_join._minimal_window(histogram, count, target) -%}
    {%- set kept = dbt_inc_join._covered(histogram, candidate[0], candidate[1]) -%}
    {%- do candidates.append({'target': target, 'look_back_time': candidate[0], 'max_waiting_time': candidate[1],
                              'lost': 1.0 - kept / count, 'lost_pairs': count - kept}) -%}
  {%- endfor -%}
  {%- set kept = dbt_inc_join._covered(histogram, window[0], window[1]) -%}
  {{ return({'count': count, 'minimum': histogram[0][0], 'maximum': histogram[-1][0], 'quantiles': quantiles,
             'look_back_time': window[0], 'max_waiting_time': window[1], 'coverage': coverage,
             'covered': kept / count, 'lost_pairs': count - kept, 'candidates': candidates}) }}
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
  {{ return(lines | join('\n')) }}
{% endmacro %}
