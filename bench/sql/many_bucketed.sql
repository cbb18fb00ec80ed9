{#- partner = 'all', how = inner, by hand: B in time buckets of width lb + mw + 1, each A row in the one or two
    buckets its window [a - lb, a + mw] touches, an equi-join on (key, bucket), then the window filter. A B row
    lies in one bucket, and an A row's buckets are distinct, so every pair is found once. -#}
{% set width = lb + mw + 1 %}
WITH a AS (
  SELECT {{ key }}, {{ inc_col }} AS RecDate_A, {{ a_columns | join(", ") }}, unix_date({{ inc_col }}) AS a_day
  FROM {{ case.table_a }} WHERE {{ read_a }}
),
a_buckets AS (
  SELECT *, explode(array_distinct(array((a_day - {{ lb }}) DIV {{ width }}, (a_day + {{ mw }}) DIV {{ width }}))) AS bucket
  FROM a
),
b AS (
  SELECT {{ key }}, {{ inc_col }} AS RecDate_B, {{ b_columns | join(", ") }}, unix_date({{ inc_col }}) AS b_day,
         unix_date({{ inc_col }}) DIV {{ width }} AS bucket
  FROM {{ case.table_b }} WHERE {{ read_b }}
),
pairs AS (
  SELECT a.{{ key }}, greatest(a.RecDate_A, b.RecDate_B) AS RecDate, a.{{ a_columns | join(", a.") }},
         a.RecDate_A, b.{{ b_columns | join(", b.") }}, b.RecDate_B
  FROM a_buckets a JOIN b
    ON a.{{ key }} = b.{{ key }} AND a.bucket = b.bucket AND b.b_day BETWEEN a.a_day - {{ lb }} AND a.a_day + {{ mw }}
)
SELECT *, CAST(datediff(RecDate_B, RecDate_A) AS INT) AS DiffArrivalTime, CAST(NULL AS INT) AS WaitingTime,
       CAST({{ matched }} AS INT) AS JoinType
FROM pairs
WHERE RecDate BETWEEN DATE'{{ case.start }}' AND DATE'{{ case.end }}'
