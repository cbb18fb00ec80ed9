{#- Output columns (spec §5): names, order, suffixes and output_select tokens. Pure name logic. Names fold case
    unless case_sensitive (the core follows Spark's spark.sql.caseSensitive; dbt folds case). -#}

{% macro _plan_columns(params, inputs, spelling='sql', case_sensitive=false) %}
  {%- set derived = ['DiffArrivalTime', 'WaitingTime', 'JoinType', 'JoinTypeName'] -%}
  {%- set fold = namespace(a=[], b=[]) -%}
  {%- for pair in inputs['keys'] -%}
    {%- do fold.a.append((pair[0] if case_sensitive else pair[0] | lower)) -%}
    {%- do fold.b.append((pair[1] if case_sensitive else pair[1] | lower)) -%}
  {%- endfor -%}
  {%- set a_rest = [] -%}{%- for n in inputs.a_names -%}{%- if (n if case_sensitive else n | lower) not in fold.a -%}{%- do a_rest.append(n) -%}{%- endif -%}{%- endfor -%}
  {%- set b_rest = [] -%}{%- for n in inputs.b_names -%}{%- if (n if case_sensitive else n | lower) not in fold.b -%}{%- do b_rest.append(n) -%}{%- endif -%}{%- endfor -%}
  {%- set aggregated = params.aggregate | length > 0 -%}
  {%- if aggregated -%}
    {#- With aggregate B's columns are not output (spec §11). -#}
    {%- set b_rest = [inputs.inc_col[1]] -%}
  {%- endif -%}
  {%- set b_folded = [] -%}{%- for n in b_rest -%}{%- do b_folded.append((n if case_sensitive else n | lower)) -%}{%- endfor -%}
  {%- set shared = [] -%}
  {%- for n in a_rest -%}{%- if (n if case_sensitive else n | lower) in b_folded -%}{%- do shared.append((n if case_sensitive else n | lower)) -%}{%- endif -%}{%- endfor -%}

  {%- set keys = [] -%}
  {%- for pair in inputs['keys'] -%}
    {%- do keys.append({'name': pair[0], 'source': 'key', 'index': loop.index0, 'input_name': pair[0]}) -%}
  {%- endfor -%}
  {%- set arrival = {'name': inputs.inc_col[0], 'source': 'arrival', 'index': 0, 'input_name': inputs.inc_col[0]} -%}
  {%- set aggregate_columns = [] -%}
  {%- for pair in params.aggregate -%}
    {%- do aggregate_columns.append({'name': pair[0], 'source': 'aggregate', 'index': loop.index0, 'input_name': pair[0]}) -%}
  {%- endfor -%}
  {%- set derived_columns = [] -%}
  {%- for n in derived -%}{%- do derived_columns.append({'name': n, 'source': 'derived', 'index': 0, 'input_name': n}) -%}{%- endfor -%}
  {%- set taken = dbt_inc_join._refuse_duplicate_own_names(keys + [arrival] + aggregate_columns + derived_columns, spelling, case_sensitive) -%}
  {%- set sides = [('a', a_rest, params.suffixes[0], inputs.inc_col[0])] -%}
  {%- if not aggregated -%}
    {%- do sides.append(('b', b_rest, params.suffixes[1], inputs.inc_col[1])) -%}
  {%- endif -%}
  {%- set side_columns = dbt_inc_join._name_input_columns(sides, shared, taken, params.suffixes, spelling, case_sensitive) -%}
  {%- if aggregated -%}
    {%- do side_columns.update({'b': []}) -%}
  {%- endif -%}
  {%- set everything = keys + [arrival] + side_columns['a'] + side_columns['b'] + aggregate_columns + derived_columns -%}
  {%- set by_name = {} -%}{%- for column in everything -%}{%- do by_name.update({(column.name if case_sensitive else column.name | lower): column}) -%}{%- endfor -%}

  {%- set inc_col_a = side_columns['a'] | selectattr('input_name', 'equalto', inputs.inc_col[0]) | first -%}
  {%- if aggregated -%}
    {%- set groups = {'join_cols': keys, 'inc_col': [arrival], 'df_a_cols': side_columns['a'], 'inc_col_a': [inc_col_a],
                      'aggregates': aggregate_columns} -%}
    {%- set tokens = 'join_cols, inc_col, df_a_cols, inc_col_a, aggregates' -%}
  {%- else -%}
    {%- set inc_col_b = side_columns['b'] | selectattr('input_name', 'equalto', inputs.inc_col[1]) | first -%}
    {%- set groups = {'join_cols': keys, 'inc_col': [arrival], 'df_a_cols': side_columns['a'], 'df_b_cols': side_columns['b'],
                      'inc_col_a': [inc_col_a], 'inc_col_b': [inc_col_b]} -%}
    {%- set tokens = 'join_cols, inc_col, df_a_cols, df_b_cols, inc_col_a, inc_col_b' -%}
  {%- endif -%}
  {%- set selected = dbt_inc_join._selected_columns(params, groups, tokens, by_name, everything, spelling, case_sensitive) -%}
  {{ return({'a_columns': side_columns['a'], 'b_columns': side_columns['b'], 'keys': keys, 'selected': selected,
             'aggregates': aggregate_columns}) }}
{% endmacro %}

{% macro _refuse_duplicate_own_names(columns, spelling='sql', case_sensitive=false) %}
  {#- The join's own columns (keys, output arrival, aggregates, derived columns) by folded name; they never give
      way, so two of them under one name is an error of the argument that named them. -#}
  {%- set taken = {} -%}
  {%- for column in columns -%}
    {%- set other = taken.get((column.name if case_sensitive else column.name | lower)) -%}
    {%- if other is not none -%}
      {%- set advice = 'give the aggregate another name' if 'aggregate' in [other.source, column.source] else 'rename the column before joining' -%}
      {{ dbt_inc_join._fail('output column ' ~ dbt_inc_join._q(column.name, spelling) ~ ' would exist twice (' ~ dbt_inc_join._describe_column(other, spelling) ~ ' and ' ~ dbt_inc_join._describe_column(column, spelling) ~ '); ' ~ advice ~ '.', 'output_column', spelling) }}
    {%- endif -%}
    {%- do taken.update({(column.name if case_sensitive else column.name | lower): column}) -%}
  {%- endfor -%}
  {{ return(taken) }}
{% endmacro %}

{% macro _name_input_columns(sides, shared, taken, suffixes, spelling='sql', case_sensitive=false) %}
  {#- Each side's input columns named (spec §5); sides: (side, names, suffix, the side's arrival column).
      A column asks for its name, with its side's suffix when the name is in `shared` (on both sides) or is its
      side's arrival (the output arrival takes A's name); while that name is taken, its side's suffix is appended
      again. Columns ask shortest input name first (A before B, then each side's order, on a tie): a name a
      suffix makes (A's RecDate as RecDate_A) goes before an input column already called so, which becomes
      RecDate_A_A, and in a chain each suffix is one step up. taken (the join's own names) grows. -#}
  {%- set asking = [] -%}
  {%- for side in sides -%}
    {%- set s = loop.index0 -%}
    {%- for name in side[1] -%}{%- do asking.append([name | length, s, loop.index0]) -%}{%- endfor -%}
  {%- endfor -%}
  {%- set named = {} -%}
  {%- for side in sides -%}{%- do named.update({side[0]: {}}) -%}{%- endfor -%}
  {%- for ask in asking | sort -%}
    {%- set side, names, suffix, own_arrival = sides[ask[1]] -%}
    {%- set n = names[ask[2]] -%}
    {%- set folded = (n if case_sensitive else n | lower) -%}
    {%- set suffixed = folded in shared or folded == (own_arrival if case_sensitive else own_arrival | lower) -%}
    {%- set column = {'name': n ~ suffix if suffixed else n, 'source': side, 'index': ask[2], 'input_name': n} -%}
    {#- a bounded loop (Jinja has no while): each extra suffix passes one taken name -#}
    {%- for _ in range(taken | length + 1) -%}
      {%- set key = column.name if case_sensitive else column.name | lower -%}
      {%- if key not in taken -%}{%- break -%}{%- endif -%}
      {%- if suffix == '' -%}
        {#- the name cannot change: one of the suffixes is empty -#}
        {{ dbt_inc_join._fail('output column ' ~ dbt_inc_join._q(column.name, spelling) ~ ' would exist twice (' ~ dbt_inc_join._describe_column(taken[key], spelling) ~ ' and ' ~ dbt_inc_join._describe_column(column, spelling) ~ '); rename one input column or pass other suffixes (now ' ~ dbt_inc_join._pair_text(suffixes[0], suffixes[1], spelling) ~ ').', 'output_column', spelling) }}
      {%- endif -%}
      {%- do column.update({'name': column.name ~ suffix}) -%}
    {%- endfor -%}
    {%- do taken.update({(column.name if case_sensitive else column.name | lower): column}) -%}
    {%- do named[side].update({ask[2]: column}) -%}
  {%- endfor -%}
  {%- set result = {} -%}
  {%- for side in sides -%}
    {%- set columns = [] -%}
    {%- for name in side[1] -%}{%- do columns.append(named[side[0]][loop.index0]) -%}{%- endfor -%}
    {%- do result.update({side[0]: columns}) -%}
  {%- endfor -%}
  {{ return(result) }}
{% endmacro %}

{% macro _selected_columns(params, groups, tokens, by_name, everything, spelling='sql', case_sensitive=false) %}
  {#- The columns output_select names, through its tokens (groups) or by name; each at most once. -#}
  {%- set selected = [] -%}
  {%- for token in params.output_select -%}
    {%- if (token | lower) in groups -%}
      {%- do selected.extend(groups[token | lower]) -%}
    {%- elif params.aggregate | length > 0 and (token | lower) in ['df_b_cols', 'inc_col_b'] -%}
      {{ dbt_inc_join._fail('output_select token ' ~ dbt_inc_join._q(token, spelling) ~ " is not available with aggregate: B's columns reach the output only through the aggregates (" ~ dbt_inc_join._quoted_list(params.aggregate | map(attribute=0), spelling) ~ ').', 'output_select', spelling) }}
    {%- elif (token if case_sensitive else token | lower) in by_name -%}
      {%- do selected.append(by_name[(token if case_sensitive else token | lower)]) -%}
    {%- else -%}
      {%- set names = [] -%}{%- for c in everything[:-4] -%}{%- do names.append(c.name) -%}{%- endfor -%}
      {#- a name one typo away from a token or a column is offered (_missing_column_hint) -#}
      {%- set known = everything | list -%}
      {%- for group in groups -%}{%- do known.append({'name': group}) -%}{%- endfor -%}
      {{ dbt_inc_join._fail('output_select token ' ~ dbt_inc_join._q(token, spelling) ~ ' is neither a token (' ~ tokens ~ ', DiffArrivalTime, WaitingTime, JoinType, JoinTypeName) nor an output column (' ~ names | join(', ') ~ ').'
                            ~ dbt_inc_join._missing_column_hint(known, token, 'output_select', spelling), 'output_select', spelling) }}
    {%- endif -%}
  {%- endfor -%}
  {%- set seen = [] -%}
  {%- for column in selected -%}
    {%- if (column.name if case_sensitive else column.name | lower) in seen -%}
      {{ dbt_inc_join._fail('output_select selects column ' ~ dbt_inc_join._q(column.name, spelling) ~ ' twice; list it once.', 'output_select', spelling) }}
    {%- endif -%}
    {%- do seen.append((column.name if case_sensitive else column.name | lower)) -%}
  {%- endfor -%}
  {{ return(selected) }}
{% endmacro %}

{% macro _describe_column(column, spelling='sql') %}
  {%- if column.source in ['a', 'b'] and spelling == 'python' -%}{{ return('df_' ~ column.source ~ ' column ' ~ dbt_inc_join._q(column.input_name, spelling)) }}
  {%- elif column.source in ['a', 'b'] -%}{{ return("column '" ~ column.input_name ~ "' of " ~ column.source) }}
  {%- elif column.source == 'key' -%}{{ return('join key ' ~ dbt_inc_join._q(column.input_name, spelling)) }}
  {%- elif column.source == 'arrival' -%}{{ return('the output arrival inc_col ' ~ dbt_inc_join._q(column.input_name, spelling)) }}
  {%- elif column.source == 'aggregate' -%}{{ return('the aggregate ' ~ dbt_inc_join._q(column.name, spelling)) }}
  {%- else -%}{{ return('the derived column ' ~ dbt_inc_join._q(column.name, spelling)) }}
  {%- endif -%}
{% endmacro %}
