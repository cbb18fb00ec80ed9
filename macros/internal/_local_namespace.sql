{#- Why this exists: the package has a macro named like itself (inc_join.inc_join). When dbt runs a package
    macro directly (`dbt run-operation inc_join.suggest_windows`) it searches the package's own macros first,
    so there `inc_join` is the macro, not the namespace, and `inc_join.<helper>` fails. Macros reachable from a
    run-operation therefore start with
        {%- set ij = inc_join if inc_join is mapping else _local_namespace() -%}
    and call `ij.<helper>`: the namespace in a model or test, this dict (sibling macros by their bare names,
    which resolve in that context) in a run-operation. tests/core/test_macro_namespace.py keeps it complete. -#}
{% macro _local_namespace() %}
  {{ return({
      '_at_least': _at_least, '_check_arrival_type': _check_arrival_type, '_check_coverage': _check_coverage,
      '_check_parameters': _check_parameters, '_choice': _choice, '_covered': _covered,
      '_diff_units_sql': _diff_units_sql, '_fail': _fail, '_find_column': _find_column, '_flag': _flag,
      '_is_comparable_type': _is_comparable_type, '_is_numeric_type': _is_numeric_type,
      '_minimal_window': _minimal_window, '_name_list': _name_list,
      '_output_select': _output_select, '_percent': _percent, '_quote': _quote,
      '_relation_argument': _relation_argument, '_repr': _repr, '_require_column': _require_column,
      '_resolve_inputs': _resolve_inputs, '_suffixes': _suffixes, '_suggest_from_histogram': _suggest_from_histogram,
      '_truncate_sql': _truncate_sql, '_type_name': _type_name, '_window_length': _window_length,
      '_window_report': _window_report,
  }) }}
{% endmacro %}
