from dbt_inc_join import inc_join_many_model


def model(dbt, session):
    dbt.config(
        materialized="incremental",
        incremental_strategy="insert_overwrite",
        partition_by=["RecDate"],
        tags=["daily"],
    )
    return inc_join_many_model(
        dbt,
        dbt.ref("stg_gen_a"),
        [
            dict(df=dbt.ref("stg_gen_b"), name="pay", join_cols="TrxId", look_back_time=2, max_waiting_time=4),
            dict(
                df=dbt.ref("stg_renamed_b"),
                name="near",
                join_cols={"TrxId": "PayTrx"},
                inc_col=("RecDate", "PaidOn"),
                look_back_time=1,
                max_waiting_time=1,
                aggregate={"n_near": "count(*)", "near_statuses": "sort_array(collect_set(Status))"},
            ),
        ],
    )
