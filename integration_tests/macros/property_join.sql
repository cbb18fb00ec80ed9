{% macro property_runs(runs) %}
  {#- The runs of tests/integration/test_sql_property.py, each one call of the package's macro on its own input
      views, in ONE statement: each run's rows in the oracle's shape (tests/core/frames.py: oracle_shape) as one JSON
      text, tagged with the run's name, the runs' rows unioned. `dbt show --inline` renders and runs it. -#}
  {%- for r in runs %}
  {%- set joined = dbt_inc_join.inc_join(
      api.Relation.create(schema=r.schema, identifier=r.a),
      api.Relation.create(schema=r.schema, identifier=r.b),
      join_cols=r.join_cols,
      inc_col=r.inc_col,
      how=r.how,
      look_back_time=r.lb,
      max_waiting_time=r.mw,
      output_window_start=r.start,
      output_window_end=r.end,
      time_uom=r.time_uom,
      include_waiting=r.include_waiting,
      partner=r.partner,
      aggregate=r.aggregate,
      null_fill=r.null_fill,
      many_rows_per_key=r.many_rows_per_key,
      late_match_time=r.late_match_time,
      join_cond=r.join_cond) %}
select '{{ r.name }}' as run, to_json(named_struct(
    'k', k,
    'out', date_format(RecDate, 'yyyy-MM-dd HH:mm:ss'),
    'a_id', {{ 'id' if r.aggregate else 'id_A' }},
    'b_id', {{ 'CAST(NULL AS int)' if r.aggregate else 'id_B' }},
    'code', JoinType,
    'diff', DiffArrivalTime,
    'waiting', WaitingTime
    {%- for name in (r.aggregate or {}) %},
    'g{{ loop.index0 }}', `{{ name }}`
    {%- endfor %})) as row
from ({{ joined }}) as {{ r.name }}
{% if not loop.last %}union all{% endif %}
  {%- endfor %}
{% endmacro %}
