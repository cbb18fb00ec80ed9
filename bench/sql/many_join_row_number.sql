{#- partner = 'first' / 'last', how = left, by hand: the left join of A with B on key and window, then row_number
    over each A row's partners ordered by (b, Seq, B's columns), ascending with NULL first for first, descending
    for last; the first row per A row is placed as spec §11 says. -#}
{% set direction = "ASC NULLS FIRST" if case.mode == "first" else "DESC NULLS LAST" %}
{% set matched_at = "greatest(RecDate_A, RecDate_B)" if case.mode == "first" else "date_add(RecDate_A, %d)" % mw %}
{% set placed = "IF(RecDate_B IS NULL, date_add(RecDate_A, %d), %s)" % (mw, matched_at) %}
WITH {% include "sql/many_left_pairs.sql" %},
ranked AS (
  SELECT *, row_number() OVER (
    PARTITION BY {{ key }}, RecDate_A, {{ a_columns | join(", ") }}
    ORDER BY RecDate_B {{ direction }}{% for c in order_by + b_columns %}, {{ c }} {{ direction }}{% endfor %}
  ) AS rn
  FROM pairs
)
SELECT {{ key }}, {{ placed }} AS RecDate, {{ a_columns | join(", ") }}, RecDate_A, {{ b_columns | join(", ") }}, RecDate_B,
       CAST(datediff(RecDate_B, RecDate_A) AS INT) AS DiffArrivalTime,
       CAST(IF(RecDate_B IS NULL, {{ mw }}, NULL) AS INT) AS WaitingTime,
       CAST(IF(RecDate_B IS NULL, {{ codes.A_TIMED_OUT }}, {{ matched }}) AS INT) AS JoinType
FROM ranked
WHERE rn = 1 AND {{ placed }} BETWEEN DATE'{{ case.start }}' AND DATE'{{ case.end }}'
