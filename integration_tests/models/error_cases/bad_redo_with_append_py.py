from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="append")
    return inc_join_model(dbt, dbt.ref("typed_a"), dbt.ref("typed_b"), join_cols="k", on_restated_input="redo")
