{{ config(materialized='ephemeral') }}
-- an ephemeral input: a CTE of the model that reads it, with no table to describe
select * from {{ ref('typed_b') }}
