{#- The one-row-per-A plan's pieces of a run (spec §11, Cost): B's grouped slice, the partner order's last
    resort, the aggregates over no rows, and the CTEs that join B to A's distinct (keys, arrival) (render.py:
    b_group_projection, tie_breakers, bucketed_pairs, arrival_group_pairs, reduced_by_arrival). inc_join_many
    renders them once per input. -#}

{% macro _b_group_projection(params, inputs, plan, bucketed=true) %}
  {#- B's slice for the arrival-group plan: the usual internal columns, partner_order_by's columns, join_cond's B
      columns and the bucket (when bucketed); with aggregate, B's own columns too, which the aggregates name. -#}
  {%- set keys = inputs['keys'] | map(attribute=1) | list -%}
  {%- set projection = dbt_inc_join._side_projection('b', keys, plan.b_columns, inputs.inc_col[1], inputs.raw_types[1], params.time_uom) -%}
  {%- set projection = projection + dbt_inc_join._order_projection(inputs.partner_order_by) -%}
  {%- if inputs.get('condition') is not none -%}
    {%- set projection = projection + dbt_inc_join._condition_projection('b', inputs.condition.b_columns) -%}
  {%- endif -%}
  {%- if params.aggregate -%}
    {%- set projection = dbt_inc_join._own_columns(inputs.b_names) + projection -%}
  {%- endif -%}
  {%- if not bucketed -%}{{ return(projection) }}{%- endif -%}
  {{ return(projection + [dbt_inc_join._b_bucket_sql(params.look_back_time, params.max_waiting_time, params.time_uom) ~ ' AS _b_bucket']) }}
{% endmacro %}

{% macro _tie_breakers(params, inputs, plan) %}
  {#- The selected B columns Spark can order, by internal name: the last resort of the partner order. -#}
  {%- set names = dbt_inc_join._b_names(params, inputs, plan) -%}
  {%- set breakers = [] -%}
  {%- for column in plan.b_columns -%}
    {%- if ('_b' ~ loop.index0) in names and column.input_name in inputs.orderable_b_names -%}
      {%- do breakers.append('_b' ~ loop.index0) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(breakers) }}
{% endmacro %}

{% macro _b_names(params, inputs, plan) %}
  {#- The internal names of B's usual columns (_bk<i>, _b<i>, _b_arrival), as _side_projection gives them. -#}
  {%- set keys = inputs['keys'] | map(attribute=1) | list -%}
  {{ return(dbt_inc_join._projected_names(dbt_inc_join._side_projection('b', keys, plan.b_columns, inputs.inc_col[1],
                                                                         inputs.raw_types[1], params.time_uom))) }}
{% endmacro %}

{% macro _fills_from_empty(plan) %}
  {#- The aggregates without a null_fill: an A row without partner gets their value over no rows. -#}
  {%- set indexes = [] -%}
  {%- for fill in plan.aggregate_fills -%}
    {%- if fill == '_e' ~ loop.index0 -%}{%- do indexes.append(loop.index0) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(indexes) }}
{% endmacro %}

{% macro _bucketed_pairs_cte(params, inputs) %}
  {#- spec §11, Cost, every partner with how = inner: each A row in the buckets its window touches, one join
      with B on keys and bucket (render.py: bucketed_pairs). Ends with _inc_join_pairs and a comma. -#}
  {%- set unit = params.time_uom -%}
  {%- set lb = params.look_back_time -%}
  {%- set mw = params.max_waiting_time -%}
  {%- set key_count = inputs['keys'] | length %}
_inc_join_a_buckets as (
    select *, explode({{ dbt_inc_join._arrival_buckets_sql(lb, mw, unit) }}) AS _bucket
    from (
        select *, {{ dbt_inc_join._arrival_projection(key_count) | join(', ') }}
        from _inc_join_a
        where {{ dbt_inc_join._arrival_filter_sql(key_count) }}
    )
),
_inc_join_pairs as (
    select *
    from _inc_join_a_buckets
    INNER JOIN _inc_join_b
      on {{ dbt_inc_join._group_match_sql(key_count, lb, mw, unit, dbt_inc_join._condition_sql(inputs)) }}
),
{%- endmacro %}

{% macro _picked_pairs_ctes(params, inputs, plan, a_names, join_kind) %}
  {#- spec §11, Cost, partner first or last over the plain key join, A read once: A's rows gathered per (keys,
      arrival) into an array in one pass, B joined to those groups, each group's first or last partner kept,
      then the group's rows spread out again. A join back to A's rows would read A's slice a second time. An
      array keeps the rows as they are (maps too; grouping by the rows themselves would not, and would make
      -0.0 into 0.0); it holds the A rows of one key and arrival. join_cond as in _arrival_group_ctes: its pair
      conjuncts' A columns join the group, its A-only conjuncts become the group's _g_ok. Ends with
      _inc_join_pairs and a comma. -#}
  {%- set unit = params.time_uom -%}
  {%- set key_count = inputs['keys'] | length -%}
  {%- set indexes, a_only, matched = dbt_inc_join._group_condition(dbt_inc_join._condition_sql(inputs)) -%}
  {%- set projection = dbt_inc_join._arrival_projection(key_count) -%}
  {%- set group = dbt_inc_join._projected_names(projection) -%}
  {%- for index in indexes -%}
    {%- do projection.append('_ac' ~ index) -%}
    {%- do group.append('_ac' ~ index) -%}
  {%- endfor -%}
  {%- set match = dbt_inc_join._group_match_sql(key_count, params.look_back_time, params.max_waiting_time, unit,
                                                 matched, false) -%}
  {%- if a_only -%}
    {%- do projection.append('coalesce(' ~ a_only ~ ', false) AS _g_ok') -%}
    {%- do group.append('_g_ok') -%}
    {%- set match = match ~ ' AND _g_ok' -%}
  {%- endif -%}
  {%- set b_names = dbt_inc_join._b_names(params, inputs, plan) -%}
  {%- set order = dbt_inc_join._partner_order(inputs.partner_order_by | length, dbt_inc_join._tie_breakers(params, inputs, plan)) -%}
  {%- set full = join_kind == 'FULL OUTER' -%}
  {#- how = full: B's keys spread the B rows of no group (a matched row's equal its group's) -#}
  {%- set ranked = group + (b_names[:key_count] if full else []) %}
_inc_join_groups as (
    {#- distributed by the keys: one exchange serves the grouping, the join with B and the pick #}
    select {{ group | join(', ') }}, collect_list(_a_row) AS _a_rows
    from (
        select {{ projection | join(', ') }}, struct({{ a_names | join(', ') }}) AS _a_row
        from _inc_join_a
        distribute by {{ group[:key_count] | join(', ') }}
    )
    group by {{ group | join(', ') }}
),
_inc_join_picks as (
    select *, {{ dbt_inc_join._pick_rank_sql(params.mode, ranked, order) }}
    from _inc_join_groups
    {{ join_kind }} JOIN _inc_join_b
      on {{ match }}
),
_inc_join_pairs as (
    {#- a B row of no group (how = full) keeps its row, with no A row #}
    select {{ b_names | join(', ') }}, inline_outer(_a_rows)
    from _inc_join_picks
    where _rank = 1{{ ' OR _g_arrival IS NULL' if full else '' }}
),
{%- endmacro %}

{% macro _arrival_group_ctes(b, params, inputs, plan, prefix='_inc_join', a_cte='_inc_join_a', b_cte='_inc_join_b',
                             bucketed=true, pairs_a_rows=false) %}
  {#- spec §11, Cost: B joined to the distinct (keys, arrival) of A's slice, reduced per mode (render.py:
      arrival_group_pairs, reduced_by_arrival). Ends with <prefix>_reduced (and <prefix>_empty), each followed
      by a comma; inc_join_many renders one set per input, each under a prefix of its own. Not bucketed
      (the plain key join, spec §15): B joined on the keys alone, to the same distinct (keys, arrival), or for a
      pick with pairs_a_rows (the plan choice's) to A's (keys, arrival) as they are. Over 60 lines on purpose: one
      CTE chain, read top to bottom like the SQL it renders. -#}
  {%- set unit = params.time_uom -%}
  {%- set lb = params.look_back_time -%}
  {%- set mw = params.max_waiting_time -%}
  {%- set key_count = inputs['keys'] | length -%}
  {%- set group = [] -%}
  {%- for index in range(key_count) -%}{%- do group.append('_gk' ~ index) -%}{%- endfor -%}
  {%- do group.append('_g_arrival') -%}
  {#- join_cond's pair conjuncts' A columns join the group; the reduced rows name them _gc<i> for the join back -#}
  {%- set indexes, a_only, matched = dbt_inc_join._group_condition(dbt_inc_join._condition_sql(inputs)) -%}
  {%- set conditioned = [] -%}
  {%- for index in indexes -%}{%- do conditioned.append('_ac' ~ index) -%}{%- endfor -%}
  {%- set named = group + dbt_inc_join._condition_group_projection(indexes) -%}
  {%- set not_null = [] -%}
  {%- for name in group -%}{%- do not_null.append(name ~ ' IS NOT NULL') -%}{%- endfor -%}
  {%- set group = group + conditioned -%}
  {%- set b_names = dbt_inc_join._b_names(params, inputs, plan) -%}
  {#- how = full: a B row of no arrival's window is kept (with NULL group columns): it is code 6. -#}
  {%- set match_kind = 'RIGHT OUTER' if params.how == 'full' else 'INNER' -%}
{{ prefix }}_arrivals as (
  {%- if bucketed %}
    select *, explode({{ dbt_inc_join._arrival_buckets_sql(lb, mw, unit) }}) AS _bucket
    from (
        select distinct {{ (dbt_inc_join._arrival_projection(key_count) + conditioned) | join(', ') }}
        from {{ a_cte }}
        where {{ dbt_inc_join._arrival_filter_sql(key_count, a_only) }}
    )
  {%- else %}
    {#- distributed by the keys, as the key join needs: inputs on the same keys share this exchange of A, and the
        distinct (keys, arrival) needs no exchange of its own. An aggregate counts each partner once, so it always
        takes the distinct; a pick takes it unless A's sample showed (nearly) unique keys: it never pairs every A
        row of a hot key with every B row of it #}
    select {{ '' if pairs_a_rows and params.mode in ['first', 'last'] else 'distinct ' }}*
    from (
        select {{ (dbt_inc_join._arrival_projection(key_count) + conditioned) | join(', ') }}
        from {{ a_cte }}
        where {{ dbt_inc_join._arrival_filter_sql(key_count, a_only) }}
        distribute by {{ group[:key_count] | join(', ') }}
    )
  {%- endif %}
),
{{ prefix }}_matches as (
    select *
    from {{ prefix }}_arrivals
    {{ match_kind }} JOIN {{ b_cte }}
      on {{ dbt_inc_join._group_match_sql(key_count, lb, mw, unit, matched, bucketed) }}
),
{{ prefix }}_reduced as (
  {%- if params.mode == 'aggregate' %}
    {%- set outputs = [] -%}
    {%- for pair in params.aggregate -%}{%- do outputs.append(pair[1] ~ ' AS _g' ~ loop.index0) -%}{%- endfor -%}
    {%- do outputs.append('max(_b_arrival) AS _b_arrival') -%}
    {%- for index in range(key_count) -%}{%- do outputs.append('_gk' ~ index ~ ' AS _bk' ~ index) -%}{%- endfor %}
    select {{ (named + outputs) | join(', ') }}
    from {{ prefix }}_matches
    group by {{ group | join(', ') }}
  {%- elif params.mode in ['first', 'last'] %}
    {%- set order = dbt_inc_join._partner_order(inputs.partner_order_by | length, dbt_inc_join._tie_breakers(params, inputs, plan)) %}
    select {{ (named + b_names) | join(', ') }}
    from (
        select *, {{ dbt_inc_join._pick_rank_sql(params.mode, group, order) }}
        from {{ prefix }}_matches
        where {{ not_null | join(' AND ') }}
    )
    where _rank = 1
    {%- if params.how == 'full' %}
    union all
    select {{ (named + b_names) | join(', ') }}
    from {{ prefix }}_matches
    where _g_arrival IS NULL
    {%- endif %}
  {%- else %}
    select {{ (named + b_names) | join(', ') }}
    from {{ prefix }}_matches
  {%- endif %}
),
{%- set empty = dbt_inc_join._fills_from_empty(plan) -%}
{%- if empty %}
{{ prefix }}_empty as (
    {#- An aggregate's value over no rows (count 0, sum NULL, ...), for the A rows without partner. -#}
    {%- set values = [] -%}
    {%- for index in empty -%}{%- do values.append(params.aggregate[index][1] ~ ' AS _e' ~ index) -%}{%- endfor %}
    select {{ values | join(', ') }}
    from {{ b }}
    where false
),
{%- endif %}
{%- endmacro %}
