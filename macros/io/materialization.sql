{#- The ledger's own materialization: create the table when it is missing, never replace it (a full refresh
    of the project must not forget which runs were committed), never write to it (the post-hooks do). -#}

{% materialization inc_join_ledger, adapter='spark' %}
  {%- set ledger = this.incorporate(type='table') -%}
  {{ run_hooks(pre_hooks) }}
  {%- call statement('main') -%}
    {{ dbt_inc_join._create_ledger_sql(ledger) }}
  {%- endcall -%}
  {%- do dbt_inc_join._add_ledger_columns(ledger) -%}
  {{ run_hooks(post_hooks) }}
  {{ return({'relations': [ledger]}) }}
{% endmaterialization %}
