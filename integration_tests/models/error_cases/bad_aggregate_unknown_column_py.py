from dbt_inc_join import inc_join_model


def model(dbt, session):
    dbt.config(materialized="table")
    return inc_join_model(
        dbt,
        dbt.ref("typed_a"),
        dbt.ref("typed_b"),
        join_cols="k",
        aggregate={"paid": "sum(amount)"},
        output_window_start="2025-03-01",
        output_window_end="2025-03-31",
    )
