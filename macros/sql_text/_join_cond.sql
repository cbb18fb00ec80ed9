{#- join_cond (spec §12): an extra SQL condition partners must also meet, over a.<A column> and b.<B column>.
    The one copy of these rules: the core renders them in Python's spelling (plan/validation.py), and asks
    Spark to analyse the condition over its DataFrames where dbt runs EXPLAIN.

    The join runs over internal column names, so each a.<column> becomes _ac<i> and each b.<column> _bc<i>, and
    each side's slice carries those columns. Spark analyses the rewritten condition over both inputs (EXPLAIN,
    which answers with Spark's error instead of failing; no data is read). -#}

{% macro _join_cond_patterns() %}
  {{ return({
      'qualified': '(?<![\\w.`])([A-Za-z_]\\w*)\\s*\\.\\s*(`(?:[^`]|``)+`|[A-Za-z_]\\w*)',
      'literal': '\'(?:[^\'\\\\]|\\\\.)*\'|"(?:[^"\\\\]|\\\\.)*"',
  }) }}
{% endmacro %}

{% macro _find_column_name(names, name, case_sensitive=false) %}
  {%- if case_sensitive -%}{{ return(name if name in names else none) }}{%- endif -%}
  {%- for candidate in names -%}
    {%- if candidate | lower == name | lower -%}{{ return(candidate) }}{%- endif -%}
  {%- endfor -%}
  {{ return(none) }}
{% endmacro %}

{% macro _rewrite_join_cond(text, a_names, b_names, spelling='sql', case_sensitive=false) %}
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
          {{ dbt_inc_join._fail('join_cond ' ~ dbt_inc_join._q(text, spelling) ~ ' names ' ~ dbt_inc_join._q(match.group(0), spelling) ~ ': the side alias ' ~ dbt_inc_join._q(alias, spelling) ~ " is unknown; write a.<column> for A's columns and b.<column> for B's.", 'join_cond', spelling) }}
        {%- endif -%}
        {%- set names = a_names if side == 'a' else b_names -%}
        {%- set resolved = dbt_inc_join._find_column_name(names, column, case_sensitive) -%}
        {%- if resolved is none -%}
          {%- set side_name = dbt_inc_join._word(side, spelling) -%}
          {{ dbt_inc_join._fail('join_cond ' ~ dbt_inc_join._q(text, spelling) ~ ' names ' ~ side ~ '.' ~ column ~ ', a column ' ~ side_name ~ ' does not have; its columns are ' ~ dbt_inc_join._quoted_list(names, spelling) ~ '.', 'join_cond', spelling) }}
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
    {{ dbt_inc_join._fail('join_cond ' ~ dbt_inc_join._q(text, spelling) ~ " names no column of either side; write A's columns as a.<column> and B's as b.<column>, e.g. 'abs(a.Amount - b.Amount) < 0.01'.", 'join_cond', spelling) }}
  {%- endif -%}
  {{ return({'text': text, 'sql': out | join(''), 'a_columns': found.a, 'b_columns': found.b}) }}
{% endmacro %}

{% macro _resolve_join_cond(params, inputs, a_table, b_table, spelling='sql') %}
  {#- join_cond, if any, rewritten and checked by Spark, as inputs.condition (join.py: prepare_join does the same). -#}
  {%- if params.join_cond -%}
    {%- set condition = dbt_inc_join._rewrite_join_cond(params.join_cond, inputs.a_names, inputs.b_names, spelling) -%}
    {%- do dbt_inc_join._check_join_cond(condition, a_table, b_table, spelling) -%}
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

{% macro _check_join_cond(condition, a_table, b_table, spelling='sql') %}
  {#- Let Spark analyse the condition over both inputs (no data is read): it must be boolean. -#}
  {%- set probe = dbt_inc_join._join_cond_probe(condition, a_table, b_table) -%}
  {%- set refused = dbt_inc_join._explain_error(run_query('EXPLAIN ' ~ probe)) -%}
  {%- if refused is not none -%}
    {%- do dbt_inc_join._join_cond_verdict(condition, refused.split('\n') | first,
                                           spelling=spelling) -%}
  {%- endif -%}
  {%- do dbt_inc_join._join_cond_verdict(condition, none, run_query('DESCRIBE QUERY ' ~ probe).rows[0][1], spelling) -%}
{% endmacro %}

{% macro _join_cond_probe(condition, a_table, b_table) %}
  {#- The query whose analysis checks the condition: each side's condition columns, none of its rows. -#}
  {%- set a_side = (dbt_inc_join._condition_projection('a', condition.a_columns) + ['1 AS _a_one']) | join(', ') -%}
  {%- set b_side = (dbt_inc_join._condition_projection('b', condition.b_columns) + ['1 AS _b_one']) | join(', ') -%}
  {{ return('SELECT (' ~ condition.sql ~ ') AS _cond'
            ~ ' FROM (SELECT ' ~ a_side ~ ' FROM ' ~ a_table ~ ' WHERE false) AS _a'
            ~ ' CROSS JOIN (SELECT ' ~ b_side ~ ' FROM ' ~ b_table ~ ' WHERE false) AS _b') }}
{% endmacro %}

{% macro _join_cond_verdict(condition, error_line=none, data_type='boolean', spelling='sql') %}
  {#- What Spark's analysis of the probe said: the first line of its error, else the condition's type. -#}
  {%- if error_line is not none -%}
    {{ dbt_inc_join._fail('join_cond ' ~ dbt_inc_join._q(condition.text, spelling) ~ ' is not a valid Spark SQL condition over a. and b.: ' ~ dbt_inc_join._original_names(error_line, condition), 'join_cond', spelling) }}
  {%- endif -%}
  {%- if data_type != 'boolean' -%}
    {{ dbt_inc_join._fail('join_cond ' ~ dbt_inc_join._q(condition.text, spelling) ~ ' is ' ~ data_type | upper ~ ", not a condition; it must be true or false for a pair, e.g. 'abs(a.Amount - b.Amount) < 0.01'.", 'join_cond_type', spelling) }}
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

{#- Splitting the condition (spec §12, "What
    join_cond costs"): only on a top-level AND (outside parentheses, string literals, CASE ... END, and not the AND
    of BETWEEN ... AND), and not at all with a top-level OR, a leading NOT before the last conjunct, a comment, a
    quoted name or a semicolon. A conjunct is A-only (B-only) when it reads only A's (B's) columns and every other
    word is a literal or one of _pure_words; anything else stays a pair conjunct. -#}

{% macro _pure_words() %}
  {#- Keywords, type names and deterministic functions: evaluated once per row instead of once per pair, they give
      the same answer. -#}
  {{ return(['abs', 'and', 'as', 'between', 'bigint', 'boolean', 'case', 'cast', 'ceil', 'ceiling', 'coalesce',
             'concat', 'date', 'date_add', 'date_sub', 'datediff', 'day', 'decimal', 'distinct', 'double', 'else',
             'end', 'false', 'float', 'floor', 'from', 'greatest', 'if', 'ifnull', 'ilike', 'in', 'int', 'integer',
             'interval', 'is', 'least', 'length', 'like', 'lower', 'ltrim', 'month', 'not', 'null', 'nullif', 'nvl',
             'or', 'rlike', 'round', 'rtrim', 'sign', 'smallint', 'sqrt', 'string', 'substr', 'substring', 'then',
             'timestamp', 'tinyint', 'to_date', 'trim', 'true', 'upper', 'when', 'year']) }}
{% endmacro %}

{% macro _code_pieces(text) %}
  {#- The text as [piece, is_code]: string literals are not code. -#}
  {%- set pieces = [] -%}
  {%- set state = namespace(position=0) -%}
  {%- for literal in modules.re.finditer(dbt_inc_join._join_cond_patterns().literal, text) -%}
    {%- do pieces.append([text[state.position:literal.start()], true]) -%}
    {%- do pieces.append([literal.group(0), false]) -%}
    {%- set state.position = literal.end() -%}
  {%- endfor -%}
  {%- do pieces.append([text[state.position:], true]) -%}
  {{ return(pieces) }}
{% endmacro %}

{% macro _code_tokens(sql) %}
  {#- [start, end, lower-case token] of the code outside string literals. -#}
  {%- set tokens = [] -%}
  {%- set state = namespace(position=0) -%}
  {%- for piece, is_code in dbt_inc_join._code_pieces(sql) -%}
    {%- if is_code -%}
      {%- for token in modules.re.finditer('\\w+|[()]|[^\\w\\s()]+', piece) -%}
        {%- do tokens.append([state.position + token.start(), state.position + token.end(), token.group(0) | lower]) -%}
      {%- endfor -%}
    {%- endif -%}
    {%- set state.position = state.position + piece | length -%}
  {%- endfor -%}
  {{ return(tokens) }}
{% endmacro %}

{% macro _split_conjuncts(sql) %}
  {#- The top-level AND conjuncts of a condition, or the whole condition when a split is not provably safe. -#}
  {%- for piece, is_code in dbt_inc_join._code_pieces(sql) -%}
    {%- for marker in ['`', '--', '/*', ';'] -%}
      {%- if is_code and marker in piece -%}{{ return([sql]) }}{%- endif -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set state = namespace(depth=0, between=false, previous='and') -%}
  {%- set cuts = [] -%}
  {%- set leading_not = [] -%}
  {%- for start, end, token in dbt_inc_join._code_tokens(sql) -%}
    {%- set at_top = state.depth == 0 -%}
    {%- if token in ['(', 'case'] -%}
      {%- set state.depth = state.depth + 1 -%}
    {%- elif token in [')', 'end'] -%}
      {%- set state.depth = state.depth - 1 -%}
    {%- elif at_top and token == 'or' -%}
      {{ return([sql]) }}
    {%- elif at_top and token == 'between' -%}
      {%- set state.between = true -%}
    {%- elif at_top and token == 'and' and state.between -%}
      {%- set state.between = false -%}
    {%- elif at_top and token == 'and' -%}
      {%- do cuts.append([start, end]) -%}
    {%- elif at_top and token == 'not' and state.previous == 'and' -%}
      {%- do leading_not.append(cuts | length) -%}
    {%- endif -%}
    {%- if state.depth < 0 -%}{{ return([sql]) }}{%- endif -%}
    {%- if at_top -%}{%- set state.previous = token -%}{%- endif -%}
  {%- endfor -%}
  {#- NOT x AND y: whether NOT takes y too depends on precedence; only a last conjunct may start with NOT -#}
  {%- if state.depth != 0 or (leading_not and leading_not | min < cuts | length) -%}{{ return([sql]) }}{%- endif -%}
  {%- set bounds = [0] -%}
  {%- for cut in cuts -%}{%- do bounds.extend(cut) -%}{%- endfor -%}
  {%- do bounds.append(sql | length) -%}
  {%- set conjuncts = [] -%}
  {%- for i in range(0, bounds | length, 2) -%}
    {%- set conjunct = sql[bounds[i]:bounds[i + 1]] | trim -%}
    {%- if not conjunct -%}{{ return([sql]) }}{%- endif -%}
    {%- do conjuncts.append(conjunct) -%}
  {%- endfor -%}
  {{ return(conjuncts) }}
{% endmacro %}

{% macro _conjunct_side(conjunct) %}
  {#- 'a' or 'b' when the conjunct provably reads only that side's columns, else 'pair'. -#}
  {%- set sides = [] -%}
  {%- set pure = dbt_inc_join._pure_words() -%}
  {%- for start, end, token in dbt_inc_join._code_tokens(conjunct) -%}
    {%- set column = modules.re.fullmatch('_([ab])c(\\d+)', token) -%}
    {%- if column is not none -%}
      {%- if column.group(1) not in sides -%}{%- do sides.append(column.group(1)) -%}{%- endif -%}
    {%- elif (token[0].isalpha() or token[0] == '_') and token not in pure -%}
      {{ return('pair') }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(sides[0] if sides | length == 1 else 'pair') }}
{% endmacro %}

{% macro _condition_parts(sql) %}
  {#- The condition as the AND of its A-only, B-only and pair conjuncts: {'a_only', 'b_only', 'pair'}, each none
      when it has no conjunct. -#}
  {%- set found = {'a': [], 'b': [], 'pair': []} -%}
  {%- for conjunct in dbt_inc_join._split_conjuncts(sql) -%}
    {%- do found[dbt_inc_join._conjunct_side(conjunct)].append('(' ~ conjunct ~ ')') -%}
  {%- endfor -%}
  {%- set parts = {} -%}
  {%- for part, key in [('a', 'a_only'), ('b', 'b_only'), ('pair', 'pair')] -%}
    {%- do parts.update({key: found[part] | join(' AND ') if found[part] else none}) -%}
  {%- endfor -%}
  {{ return(parts) }}
{% endmacro %}

{% macro _a_column_indexes(sql) %}
  {#- The i of each _ac<i> a text reads, ascending. -#}
  {%- set found = [] -%}
  {%- if sql is not none -%}
    {%- for start, end, token in dbt_inc_join._code_tokens(sql) -%}
      {%- set column = modules.re.fullmatch('_ac(\\d+)', token) -%}
      {%- if column is not none and (column.group(1) | int) not in found -%}{%- do found.append(column.group(1) | int) -%}{%- endif -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(found | sort) }}
{% endmacro %}

{% macro _renamed_a_columns(sql, names) %}
  {#- The text with each _ac<i> as names[i] (string literals untouched). -#}
  {%- set out = [] -%}
  {%- for piece, is_code in dbt_inc_join._code_pieces(sql) -%}
    {%- if is_code -%}
      {%- set cursor = namespace(at=0) -%}
      {%- for match in modules.re.finditer('(?i)\\b_([ab])c(\\d+)\\b', piece) -%}
        {%- if match.group(1) | lower == 'a' -%}
          {%- do out.append(piece[cursor.at:match.start()] ~ names[match.group(2) | int]) -%}
          {%- set cursor.at = match.end() -%}
        {%- endif -%}
      {%- endfor -%}
      {%- do out.append(piece[cursor.at:]) -%}
    {%- else -%}
      {%- do out.append(piece) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(out | join('')) }}
{% endmacro %}
