{#- the start of the aggregate and one-partner baselines: A's slice left-joined with B's on the key and the window -#}
a AS (SELECT {{ key }}, {{ inc_col }} AS RecDate_A, {{ a_columns | join(", ") }} FROM {{ case.table_a }} WHERE {{ read_a }}),
b AS (SELECT {{ key }}, {{ inc_col }} AS RecDate_B, {{ b_columns | join(", ") }} FROM {{ case.table_b }} WHERE {{ read_b }}),
pairs AS (
  SELECT a.*, b.{{ b_columns | join(", b.") }}, b.RecDate_B
  FROM a LEFT JOIN b
    ON a.{{ key }} = b.{{ key }} AND b.RecDate_B BETWEEN date_sub(a.RecDate_A, {{ lb }}) AND date_add(a.RecDate_A, {{ mw }})
)
