{#- The plain equi-join a user writes by hand over the same tables: the key and the arrival window, each A row with
    its B partners, no classification and no output window (the floor under a whole-history run). RecDate (A's),
    DiffArrivalTime and WaitingTime are the columns the check run's fingerprint reads (bench/variants.py). -#}
SELECT a.TrxId, a.RecDate, a.AccountId, a.Amount, a.CreditDebit, b.PaymentId, b.CountryCode, b.Status,
       b.RecDate AS RecDate_B, datediff(b.RecDate, a.RecDate) AS DiffArrivalTime, CAST(NULL AS INT) AS WaitingTime
FROM {{ case.table_a }} a {{ kind }} JOIN {{ case.table_b }} b
  ON a.TrxId = b.TrxId AND b.RecDate BETWEEN date_sub(a.RecDate, {{ case.look_back_time }})
                                         AND date_add(a.RecDate, {{ case.max_waiting_time }})
