{#- A full recompute: the outer join of everything, classified and placed as spec §3 says, then the window's rows.
    Arrivals are never NULL in the benchmark data, so a present side is a non-NULL arrival. With late_match_time
    (spec §10; how = left or inner): every A row without a B row in its window also pairs with each B row of its
    key in (a + mw, a + mw + L], code 7 at b. -#}
WITH pairs AS (
  SELECT a.TrxId AS a_key, b.TrxId AS b_key, a.AccountId, a.Amount, a.CreditDebit, a.RecDate AS RecDate_A,
         b.PaymentId, b.CountryCode, b.Status, b.RecDate AS RecDate_B
  FROM {{ case.table_a }} a {{ kind }} JOIN {{ case.table_b }} b
    ON a.TrxId = b.TrxId AND b.RecDate BETWEEN date_sub(a.RecDate, {{ lb }}) AND date_add(a.RecDate, {{ mw }})
),
classified AS (
  SELECT *,
         CASE WHEN RecDate_A IS NOT NULL AND RecDate_B IS NOT NULL
                THEN CASE WHEN RecDate_B = RecDate_A THEN {{ codes.SAME_TIME }}
                          WHEN RecDate_B < RecDate_A THEN {{ codes.A_LATE }}
                          ELSE {{ codes.B_LATE }} END
              WHEN RecDate_A IS NOT NULL THEN {{ codes.A_TIMED_OUT }} ELSE {{ codes.B_TIMED_OUT }} END AS JoinType,
         CASE WHEN RecDate_A IS NOT NULL AND RecDate_B IS NOT NULL THEN greatest(RecDate_A, RecDate_B)
              WHEN RecDate_A IS NOT NULL THEN date_add(RecDate_A, {{ mw }})
              ELSE date_add(RecDate_B, {{ lb }}) END AS RecDate
  FROM pairs
)
SELECT coalesce(a_key, b_key) AS TrxId, RecDate, AccountId, Amount, CreditDebit, RecDate_A,
       PaymentId, CountryCode, Status, RecDate_B,
       CASE WHEN JoinType IN ({{ codes.SAME_TIME }}, {{ codes.A_LATE }}, {{ codes.B_LATE }})
         THEN datediff(RecDate_B, RecDate_A) END AS DiffArrivalTime,
       CASE JoinType WHEN {{ codes.A_TIMED_OUT }} THEN {{ mw }} WHEN {{ codes.B_TIMED_OUT }} THEN {{ lb }} END AS WaitingTime,
       JoinType
FROM classified
WHERE RecDate BETWEEN DATE'{{ case.start }}' AND DATE'{{ case.end }}'
{% if late %}
UNION ALL
SELECT a.TrxId, b.RecDate AS RecDate, a.AccountId, a.Amount, a.CreditDebit, a.RecDate AS RecDate_A,
       b.PaymentId, b.CountryCode, b.Status, b.RecDate AS RecDate_B,
       datediff(b.RecDate, a.RecDate) AS DiffArrivalTime, CAST(NULL AS INT) AS WaitingTime,
       {{ codes.LATE_MATCH }} AS JoinType
FROM {{ case.table_a }} a
LEFT ANTI JOIN {{ case.table_b }} w
  ON a.TrxId = w.TrxId AND w.RecDate BETWEEN date_sub(a.RecDate, {{ lb }}) AND date_add(a.RecDate, {{ mw }})
JOIN {{ case.table_b }} b
  ON a.TrxId = b.TrxId AND b.RecDate > date_add(a.RecDate, {{ mw }}) AND b.RecDate <= date_add(a.RecDate, {{ mw + late }})
WHERE b.RecDate BETWEEN DATE'{{ case.start }}' AND DATE'{{ case.end }}'
{% endif %}
