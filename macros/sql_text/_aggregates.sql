{#- The aggregate and null_fill arguments (spec §11): Spark checks each aggregate on b's schema before any data is
    read, and a null_fill value becomes a SQL literal. The core renders the fills and the messages (plan/aggregates.py).

    Spark itself is the judge of what is an aggregate: each expression is analysed in
    `SELECT <expression>, count(1) FROM b WHERE false`. Jinja cannot catch a failed query, so the macro asks
    for its plan with EXPLAIN, which answers with Spark's error message instead of failing, and words that
    message as the core does. -#}

{% macro _probe_select(expression) %}
  {{ return([expression ~ ' AS _inc_join_value', 'count(1) AS _inc_join_probe']) }}
{% endmacro %}

{% macro _probe_error(name, expression, spark_message, b_columns, side) %}
  {#- The message for an aggregate Spark refused, from the first line of Spark's own message. -#}
  {%- set lines = spark_message | trim | replace('\r', '') -%}
  {%- set first_line = (lines.split('\n') | first) if lines else '' -%}
  {%- set start = "aggregate '" ~ name ~ "' = '" ~ expression ~ "'" -%}
  {%- set missing = modules.re.search('name `([^`]*)` cannot be resolved', first_line) -%}
  {%- if 'UNRESOLVED_COLUMN' in first_line and missing -%}
    {%- set listed = [] -%}{%- for column in b_columns -%}{%- do listed.append("'" ~ column ~ "'") -%}{%- endfor -%}
    {{ return(start ~ " names a column " ~ side ~ " does not have: '" ~ missing.group(1) ~ "'; its columns are " ~ listed | join(', ') ~ '.') }}
  {%- endif -%}
  {%- if 'MISSING_GROUP_BY' in first_line or 'MISSING_AGGREGATION' in first_line -%}
    {{ return(start ~ ' is not an aggregate: every B column it uses must be inside an aggregate function, e.g. sum(Amount), count(*), max_by(Price, Seq).') }}
  {%- endif -%}
  {%- set routine = modules.re.search('(?:routine|function) `([^`]*)`', first_line) -%}
  {%- if 'UNRESOLVED_ROUTINE' in first_line and routine -%}
    {{ return(start ~ " calls a function Spark does not know: '" ~ routine.group(1) ~ "'.") }}
  {%- endif -%}
  {{ return(start ~ ' is not a valid Spark SQL aggregate over ' ~ side ~ ': ' ~ first_line) }}
{% endmacro %}

{% macro _check_aggregates(b, aggregates, b_names, spelling='sql') %}
  {#- Let Spark analyse each aggregate over b's schema (no data is read); a refusal names the output column. -#}
  {%- for pair in aggregates -%}
    {%- set message = dbt_inc_join._explain_error(run_query('EXPLAIN SELECT ' ~ dbt_inc_join._probe_select(pair[1]) | join(', ') ~ ' FROM ' ~ b ~ ' WHERE false')) -%}
    {%- if message is not none -%}
      {{ dbt_inc_join._fail(dbt_inc_join._probe_error(pair[0], pair[1], message, b_names, dbt_inc_join._word('b', spelling)), none, spelling) }}
    {%- endif -%}
  {%- endfor -%}
{% endmacro %}

{% macro _fill_literal_sql(value) %}
  {#- A null_fill value as a SQL literal (_validation.sql accepts only these types). -#}
  {%- if value is none -%}{{ return('NULL') }}
  {%- elif value is boolean -%}{{ return('true' if value else 'false') }}
  {%- elif value is integer -%}{{ return(value | string) }}
  {%- elif value is number -%}{{ return("CAST('" ~ value ~ "' AS DOUBLE)") }}
  {%- elif value is string -%}{{ return("'" ~ value | replace('\\', '\\\\') | replace("'", "\\'") ~ "'") }}
  {%- elif value.hour is defined -%}{{ return("TIMESTAMP'" ~ value.isoformat(sep=' ') ~ "'") }}
  {%- endif -%}
  {{ return("DATE'" ~ value.isoformat() ~ "'") }}
{% endmacro %}

{% macro _single_call(expression) %}
  {#- The function's name, in lower case, when expression (an aggregate, balanced as _validation.sql checked it) is
      one call of it: what lies between the parentheses after the name is balanced, so they close at the end; else
      none (e.g. count(x) + count(y)). -#}
  {%- set match = modules.re.match('^\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\((.*)\\)\\s*$', expression, modules.re.S) -%}
  {{ return(match.group(1) | lower if match is not none and dbt_inc_join._balanced(match.group(2)) else none) }}
{% endmacro %}

{% macro _empty_value_sql(expression) %}
  {#- An aggregate's value over no rows as a literal, when it is one call of a function of the shared table
      (count(*), max(x), ...); none: the run computes it over no rows of B. -#}
  {%- set name = dbt_inc_join._single_call(expression) -%}
  {{ return(none if name is none else dbt_inc_join._empty_aggregates().get(name)) }}
{% endmacro %}

{% macro _aggregate_fills(params) %}
  {#- Per aggregate, the SQL an A row without partner gets: its null_fill literal, else its value over no rows: a
      literal where _empty_value_sql knows it, else _e<j>. -#}
  {%- set fills = {} -%}
  {%- for pair in params.null_fill -%}{%- do fills.update({pair[0]: pair[1]}) -%}{%- endfor -%}
  {%- set rendered = [] -%}
  {%- for pair in params.aggregate -%}
    {%- if pair[0] in fills -%}
      {%- do rendered.append(dbt_inc_join._fill_literal_sql(fills[pair[0]])) -%}
    {%- else -%}
      {%- do rendered.append(dbt_inc_join._empty_value_sql(pair[1]) or '_e' ~ loop.index0) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(rendered) }}
{% endmacro %}

{% macro _balanced(expression) %}
  {#- Parentheses balance outside quotes, and every quote closes (a cheap syntax check Spark would fail on with a
      message that does not name the aggregate). -#}
  {%- set state = {'depth': 0, 'quote': '', 'broken': false} -%}
  {%- for char in expression -%}
    {%- if state.quote -%}
      {%- if char == state.quote -%}{%- do state.update({'quote': ''}) -%}{%- endif -%}
    {%- elif char in ["'", '"', '`'] -%}
      {%- do state.update({'quote': char}) -%}
    {%- elif char == '(' -%}
      {%- do state.update({'depth': state.depth + 1}) -%}
    {%- elif char == ')' -%}
      {%- do state.update({'depth': state.depth - 1}) -%}
      {%- if state.depth < 0 -%}{%- do state.update({'broken': true}) -%}{%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(not state.broken and state.depth == 0 and not state.quote) }}
{% endmacro %}
