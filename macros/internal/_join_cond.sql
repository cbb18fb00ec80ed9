{#- join_cond (spec §12): an extra SQL condition partners must also meet, over a.<A column> and b.<B column>.
    Read side by side with src/dbt_inc_join/join_cond.py (same rules, same internal names, same messages).

    The join runs over internal column names, so each a.<column> becomes _ac<i> and each b.<column> _bc<i>, and
    each side's slice carries those columns. Spark analyses the rewritten condition over both inputs (EXPLAIN,
    which answers with Spark's error instead of failing; no data is read). -#}

{% macro _join_cond_patterns() %}
  {{ return({
      'qualified': '(?<![\\w.`])([A-Za-z_]\\w*)\\s*\\.\\s*(`(?:[^`]|``)+`|[A-Za-z_]\\w*)',
      'literal': '\'(?:[^\'\\\\]|\\\\.)*\'|"(?:[^"\\\\]|\\\\.)*"',
  }) }}
{% endmacro %}

{% macro _find_column_name(names, name) %}
  {#- join_cond.py: find_column_name (the SQL side folds case always) -#}
  {%- for candidate in names -%}
    {%- if candidate | lower == name | lower -%}{{ return(candidate) }}{%- endif -%}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}

{% macro _rewrite_join_cond(text, a_names, b_names) %}
  {#- a.<column> and b.<column> to internal names; any other qualifier, a column a side does not have, or no
      column of either side is refused. Returns {'text', 'sql', 'a_columns', 'b_columns'}. -#}
  {%- set patterns = dbt_inc_join._join_cond_patterns() -%}
  {%- set found = {'a': [], 'b': []} -%}
  {%- set out = [] -%}
  {%- set state = namespace(position=0) -%}
  {%- set pieces = [] -%}
  {%- for literal in modules.re.finditer(patterns.literal, text) -%}
    {%- do pieces.append([text[state.position:literal.start()], true]) -%}
    {%- do pieces.append([literal.group(0), false]) -%}
    {%- set state.position = literal.end() -%}
  {%- endfor -%}
  {%- do pieces.append([text[state.position:], true]) -%}
  {%- for piece, is_code in pieces -%}
    {%- if not is_code -%}
      {%- do out.append(piece) -%}
    {%- else -%}
      {%- set cursor = namespace(at=0) -%}
      {%- for match in modules.re.finditer(patterns.qualified, piece) -%}
        {%- set alias = match.group(1) -%}
        {%- set column = match.group(2) -%}
        {%- if column.startswith('`') -%}{%- set column = column[1:-1].replace('``', '`') -%}{%- endif -%}
        {%- set side = alias | lower -%}
        {%- if side not in ['a', 'b'] -%}
          {{ dbt_inc_join._fail("join_cond '" ~ text ~ "' names '" ~ match.group(0) ~ "': the side alias '" ~ alias ~ "' is unknown; write a.<column> for A's columns and b.<column> for B's.") }}
        {%- endif -%}
        {%- set names = a_names if side == 'a' else b_names -%}
        {%- set resolved = dbt_inc_join._find_column_name(names, column) -%}
        {%- if resolved is none -%}
          {%- set listed = [] -%}{%- for n in names -%}{%- do listed.append("'" ~ n ~ "'") -%}{%- endfor -%}
          {{ dbt_inc_join._fail("join_cond '" ~ text ~ "' names " ~ side ~ '.' ~ column ~ ', a column ' ~ side ~ ' does not have; ' ~ side ~ "'s columns are " ~ listed | join(', ') ~ '.') }}
        {%- endif -%}
        {%- if resolved not in found[side] -%}{%- do found[side].append(resolved) -%}{%- endif -%}
        {%- do out.append(piece[cursor.at:match.start()]) -%}
        {%- do out.append('_' ~ side ~ 'c' ~ found[side].index(resolved)) -%}
        {%- set cursor.at = match.end() -%}
      {%- endfor -%}
      {%- do out.append(piece[cursor.at:]) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if not found.a and not found.b -%}
    {{ dbt_inc_join._fail("join_cond '" ~ text ~ "' names no column of either side; write A's columns as a.<column> and B's as b.<column>, e.g. 'abs(a.Amount - b.Amount) < 0.01'.") }}
  {%- endif -%}
  {{ return({'text': text, 'sql': out | join(''), 'a_columns': found.a, 'b_columns': found.b}) }}
{% endmacro %}

{% macro _resolve_join_cond(params, inputs, a_table, b_table) %}
  {#- join_cond, if any, rewritten and checked by Spark, as inputs.condition (join.py: prepare_join does the same). -#}
  {%- if params.join_cond -%}
    {%- set condition = dbt_inc_join._rewrite_join_cond(params.join_cond, inputs.a_names, inputs.b_names) -%}
    {%- do dbt_inc_join._check_join_cond(condition, a_table, b_table) -%}
    {%- do inputs.update({'condition': condition}) -%}
  {%- endif -%}
{% endmacro %}

{% macro _condition_projection(side, columns) %}
  {#- The columns a side's slice carries for join_cond. -#}
  {%- set projection = [] -%}
  {%- for column in columns -%}
    {%- do projection.append(dbt_inc_join._quote(column) ~ ' AS _' ~ side ~ 'c' ~ loop.index0) -%}
  {%- endfor -%}
  {{ return(projection) }}
{% endmacro %}

{% macro _check_join_cond(condition, a_table, b_table) %}
  {#- Let Spark analyse the condition over both inputs (no data is read): it must be boolean. -#}
  {%- set a_side = (dbt_inc_join._condition_projection('a', condition.a_columns) + ['1 AS _a_one']) | join(', ') -%}
  {%- set b_side = (dbt_inc_join._condition_projection('b', condition.b_columns) + ['1 AS _b_one']) | join(', ') -%}
  {%- set probe = 'SELECT (' ~ condition.sql ~ ') AS _cond'
                  ~ ' FROM (SELECT ' ~ a_side ~ ' FROM ' ~ a_table ~ ' WHERE false) AS _a'
                  ~ ' CROSS JOIN (SELECT ' ~ b_side ~ ' FROM ' ~ b_table ~ ' WHERE false) AS _b' -%}
  {%- set plan = run_query('EXPLAIN ' ~ probe) -%}
  {%- set text = plan.columns[0].values() | join('\n') -%}
  {%- set marker = 'Error occurred during query planning:' -%}
  {%- if marker in text -%}
    {%- set message = text.split(marker, 1)[1] | trim -%}
    {%- set first_line = message.split('\n') | first -%}
    {{ dbt_inc_join._fail("join_cond '" ~ condition.text ~ "' is not a valid Spark SQL condition over a. and b.: " ~ dbt_inc_join._original_names(first_line, condition)) }}
  {%- endif -%}
  {%- set data_type = run_query('DESCRIBE QUERY ' ~ probe).rows[0][1] -%}
  {%- if data_type != 'boolean' -%}
    {{ dbt_inc_join._fail("join_cond '" ~ condition.text ~ "' is " ~ data_type | upper ~ ", not a condition; it must be true or false for a pair, e.g. 'abs(a.Amount - b.Amount) < 0.01'.") }}
  {%- endif -%}
{% endmacro %}

{% macro _original_names(message, condition) %}
  {#- Spark's message with the internal names back as the user wrote them. -#}
  {%- set state = namespace(text=message) -%}
  {%- for side, columns in [('a', condition.a_columns), ('b', condition.b_columns)] -%}
    {%- for i in range(columns | length - 1, -1, -1) -%}
      {%- set state.text = state.text.replace('_' ~ side ~ 'c' ~ i, side ~ '.' ~ columns[i]) -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(state.text) }}
{% endmacro %}
