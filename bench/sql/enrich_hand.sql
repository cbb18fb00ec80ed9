{#- By hand, in one statement. TrxId is unique in A (bench/data.py), so grouping the pairs by (TrxId, a) groups
    them by A row. row_ids (issue 44's shape, which assumes nothing of A's keys): each A row numbered among the
    rows of its key and arrival first, and the pairs grouped, and joined back, by that number too. -#}
{% macro read(name, columns) -%}
SELECT {{ key }}, {{ columns | join(", ") }}, {{ inc_col }} FROM {{ case.table(name) }}
  WHERE {{ inc_col }} BETWEEN DATE'{{ case.read_from(name) }}' AND DATE'{{ case.end }}'
{%- endmacro %}
{% macro window(i) -%}
a.{{ key }} = {{ i.name }}.{{ key }} AND {{ i.name }}.{{ inc_col }}
  BETWEEN date_sub(a.{{ inc_col }}, {{ i.look_back_time }}) AND date_add(a.{{ inc_col }}, {{ i.max_waiting_time }})
{%- endmacro %}
{% set settle_b = "IF(p IS NULL, date_add(%s, %d), greatest(%s, p.%s))" % (inc_col, b.max_waiting_time, inc_col, inc_col) %}
{% set settle_c = "date_add(%s, %d)" % (inc_col, c.max_waiting_time) %}
{% set rid = ", a._rid" if row_ids else "" %}
{% macro same_row(alias) %}{{ " AND a._rid = %s._rid" % alias if row_ids }}{% endmacro %}
WITH a AS (
{%- if row_ids %}
  SELECT *, row_number() OVER (PARTITION BY {{ key }}, {{ inc_col }} ORDER BY {{ a_columns | join(", ") }}) AS _rid
  FROM ({{ read("a", a_columns) }})
{%- else %}{{ read("a", a_columns) }}{% endif %}),
b AS ({{ read(b.name, b_columns) }}),
c AS ({{ read(c.name, b_columns) }}),
first_b AS (
  SELECT a.{{ key }}, a.{{ inc_col }} AS a_day{{ rid }},
         min_by(struct(b.{{ b_columns | join(", b.") }}, b.{{ inc_col }}), struct(b.{{ inc_col }}, b.{{ b_columns | join(", b.") }})) AS p
  FROM a JOIN b ON {{ window(b) }}
  GROUP BY a.{{ key }}, a.{{ inc_col }}{{ rid }}
),
grouped_c AS (
  SELECT a.{{ key }}, a.{{ inc_col }} AS a_day{{ rid }},
{%- for name, expression in c.aggregate %} {{ expression }} AS {{ name }},{% endfor %} count(*) AS partners
  FROM a JOIN c ON {{ window(c) }}
  GROUP BY a.{{ key }}, a.{{ inc_col }}{{ rid }}
),
joined AS (
  SELECT a.*, f.p,{% for name, _ in c.aggregate %} g.{{ name }},{% endfor %} g.partners
  FROM a
  LEFT JOIN first_b f ON a.{{ key }} = f.{{ key }} AND a.{{ inc_col }} = f.a_day{{ same_row("f") }}
  LEFT JOIN grouped_c g ON a.{{ key }} = g.{{ key }} AND a.{{ inc_col }} = g.a_day{{ same_row("g") }}
),
placed AS (SELECT *, greatest({{ settle_b }}, {{ settle_c }}) AS placed FROM joined)
SELECT {{ key }}, placed AS {{ inc_col }}, {{ a_columns | join(", ") }}, {{ inc_col }} AS {{ inc_col }}_A,
{%- for x in b_columns %} p.{{ x }} AS {{ x }}_{{ b.name }},{% endfor %} p.{{ inc_col }} AS {{ inc_col }}_{{ b.name }},
       CAST(CASE WHEN p IS NULL THEN {{ codes.A_TIMED_OUT }} WHEN p.{{ inc_col }} = {{ inc_col }} THEN {{ codes.SAME_TIME }}
                 WHEN p.{{ inc_col }} < {{ inc_col }} THEN {{ codes.A_LATE }} ELSE {{ codes.B_LATE }} END AS INT) AS JoinType_{{ b.name }},
       {#- an A row without partner in c: the aggregates over no rows (count and count_if 0, max NULL) #}
{%- for name, expression in c.aggregate %} {{ "coalesce(%s, 0) AS %s" % (name, name) if expression.startswith("count") else name }},{% endfor %}
       CAST(IF(partners IS NULL, {{ codes.A_TIMED_OUT }}, {{ codes.A_AGGREGATED }}) AS INT) AS JoinType_{{ c.name }}
FROM placed
WHERE placed BETWEEN DATE'{{ case.start }}' AND DATE'{{ case.end }}'
