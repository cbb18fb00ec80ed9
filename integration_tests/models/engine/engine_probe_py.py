def model(dbt, session):
    """What a Python model sees of the session (tests/integration/test_engine.py)."""
    dbt.config(materialized="table")
    size_of_null = session.sql("select size(cast(null as array<int>)) as s").first().s
    return session.createDataFrame(
        [(session.conf.get("spark.sql.ansi.enabled"), size_of_null)], "ansi_conf string, size_of_null int"
    )
