{#- The open state (docs/spec.md §18): what a daily run keeps for the next one, so that the next reads its new
    rows, B's last look_back_time, and the A rows still open, instead of the whole waiting window again.

    An A row is open at e when its window is (a + mw > e) and it has no partner with b <= e. A run over [s, e]
    given the state as of s - 1 reads (_read_ranges with state):
      rows: A [s, e] and the open rows (partner = first, how = left_anti): only an open A row can still
            get its first partner or time out;
      keys: A [s - mw, e] (partner = all: every A row of the window pairs with new B rows) and the (keys,
            arrival) of the open rows, which tell an A row without partner since s from one whose partners came
            before B's read;
    and B [s - lb, e]. inc_join_many (_many_open_state_kind; its statement in _many_render.sql) keeps the open A
    rows with the partner each input found so far. The rows are those of the run without the state:
    tests/core/test_open_state.py. -#}

{% macro _open_state_kind(params, has_condition) %}
  {#- [kind, reason]: the state a model of these arguments keeps ('rows' or 'keys'), or none and why not. -#}
  {%- if params.how == 'full' -%}
    {{ return([none, 'how = full']) }}
  {%- elif params.how == 'inner' and params.mode == 'all' -%}
    {{ return([none, 'how = inner with partner = all has no timed-out rows']) }}
  {%- elif params.mode in ['last', 'aggregate'] -%}
    {{ return([none, 'partner = last' if params.mode == 'last' else 'aggregate']) }}
  {%- elif params.late_match_time -%}
    {{ return([none, 'late_match_time']) }}
  {%- elif params.include_waiting -%}
    {{ return([none, 'include_waiting']) }}
  {%- elif not params.enforce_sliding_join_window -%}
    {{ return([none, 'enforce_sliding_join_window = false']) }}
  {%- elif params.mode == 'first' or params.how == 'left_anti' -%}
    {{ return(['rows', none]) }}
  {%- elif has_condition -%}
    {{ return([none, 'join_cond with partner = all']) }}
  {%- endif -%}
  {{ return(['keys', none]) }}
{% endmacro %}

{% macro _many_open_state_kind(prepared, include_waiting) %}
  {#- [kind, reason] of inc_join_many: 'many' when every input takes its first partner. An open A row then waits
      on the inputs that have none yet, and keeps the partners the others found; an input with partner = last or
      aggregate settles only when its window closes, so every A row of the last max_waiting_time would be open
      and the state as large as the read it spares. -#}
  {%- if include_waiting -%}
    {{ return([none, 'include_waiting']) }}
  {%- endif -%}
  {%- for item in prepared if item.params.mode != 'first' -%}
    {{ return([none, "input '" ~ item.name ~ "' has " ~ ('aggregate' if item.params.mode == 'aggregate'
                                                          else 'partner = ' ~ item.params.mode)]) }}
  {%- endfor -%}
  {{ return(['many', none]) }}
{% endmacro %}

{% macro _open_state_names(kind, a_names, key_count) %}
  {#- The state's columns, internal names of A's slice: every one for rows, the keys and arrival for keys. -#}
  {%- if kind == 'rows' -%}{{ return(a_names) }}{%- endif -%}
  {%- set names = [] -%}
  {%- for index in range(key_count) -%}{%- do names.append('_ak' ~ index) -%}{%- endfor -%}
  {{ return(names + ['_a_arrival']) }}
{% endmacro %}

{% macro _open_a_slice_sql(kind, slice, state, names, start, params) %}
  {#- A's slice of a run given the state as of start - 1 (`state`: a relation with the state's columns). -#}
  {%- set unit = params.time_uom -%}
  {%- set reach = dbt_inc_join._sql_literal(dbt_inc_join._shift_value(start, -params.max_waiting_time, unit), dbt_inc_join._unit_type(unit)) -%}
  {%- if kind == 'rows' %}
    select {{ slice.sql }}
    from {{ slice.source }}
    where {{ slice.predicate }}
    union all
    select {{ names | join(', ') }}
    from {{ state }}
    where _a_arrival >= {{ reach }}
  {%- else -%}
    {#- Joined on the keys alone, the arrival compared after: A's slice is then shuffled once by its keys, for
        this join and B's (an equality on the arrival would make it a join key too, and a second shuffle). The
        state holds each (keys, arrival) once, so an A row finds at most one. A row without keys never had a
        partner. -#}
    {%- set since = dbt_inc_join._sql_literal(start, dbt_inc_join._unit_type(unit)) -%}
    {%- set same, unkeyed = [], [] -%}
    {%- for name in names[:-1] -%}
      {%- do same.append('_s.' ~ name ~ ' = _o.' ~ name) -%}
      {%- do unkeyed.append('_s.' ~ name ~ ' IS NULL') -%}
    {%- endfor -%}
    {%- do same.append('_s._a_arrival <= _o._a_arrival AND _s._a_arrival >= _o._a_arrival') %}
    select _s.*, _s._a_arrival >= {{ since }} OR {{ unkeyed | join(' OR ') }} OR _o._a_arrival IS NOT NULL AS _a_open
    from (
        select {{ slice.sql }}
        from {{ slice.source }}
        where {{ slice.predicate }}
    ) _s
    LEFT OUTER JOIN (
        select {{ names | join(', ') }}
        from {{ state }}
        where _a_arrival >= {{ reach }}
    ) _o
      on {{ same | join(' AND ') }}
  {%- endif -%}
{% endmacro %}

{% macro _open_row_test(params, end, flagged) %}
  {#- A joined row of an A row open at the run's end: without partner in the run, its window still open; flagged:
      A's slice tells which A rows had no partner before B's read (_a_open). -#}
  {%- set unit = params.time_uom -%}
  {%- set tests = [dbt_inc_join._a_only(),
                   dbt_inc_join._window_closes({'mw': params.max_waiting_time, 'time_uom': unit}) ~ ' > '
                   ~ dbt_inc_join._sql_literal(end, dbt_inc_join._unit_type(unit))] -%}
  {%- if flagged -%}{%- do tests.append('_a_open') -%}{%- endif -%}
  {{ return(tests | join(' AND ')) }}
{% endmacro %}

{% macro _open_state_texts(body, placed, placed_test, open_test, columns, state_select) %}
  {#- The statements of a run that keeps the state, from its query's body (ending with the CTE `placed`): 'kept',
      the rows placed in the window (placed_test) or open at its end (open_test), which the model's hooks cache;
      'rows', the output's columns of the placed ones; 'state', state_select over the open ones. -#}
  {%- set kept = body ~ '\nselect *\nfrom ' ~ placed ~ '\nwhere ' ~ placed_test ~ '\n   or (' ~ open_test ~ ')' -%}
  {{ return({'kept': kept,
             'rows': 'select ' ~ columns ~ '\nfrom (\n' ~ kept ~ '\n) _inc_join_kept\nwhere ' ~ placed_test,
             'state': 'select ' ~ state_select ~ '\nfrom (\n' ~ kept ~ '\n) _inc_join_kept\nwhere ' ~ open_test}) }}
{% endmacro %}
