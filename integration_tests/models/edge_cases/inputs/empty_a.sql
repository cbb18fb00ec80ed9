-- gen_a before its first load: the columns, no rows.
select * from {{ ref('gen_a') }} where false
