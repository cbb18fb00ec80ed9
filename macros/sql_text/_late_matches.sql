{#- Late matches (spec §10): a timed-out A row still pairs with the B rows of its key that arrive up to
    late_match_time after its window closed, code 7 at b, one row per pair; its a_timed_out row stays.
    The A rows of the slice without any B row in their window are found first (an anti-join with B's slice);
    each gets a second copy, flagged _a_late, that pairs only after the window, in the same join.
    The core renders these macros too. -#}

{% macro _late_window_sql(window, mw, late_match_time, time_uom) %}
  {#- The pairing rule with late copies: an A row's own copy pairs inside `window`, a late copy only in
      (a + mw, a + mw + L]. -#}
  {%- set closes = dbt_inc_join._add_units_sql('_a_arrival', mw, time_uom) -%}
  {%- set late_end = dbt_inc_join._add_units_sql('_a_arrival', mw + late_match_time, time_uom) -%}
  {%- set late = '_a_late AND _b_arrival > ' ~ closes ~ ' AND _b_arrival <= ' ~ late_end -%}
  {{ return('((NOT _a_late AND ' ~ window ~ ') OR (' ~ late ~ '))') }}
{% endmacro %}

{% macro _late_copies_ctes(params, key_count, condition=none) %}
  {#- A's slice (the CTE _inc_join_a_slice) and a copy flagged _a_late of each A row without a B row in its
      window, as _inc_join_a. Ends with a comma. -#}
  {%- set window = dbt_inc_join._sliding_window_sql(params.look_back_time, params.max_waiting_time, params.time_uom) %}
_inc_join_a as (
    select *, false AS _a_late
    from _inc_join_a_slice
    union all
    select *, true AS _a_late
    from _inc_join_a_slice
    {#- an A row with a B row in its window did not time out #}
    LEFT ANTI JOIN _inc_join_b
      on {{ dbt_inc_join._keys_equal_sql(key_count) }}{{ ' AND (' ~ condition ~ ')' if condition else '' }} AND {{ window }}
),
{%- endmacro %}
