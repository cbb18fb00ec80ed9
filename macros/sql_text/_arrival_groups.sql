{#- The plan of one row per A (spec §11, Cost): everything a row of A gets from B depends only on its keys and its
    arrival, so B is joined to the distinct (keys, arrival) of A's slice, never to A's rows: an equi-join on the
    keys and a time bucket of width look_back_time + max_waiting_time + 1 (B's row falls into one bucket, an
    arrival's window touches one or two), then joined back to A by equality. With join_cond (spec §12) the distinct
    rows of A also carry the A columns its pair conjuncts read (_ac<i>), which come back as _gc<i> and join back
    null-safe; its A-only conjuncts filter those rows and test the A row in the join back instead. The core renders these macros too. -#}

{% macro _pairs_by_bucket(mode, how) %}
  {#- Every partner with how = inner: the pairs are the output, so A's rows themselves go into the buckets
      (one join, no distinct, no join back). Any outer side needs one row per A row or per B row first. -#}
  {{ return(mode == 'all' and how == 'inner') }}
{% endmacro %}

{% macro _bucket_width(lb, mw) %}
  {{ return(lb + mw + 1) }}
{% endmacro %}

{% macro _b_bucket_sql(lb, mw, time_uom) %}
  {#- The one bucket of a B row's arrival. -#}
  {{ return('CAST(floor(' ~ dbt_inc_join._unit_number_sql('_b_arrival', time_uom) ~ ' / ' ~ dbt_inc_join._bucket_width(lb, mw) ~ ') AS BIGINT)') }}
{% endmacro %}

{% macro _arrival_buckets_sql(lb, mw, time_uom) %}
  {#- The buckets that the sliding join window [a - lb, a + mw] of an arrival touches (one or two). -#}
  {%- set width = dbt_inc_join._bucket_width(lb, mw) -%}
  {%- set number = dbt_inc_join._unit_number_sql('_g_arrival', time_uom) -%}
  {{ return('sequence(CAST(floor((' ~ number ~ ' - ' ~ lb ~ ') / ' ~ width ~ ') AS BIGINT), CAST(floor((' ~ number ~ ' + ' ~ mw ~ ') / ' ~ width ~ ') AS BIGINT))') }}
{% endmacro %}

{% macro _arrival_projection(key_count) %}
  {#- The distinct (keys, arrival) of A's slice, under the group names. -#}
  {%- set projection = [] -%}
  {%- for index in range(key_count) -%}{%- do projection.append('_ak' ~ index ~ ' AS _gk' ~ index) -%}{%- endfor -%}
  {%- do projection.append('_a_arrival AS _g_arrival') -%}
  {{ return(projection) }}
{% endmacro %}

{% macro _arrival_filter_sql(key_count, a_only=none) %}
  {#- The A rows whose (keys, arrival) may have partners: no NULL key, and join_cond's A-only conjuncts. -#}
  {%- set tests = [] -%}
  {%- for index in range(key_count) -%}{%- do tests.append('_ak' ~ index ~ ' IS NOT NULL') -%}{%- endfor -%}
  {%- if a_only -%}{%- do tests.append(a_only) -%}{%- endif -%}
  {{ return(tests | join(' AND ')) }}
{% endmacro %}

{% macro _group_condition(condition) %}
  {#- join_cond in this plan: [the A columns (i of _ac<i>) its pair conjuncts read, which the distinct rows carry;
      its A-only conjuncts, which filter those rows (and the join back); the rest, B-only and pair, for the match
      with B (Spark pushes a B-only conjunct of an inner match into B's slice)]. -#}
  {%- if condition is none -%}{{ return([[], none, none]) }}{%- endif -%}
  {%- set parts = dbt_inc_join._condition_parts(condition) -%}
  {%- set matched = [] -%}
  {%- for part in [parts.b_only, parts.pair] -%}{%- if part -%}{%- do matched.append(part) -%}{%- endif -%}{%- endfor -%}
  {{ return([dbt_inc_join._a_column_indexes(parts.pair), parts.a_only, matched | join(' AND ') if matched else none]) }}
{% endmacro %}

{% macro _group_window_sql(key_count, lb, mw, time_uom) %}
  {#- A B row of the arrival's keys inside its window [a - lb, a + mw]. -#}
  {%- set window = dbt_inc_join._sliding_window_sql(lb, mw, time_uom, '_g_arrival') -%}
  {{ return(dbt_inc_join._keys_equal_sql(key_count, '_gk') ~ ' AND ' ~ window) }}
{% endmacro %}

{% macro _group_match_sql(key_count, lb, mw, time_uom, condition=none, bucketed=true) %}
  {#- Equal keys, the same bucket (unless the plain key join of inc_join_many's inputs without hot keys), b
      inside the arrival's window, and join_cond (over the internal names). -#}
  {%- set test = dbt_inc_join._group_window_sql(key_count, lb, mw, time_uom) -%}
  {%- set test = '_bucket = _b_bucket AND ' ~ test if bucketed else test -%}
  {{ return(test ~ ' AND (' ~ condition ~ ')' if condition else test) }}
{% endmacro %}

{% macro _condition_group_projection(indexes) %}
  {#- join_cond's A columns of a reduced row, renamed for the join back (A's own are _ac<i> too). -#}
  {%- set projection = [] -%}
  {%- for index in indexes -%}{%- do projection.append('_ac' ~ index ~ ' AS _gc' ~ index) -%}{%- endfor -%}
  {{ return(projection) }}
{% endmacro %}

{% macro _back_to_a_sql(key_count, indexes=[], a_only=none) %}
  {#- An A row and the result for its (keys, arrival): plain equality (a NULL key gets nothing); the A columns of
      join_cond's pair conjuncts null-safe (a NULL there may still meet the condition); its A-only conjuncts over
      the A row (one that fails them gets no partner, and stays). -#}
  {%- set tests = [] -%}
  {%- for index in range(key_count) -%}{%- do tests.append('_ak' ~ index ~ ' = _gk' ~ index) -%}{%- endfor -%}
  {%- do tests.append('_a_arrival = _g_arrival') -%}
  {%- for index in indexes -%}{%- do tests.append('_ac' ~ index ~ ' <=> _gc' ~ index) -%}{%- endfor -%}
  {%- if a_only -%}{%- do tests.append(a_only) -%}{%- endif -%}
  {{ return(tests | join(' AND ')) }}
{% endmacro %}

{% macro _projected_names(projection) %}
  {#- The names a select list (`expression AS name` items) gives its columns. -#}
  {%- set names = [] -%}
  {%- for item in projection -%}{%- do names.append(item.rsplit(' AS ', 1)[1]) -%}{%- endfor -%}
  {{ return(names) }}
{% endmacro %}

{% macro _own_columns(b_names) %}
  {#- B's own columns, quoted, for the aggregates to name (all but those named like an internal column). -#}
  {%- set own = [] -%}
  {%- for name in b_names -%}
    {%- if modules.re.match('^_(bk?\\d+|bo\\d+|gk?\\d+|[abg]c\\d+|b_arrival|b_bucket|g_arrival|bucket|pick)$', name | lower) is none -%}
      {%- do own.append(dbt_inc_join._quote(name)) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(own) }}
{% endmacro %}

{% macro _order_projection(order_by) %}
  {#- partner_order_by's B columns, under internal names (they need not be selected for the output). -#}
  {%- set projection = [] -%}
  {%- for name in order_by -%}{%- do projection.append(dbt_inc_join._quote(name) ~ ' AS _bo' ~ loop.index0) -%}{%- endfor -%}
  {{ return(projection) }}
{% endmacro %}

{% macro _partner_order(order_by_count, tie_breakers) %}
  {#- How the partners of an arrival are ordered (spec §11): by b, then partner_order_by, then the selected B
      columns that Spark can order, so that the same inputs always give the same row. -#}
  {%- set order = ['_b_arrival'] -%}
  {%- for index in range(order_by_count) -%}{%- do order.append('_bo' ~ index) -%}{%- endfor -%}
  {{ return(order + tie_breakers) }}
{% endmacro %}

{% macro _pick_rank_sql(mode, group, order) %}
  {#- Each partner's rank among those of its (keys, arrival), the first or the last by `order` ranked 1 (spec §11).
      A filter on rank 1 lets Spark keep one row a group before the shuffle (its window group limit), where a
      min_by over a struct sorted every pair on both sides of it. Nulls rank as in a struct's order: lowest. -#}
  {%- set direction = ' ASC NULLS FIRST' if mode == 'first' else ' DESC NULLS LAST' -%}
  {%- set ordered = [] -%}
  {%- for column in order -%}{%- do ordered.append(column ~ direction) -%}{%- endfor -%}
  {{ return('row_number() OVER (PARTITION BY ' ~ group | join(', ') ~ ' ORDER BY ' ~ ordered | join(', ')
            ~ ') AS _rank') }}
{% endmacro %}
