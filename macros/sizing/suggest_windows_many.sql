{#- dbt run-operation dbt_inc_join.suggest_windows_many --args '{a: orders, inputs: [{b: payments, name: payment,
    join_cols: OrderId}, {b: fees, name: fees, join_cols: OrderId, aggregate: true}]}'
    Sizes each input of an inc_join_many model (spec §12) in one call: per input, its heading and the report of
    suggest_windows with the input's own keys and arrival columns, as one row per A (partner 'first' by default,
    'last', or 'aggregate' when the input has an aggregate). sizing/spark.py: suggest_windows_many, the same numbers. -#}

{% macro suggest_windows_many(a, inputs, time_uom='day', coverage=0.999, complete_history=false) %}
  {%- set suggestions = {} -%}
  {%- for spec in dbt_inc_join._many_sizing_specs(inputs) -%}
    {%- set mode = 'aggregate' if spec.get('aggregate') else (spec.get('partner') or 'first') -%}
    {%- do print("inc_join_many input '" ~ spec.name ~ "' (" ~ mode ~ '):') -%}
    {%- do suggestions.update({spec.name: dbt_inc_join.suggest_windows(a, spec.get('b') or spec.get('relation'),
                                                                      spec.join_cols, spec.get('inc_col'), time_uom,
                                                                      coverage, mode, none, none,
                                                                      complete_history)}) -%}
  {%- endfor -%}
  {{ return(suggestions) }}
{% endmacro %}

{% macro _many_sizing_specs(inputs) %}
  {#- The inputs of suggest_windows_many: a list of mappings, each with b (or relation), name and join_cols. -#}
  {%- if inputs is string or inputs is mapping or inputs is not iterable or inputs | length == 0 -%}
    {{ dbt_inc_join._fail_many('suggest_windows_many: inputs must be a non-empty list of inputs ({b: <model>, name: <name>, join_cols: ...}).') }}
  {%- endif -%}
  {%- for spec in inputs -%}
    {%- if spec is not mapping or not spec.get('name') or not (spec.get('b') or spec.get('relation')) or 'join_cols' not in spec -%}
      {{ dbt_inc_join._fail_many('suggest_windows_many: inputs[' ~ loop.index0 ~ '] needs b (the input), name and join_cols (got ' ~ dbt_inc_join._repr(spec) ~ ').') }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(inputs) }}
{% endmacro %}
