"""The integration project, the one users copy from, parses without any dbt deprecation warning (dbt 1.10+
warns, for instance, about custom model configs outside ``meta``)."""

from __future__ import annotations


def test_the_project_parses_without_dbt_deprecations(project, tmp_path):
    from dbt import deprecations

    # every model, the error cases included; its own target path keeps the suite's partial-parse state intact
    project.invoke("parse", "--no-partial-parse", "--target-path", str(tmp_path), vars={"inc_join_error_cases": True})
    assert dict(deprecations.active_deprecations) == {}
