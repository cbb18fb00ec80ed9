{#- aggregate, how = left, by hand: the left join of A with B on key and window, grouped by A row with the same
    aggregates (over matched B rows only: the left join's NULL row is no partner), placed at a + mw. -#}
WITH {% include "sql/many_left_pairs.sql" %},
grouped AS (
  SELECT {{ key }}, RecDate_A, {{ a_columns | join(", ") }},
{%- for name, expression in aggregate.items() %} {{ expression }} FILTER (WHERE RecDate_B IS NOT NULL) AS {{ name }},{% endfor %}
         count_if(RecDate_B IS NOT NULL) AS partners
  FROM pairs
  GROUP BY {{ key }}, RecDate_A, {{ a_columns | join(", ") }}
)
SELECT {{ key }}, date_add(RecDate_A, {{ mw }}) AS RecDate, {{ a_columns | join(", ") }}, RecDate_A, {{ aggregate | join(", ") }},
       CAST(NULL AS INT) AS DiffArrivalTime, CAST(IF(partners > 0, NULL, {{ mw }}) AS INT) AS WaitingTime,
       CAST(IF(partners > 0, {{ codes.A_AGGREGATED }}, {{ codes.A_TIMED_OUT }}) AS INT) AS JoinType
FROM grouped
WHERE date_add(RecDate_A, {{ mw }}) BETWEEN DATE'{{ case.start }}' AND DATE'{{ case.end }}'
