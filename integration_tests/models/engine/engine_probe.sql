{{ config(materialized="table") }}
{#- What the statements dbt runs see of the session (tests/integration/test_engine.py): ${...} is Spark's
    substitution of a conf value into the SQL text, and size(NULL) is NULL under ANSI and -1 without it. #}
select '${spark.sql.ansi.enabled}' as ansi_conf, size(cast(null as array<int>)) as size_of_null
