{#- One row per A (partner = first, last or aggregate): points are [before, after, A rows] with before = a - b
    of the nearest partner at or before a and after = b - a of the nearest at or after a (none where there is
    none, never both). An A row is covered by (lb, mw) when before <= lb or after <= mw. The rules of
    the one-row-per-A rules, which sizing/ (nearest.py, suggest.py) renders for the core. -#}

{% macro _covered_a_rows(points, lb, mw) %}
  {%- set ns = namespace(rows=0) -%}
  {%- for before, after, rows in points -%}
    {%- if (before is not none and before <= lb) or (after is not none and after <= mw) -%}{%- set ns.rows = ns.rows + rows -%}{%- endif -%}
  {%- endfor -%}
  {{ return(ns.rows) }}
{% endmacro %}

{% macro _minimal_a_row_window(points, count, coverage) %}
  {#- Smallest lb + mw (ties: smaller mw; _better_window) keeping at least `coverage` of the A rows; only 0 and the distances
      that occur can be optimal. The smallest sufficient mw only moves down as lb grows; the A rows not yet
      covered by lb are kept per `after`, and raising lb takes each A row out of them once. -#}
  {%- set need = dbt_inc_join._required_pairs(coverage, count) -%}
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
      {%- if dbt_inc_join._better_window([lb, mw], ns.best) -%}
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
