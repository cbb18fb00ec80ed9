-- gen_b before its first load: the columns, no rows.
select * from {{ ref('gen_b') }} where false
