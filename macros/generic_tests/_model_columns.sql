{#- The arrival column of the JoinType tests and suggest_windows, and the check that a tested model has the
    columns a test reads (before any SQL is rendered, so a wrong name is one inc_join: message, not Spark's
    UNRESOLVED_COLUMN). -#}

{% macro _arrival_column(inc_col, allow_pair=false) %}
  {#- The inc_col argument; when not given, the project's var inc_join_inc_col; else 'RecDate'. With allow_pair
      (the inputs of suggest_windows) also an [A column, B column] pair. -#}
  {%- if allow_pair and inc_col is not none and inc_col is not string -%}
    {{ return(dbt_inc_join._arrival_pair(inc_col)) }}
  {%- endif -%}
  {%- if inc_col is none -%}
    {%- set inc_col = var('inc_join_inc_col', 'RecDate') -%}
    {%- if inc_col is not string or inc_col | trim == '' -%}
      {{ dbt_inc_join._fail("the var inc_join_inc_col (the default inc_col) must be the name of the arrival column, e.g. 'load_date' (got " ~ dbt_inc_join._repr(inc_col) ~ ').') }}
    {%- endif -%}
  {%- elif inc_col is not string or inc_col | trim == '' -%}
    {{ dbt_inc_join._fail("inc_col must be the name of the arrival column, e.g. 'RecDate' (got " ~ dbt_inc_join._repr(inc_col) ~ ').') }}
  {%- endif -%}
  {{ return(inc_col | trim) }}
{% endmacro %}

{% macro _join_type_requirement(join_type_column) %}
  {#- The JoinType column a test reads: JoinType, or one input's JoinType_<name> of an inc_join_many model. -#}
  {{ return(['JoinType', 'JoinType'] if join_type_column == 'JoinType' else ['join_type_column', join_type_column]) }}
{% endmacro %}

{% macro _join_type_hint(columns) %}
  {#- Why a model has no JoinType column: an inc_join_many model has one per input (JoinType_<name>), which the
      test's join_type_column names; any other model lost it from output_select. -#}
  {%- set per_input = [] -%}
  {%- for c in columns -%}{%- if (c.name | lower).startswith('jointype_') -%}{%- do per_input.append(c.name) -%}{%- endif -%}{%- endfor -%}
  {%- if per_input -%}
    {{ return('an inc_join_many model has one per input: pass join_type_column, e.g. join_type_column: ' ~ per_input[0] ~ '.') }}
  {%- endif -%}
  {{ return('the JoinType tests read the output of dbt_inc_join.inc_join; keep JoinType in its output_select.') }}
{% endmacro %}

{% macro _require_model_columns(model, required, unit=none) %}
  {#- required: [parameter, column name] pairs, checked in order (names match case-insensitively, as in Spark).
      The first missing one fails with the model's columns. Only while executing: when parsing, the relation's
      columns are unknown; a relation that does not exist (no columns) is left to dbt's own message. -#}
  {%- if not execute -%}{{ return(none) }}{%- endif -%}
  {%- set columns = adapter.get_columns_in_relation(model) -%}
  {%- if not columns -%}{{ return(none) }}{%- endif -%}
  {%- for parameter, name in required -%}
    {%- if dbt_inc_join._find_column(columns, name) is none -%}
      {%- set available = [] -%}{%- for c in columns -%}{%- do available.append("'" ~ c.name ~ "'") -%}{%- endfor -%}
      {%- if parameter == 'JoinType' -%}
        {%- set problem = "model " ~ model.identifier ~ " has no JoinType column" -%}
        {%- set hint = dbt_inc_join._join_type_hint(columns) -%}
      {%- else -%}
        {%- set problem = parameter ~ " column '" ~ name ~ "' is missing from model " ~ model.identifier -%}
        {%- if parameter == 'inc_col' -%}
          {%- set hint = "pass the test's inc_col argument, or set the var inc_join_inc_col for the whole project (default 'RecDate')." -%}
        {%- elif parameter == 'join_type_column' -%}
          {%- set hint = "pass the JoinType column of one input of an inc_join_many model, e.g. JoinType_<name>." -%}
        {%- elif parameter == 'a_arrival_col' -%}
          {%- set hint = "pass a_arrival_col, the raw A arrival column of the output; by default it is <inc_col>_A, so the test's inc_col argument or the var inc_join_inc_col (default 'RecDate') also sets it." -%}
        {%- else -%}
          {%- set hint = 'pass the names of the output columns.' -%}
        {%- endif -%}
      {%- endif -%}
      {{ dbt_inc_join._fail(problem ~ '; its columns are ' ~ available | join(', ') ~ '; ' ~ hint) }}
    {%- endif -%}
  {%- endfor -%}
  {%- if unit is not none -%}
    {%- do dbt_inc_join._check_model_unit(columns, model, unit[0], unit[1]) -%}
  {%- endif -%}
{% endmacro %}

{% macro _require_input_columns(relation, role, required) %}
  {#- The same check on an input a test reads (role 'a' or 'b'): required is [parameter, column name] pairs; the
      first missing one fails with the input's columns and the argument that names it. Before any data is read,
      so a wrong or missing b_inc_col is one inc_join: message, not Spark's UNRESOLVED_COLUMN. -#}
  {%- if not execute -%}{{ return(none) }}{%- endif -%}
  {%- set columns = adapter.get_columns_in_relation(relation) -%}
  {%- if not columns -%}{{ return(none) }}{%- endif -%}
  {%- for parameter, name in required -%}
    {%- if dbt_inc_join._find_column(columns, name) is none -%}
      {%- set available = [] -%}{%- for c in columns -%}{%- do available.append("'" ~ c.name ~ "'") -%}{%- endfor -%}
      {%- if parameter == 'b_inc_col' -%}
        {%- set hint = "pass b_inc_col, the arrival column of b when b names it otherwise (by default the test's inc_col, else the var inc_join_inc_col, else 'RecDate')." -%}
      {%- elif parameter == 'inc_col' -%}
        {%- set hint = "pass the test's inc_col argument (the arrival column of a), or set the var inc_join_inc_col for the whole project (default 'RecDate')." -%}
      {%- else -%}
        {%- set hint = 'pass b_join_cols, the key columns of b when b names them otherwise.' -%}
      {%- endif -%}
      {{ dbt_inc_join._fail(parameter ~ " column '" ~ name ~ "' is missing from " ~ role ~ ' ' ~ relation.identifier ~ '; its columns are ' ~ available | join(', ') ~ '; ' ~ hint) }}
    {%- endif -%}
  {%- endfor -%}
{% endmacro %}

{% macro _require_model_unit(model, inc_col, time_uom) %}
  {#- A test's time_uom against the model's own: an inc_join model writes its arrival column as a DATE in days
      and a TIMESTAMP in hours or minutes (spec §5), so a test left at 'day' on an hourly model (which would read
      its windows and lags as days, and pass) fails here with one message. Nothing is said where the model has
      no such column (a test declared elsewhere) or the time_uom is not one of the units (_choice says so). -#}
  {%- if execute -%}
    {%- do dbt_inc_join._check_model_unit(adapter.get_columns_in_relation(model), model, inc_col, time_uom) -%}
  {%- endif -%}
{% endmacro %}

{% macro _check_model_unit(columns, model, inc_col, time_uom) %}
  {#- _require_model_unit's check over the model's columns (_require_model_columns passes those it read). -#}
  {%- if time_uom not in ['day', 'hour', 'minute'] -%}{{ return(none) }}{%- endif -%}
  {%- set column = dbt_inc_join._find_column(columns, inc_col) -%}
  {%- set kind = (column.dtype | lower) if column is not none else '' -%}
  {%- set where = "time_uom='" ~ time_uom ~ "', but " ~ inc_col ~ ' of model ' ~ model.identifier -%}
  {%- if kind.startswith('timestamp') and time_uom == 'day' -%}
    {{ dbt_inc_join._fail(where ~ " is a TIMESTAMP: an inc_join model writes it as a DATE in days and a TIMESTAMP in"
                          ~ " hours or minutes; pass the model's time_uom, e.g. time_uom: hour.") }}
  {%- elif kind == 'date' and time_uom != 'day' -%}
    {{ dbt_inc_join._fail(where ~ " is a DATE: the model's unit is the day; pass time_uom: day, or leave it out.") }}
  {%- endif -%}
{% endmacro %}
