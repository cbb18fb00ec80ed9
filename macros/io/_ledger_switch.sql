{#- The run ledger's switch (README, "The run ledger"): a project turns the ledger's models on with
      vars:
        inc_join_ledger: true
    in its dbt_project.yml (each model of models/ reads it in its config()). Without it the package adds no model
    to the project, and a model with the post-hook record_run fails with one message naming the switch. -#}

{% macro _ledger_switch_check() %}
  {#- Fails when the ledger model is not enabled in this project (the switch is off, or the model was disabled by
      hand); only when executing: dbt renders hooks at parse time too. -#}
  {%- if execute and dbt_inc_join._ledger_node() is none -%}
    {{ dbt_inc_join._fail("post-hook record_run: the run ledger is off in this project (its model dbt_inc_join_runs "
                          ~ "is not enabled). Switch it on in your dbt_project.yml with `vars: {inc_join_ledger: true}` "
                          ~ "(it adds the table dbt_inc_join_runs and its three monitoring views), or remove the "
                          ~ "post-hook.") }}
  {%- endif -%}
{% endmacro %}

{% macro _ledger_view_hook() %}
  {#- The monitoring views' pre-hook: creates the ledger when it is missing (e.g. a model of the project dropped
      the schema after the ledger was built), so a view never fails the run for want of it. A pre-hook runs only
      when the view is built (run, build), never on compile or docs generate. Returns no statement. -#}
  {%- do dbt_inc_join._ensure_ledger(ref('dbt_inc_join_runs')) -%}
  {{ return('') }}
{% endmacro %}

{% macro _ledger_dependency() %}
  {#- At parse time (dbt renders a model's hooks then to find their refs): a model with the post-hook record_run
      depends on the ledger's model, so a `dbt run` builds the ledger before any model records in it. Two post-hooks
      creating a missing Delta ledger at once would fail one model. Nothing when the switch is off (the post-hook
      fails at run time naming it), nor for the ledger's own model. -#}
  {%- if var('inc_join_ledger', false) and model is defined and model is not none and model.name != 'dbt_inc_join_runs' -%}
    {%- do ref('dbt_inc_join', 'dbt_inc_join_runs') -%}
  {%- endif -%}
{% endmacro %}
