{#- How far back inc_join_many reads, one rule for the statement (_many_render.sql), the read ranges and the
    restated check's reaches (orchestration/_many.sql, inc_join_many.sql, the Python model). -#}

{% macro _many_reaches(prepared) %}
  {#- How far before a window's start inc_join_many reads A (the largest max_waiting_time) and each input (that
      and its look_back_time), in units (spec §12): {'a': units, name: units, ...}. -#}
  {%- set reach = prepared | map(attribute='params') | map(attribute='max_waiting_time') | max -%}
  {%- set reaches = {'a': reach} -%}
  {%- for item in prepared -%}
    {%- do reaches.update({item.name: reach + item.params.look_back_time}) -%}
  {%- endfor -%}
  {{ return(reaches) }}
{% endmacro %}
