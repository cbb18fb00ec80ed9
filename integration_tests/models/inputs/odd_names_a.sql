-- gen_a with column names that need quoting: a space, a dot, a reserved word, mixed case, and a name the
-- join uses internally.
select TrxId as `trx id`, Account as `select`, Amount as `amount.eur`, RecDate as `Rec Date`,
       concat(Account, '!') as `_a_arrival`
from {{ ref('gen_a') }}
