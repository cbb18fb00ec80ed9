{#- Placement helpers the scenarios share (scenarios.py: _a_row, _window_closes, _matched_arrival). -#}

{% macro _a_row(ctx, where) %}
  {#- `where` for rows of an A row itself, never of its late copy (spec §10). -#}
  {{ return(where ~ ' AND NOT _a_late' if ctx.late_match else where) }}
{% endmacro %}

{% macro _window_closes(ctx) %}
  {{ return(dbt_inc_join._add_units_sql('_a_arrival', ctx.mw, ctx.time_uom)) }}
{% endmacro %}

{% macro _matched_arrival(ctx, arrival) %}
  {#- Where a partner row is placed: when it is known. The last partner is known only when A's window closes
      (spec §11); any pair, and the first partner, as soon as both rows are there. -#}
  {{ return(dbt_inc_join._window_closes(ctx) if ctx.mode == 'last' else arrival) }}
{% endmacro %}
