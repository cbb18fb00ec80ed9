from dbt_inc_join import inc_join_many_model


def model(dbt, session):
    dbt.config(
        materialized="incremental",
        incremental_strategy="insert_overwrite",
        partition_by=["RecDate"],
        tags=["open_state"],
    )
    # open_many as a Python model
    return inc_join_many_model(
        dbt,
        dbt.ref("stg_gen_a"),
        [
            dict(
                df=dbt.ref("stg_gen_b"),
                name="pay",
                join_cols="TrxId",
                look_back_time=1,
                max_waiting_time=int(dbt.config.get("open_state_many_mw")),
            ),
            dict(
                df=dbt.ref("stg_renamed_b"),
                name="paid",
                join_cols={"TrxId": "PayTrx"},
                inc_col=("RecDate", "PaidOn"),
                look_back_time=0,
                max_waiting_time=3,
                partner_order_by="Status",
            ),
        ],
        open_state=True,
    )
