from dbt_inc_join import inc_join_many_model


def model(dbt, session):
    # restated_many as a Python model: the same inputs, the same restated units, the same redo
    dbt.config(
        materialized="incremental",
        incremental_strategy="insert_overwrite",
        partition_by=["RecDate"],
        tags=["restated"],
    )
    return inc_join_many_model(
        dbt,
        dbt.source("restated", "restated_a"),
        [
            dict(df=dbt.source("restated", "restated_b"), name="pay", join_cols="TrxId", look_back_time=2,
                 max_waiting_time=4, partner="first", partner_order_by="PaymentId"),
            dict(df=dbt.source("restated", "restated_c"), name="note", join_cols="TrxId", look_back_time=1,
                 max_waiting_time=3, aggregate={"n_notes": "count(*)"}),
        ],
    )  # fmt: skip
