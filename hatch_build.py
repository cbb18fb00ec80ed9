"""hatchling's build hook (`[tool.hatch.build.targets.wheel.hooks.custom]` in pyproject.toml): the wheel carries a
copy of macros/ inside the package, where dbt_inc_join.sql_text finds it; an editable install does not.

A `force-include` table in pyproject.toml applies to every wheel hatchling builds, the editable one too (hatchling
replaces it there only by a build hook's non-empty `force_include_editable`), so an editable install would copy
macros/ into site-packages as a folder `dbt_inc_join/macros` without a module: a stale second copy beside the
checkout's, which the editable install's code never reads (sql_text finds the root's macros/). Here the copy is
asked for by the standard wheel only."""

from __future__ import annotations

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class MacrosInTheWheel(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name == "wheel" and version == "standard":
            build_data["force_include"]["macros"] = "dbt_inc_join/macros"
