-- gen_a with column names that need quoting: a space, a dot, a reserved word, mixed case.
select TrxId as `trx id`, Account as `select`, Amount as `amount.eur`, RecDate as `Rec Date` from {{ ref('gen_a') }}
