"""Every helper a run-operation-safe macro calls through `ij.` is listed in _local_namespace (see there)."""
from __future__ import annotations

import re
from pathlib import Path

MACROS = Path(__file__).resolve().parents[2] / "macros"


def macro_bodies():
    for path in MACROS.rglob("*.sql"):
        for name, body in re.findall(r"\{% macro (\w+)\(.*?%\}(.*?)\{% endmacro %\}", path.read_text(), re.S):
            yield path, name, body


def test_local_namespace_lists_every_helper_called_through_ij():
    listed = set(re.findall(r"'(\w+)': \1\b", (MACROS / "internal" / "_local_namespace.sql").read_text()))
    called = {ref for _, _, body in macro_bodies() for ref in re.findall(r"\bij\.(\w+)", body)}
    defined = {name for _, name, _ in macro_bodies()}
    assert called <= listed, f"add to _local_namespace: {sorted(called - listed)}"
    assert listed <= defined, f"_local_namespace lists macros that do not exist: {sorted(listed - defined)}"


def test_a_macro_using_ij_binds_it_and_does_not_mix_in_the_namespace():
    for path, name, body in macro_bodies():
        if "ij." in body:
            assert "{%- set ij = inc_join if inc_join is mapping else _local_namespace() -%}" in body, (path, name)
            assert "inc_join." not in body.replace("inc_join is mapping", ""), (path, name)
