"""The local harness of this repository: an embedded Spark (local_spark) and dbt driven in-process (local_dbt).

Used by the demo and pictures (scripts/), the tests (tests/) and the benchmark (bench/). It is not part of the
installed package dbt_inc_join (it knows the integration project's schema ``inc_join_it`` and its
``INC_JOIN_TODAY`` variable), so it lives outside src/ and is importable only from a checkout: pytest puts the
repository root on sys.path (``pythonpath`` in pyproject.toml), ``python -m bench.run`` and ``python -m tests...``
run from the root, and the scripts add the root themselves.
"""
