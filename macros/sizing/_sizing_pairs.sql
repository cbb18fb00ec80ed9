{#- The window that keeps a share of the partner pairs (partner = 'all'), from the histogram of delta = b - a:
    the one copy of these rules: dbt calls them, and sizing/ (histogram.py, suggest.py) renders them for the
    core, on exact decimals. -#}

{% macro _check_coverage(value, spelling='sql') %}
  {#- A share of pairs in (0, 1]. The two languages word this check differently (one message in dbt, a type
      and a range message in Python): both are kept as users read them. -#}
  {%- set number = value is number and value is not boolean -%}
  {%- if spelling == 'python' and not number -%}
    {{ dbt_inc_join._fail('coverage must be a number in (0, 1], e.g. 0.999 (got ' ~ dbt_inc_join._typed(value, spelling) ~ ').', 'coverage_type', spelling) }}
  {%- elif spelling == 'python' and not 0 < value <= 1 -%}
    {{ dbt_inc_join._fail('coverage must be in (0, 1], the share of partner pairs the window keeps (got ' ~ dbt_inc_join._q(value, spelling) ~ ').', 'coverage', spelling) }}
  {%- elif not number or not 0 < value <= 1 -%}
    {{ dbt_inc_join._fail('coverage must be a share greater than 0 and at most 1, e.g. 0.999 (got ' ~ dbt_inc_join._repr(value) ~ ').', 'coverage', spelling) }}
  {%- endif -%}
  {{ return(value) }}
{% endmacro %}

{% macro _required_pairs(share, count) %}
  {#- ceil(share · count) with the share's exact decimal value as written (0.999 = 999/1000), so that
      floating point never moves a rank or a threshold. -#}
  {%- set text = '%r' % (share | float) -%}
  {%- set mantissa, _, exponent = text.partition('e') -%}
  {%- set whole, _, fraction = mantissa.partition('.') -%}
  {#- a share below 0.0001 reads 1.5e-05: its exponent (<= 0 for a share <= 1) moves the point left -#}
  {%- set denominator = 10 ** ((fraction | length) - (exponent | int)) -%}
  {%- set numerator = (whole ~ fraction) | int -%}
  {{ return((numerator * count + denominator - 1) // denominator) }}
{% endmacro %}

{% macro _covered_pairs(histogram, lb, mw) %}
  {%- set ns = namespace(pairs=0) -%}
  {%- for delta, pairs in histogram -%}{%- if -lb <= delta <= mw -%}{%- set ns.pairs = ns.pairs + pairs -%}{%- endif -%}{%- endfor -%}
  {{ return(ns.pairs) }}
{% endmacro %}

{% macro _better_window(candidate, best) %}
  {#- Whether the window [lb, mw] `candidate` beats `best`: the smaller lb + mw; ties: the smaller mw; any
      window beats none. The one tie rule of both minimal windows (_minimal_a_row_window's too). -#}
  {%- if best is none -%}
    {{ return(true) }}
  {%- endif -%}
  {%- set length = candidate[0] + candidate[1] -%}
  {%- set best_length = best[0] + best[1] -%}
  {{ return(length < best_length or (length == best_length and candidate[1] < best[1])) }}
{% endmacro %}

{% macro _minimal_window(histogram, count, coverage) %}
  {#- Smallest lb + mw (ties: smaller mw; _better_window) keeping at least `coverage` of the pairs; only 0 and the distances
      that occur can be optimal. Two pointers over the distinct distances. -#}
  {%- set need = dbt_inc_join._required_pairs(coverage, count) -%}
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
      {%- if dbt_inc_join._better_window([lb, mw], ns.best) -%}
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
    {%- set rank = [1, dbt_inc_join._required_pairs(level, count)] | max -%}
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
  {#- The late_match_time values the report shows: 1, half, one and two times max_waiting_time. -#}
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
    {%- set kept = dbt_inc_join._covered_pairs(histogram, candidate[0], candidate[1]) -%}
    {%- do candidates.append({'target': target, 'look_back_time': candidate[0], 'max_waiting_time': candidate[1],
                              'lost': 1.0 - kept / count, 'lost_pairs': count - kept}) -%}
  {%- endfor -%}
  {%- set late_window = given if given is not none else suggested -%}
  {%- set kept = dbt_inc_join._covered_pairs(histogram, suggested[0], suggested[1]) -%}
  {{ return({'count': count, 'minimum': histogram[0][0], 'maximum': histogram[-1][0], 'quantiles': quantiles,
             'look_back_time': suggested[0], 'max_waiting_time': suggested[1], 'coverage': coverage,
             'covered': kept / count, 'lost_pairs': count - kept, 'candidates': candidates,
             'late_window': late_window, 'late_matches': dbt_inc_join._late_match_shares(histogram, count, late_window[1])}) }}
{% endmacro %}
