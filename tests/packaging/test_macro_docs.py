"""The package's macro documentation (macros/**/*.yml) as dbt checks it when it parses a project that installs the
package: dbt-core 1.12 validates macro arguments by default (flag validate_macro_args) and warns, on every full
parse, for each documented argument whose name or position differs from the macro's Jinja signature, for a count
that differs, and for a type outside its grammar (string, integer, float, bool, relation, column, any, list[...],
dict[..., ...], optional[...]; no unions). A user's project would show those warnings, so the package has none.
No Spark, no dbt invocation: dbt's own type check, the signatures read with Jinja."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import jinja2
import pytest
import yaml
from dbt.parser.schemas import is_valid_type

REPO = Path(__file__).resolve().parents[2]
MACROS = REPO / "macros"
# a macro's or generic test's opening tag; a generic test `foo` is the macro `test_foo`
OPENING = re.compile(r"{%-?\s*(macro|test)\s+(\w+)\s*\((.*?)\)\s*-?%}", re.DOTALL)


@cache
def signatures() -> dict[str, list[str]]:
    """Every macro's argument names, as Jinja reads its signature (dbt takes them from there); read once."""
    found: dict[str, list[str]] = {}
    for path in MACROS.rglob("*.sql"):
        for kind, name, arguments in OPENING.findall(path.read_text()):
            macro = jinja2.Environment().parse(f"{{% macro m({arguments}) %}}{{% endmacro %}}").body[0]
            found[("test_" if kind == "test" else "") + name] = [argument.name for argument in macro.args]
    return found


def documented() -> list[tuple[str, dict]]:
    return [
        (path.relative_to(REPO).as_posix(), macro)
        for path in sorted(MACROS.rglob("*.yml"))
        for macro in yaml.safe_load(path.read_text())["macros"]
    ]


@pytest.mark.parametrize("where, macro", documented(), ids=lambda v: v["name"] if isinstance(v, dict) else v)
def test_documented_arguments_are_the_signature_s_with_types_dbt_accepts(where, macro):
    signature = signatures()[macro["name"]]
    arguments = macro.get("arguments") or []
    if arguments:  # dbt compares only documented arguments
        assert [a["name"] for a in arguments] == signature, f"{where}: {macro['name']}"
    invalid = [(a["name"], a["type"]) for a in arguments if a.get("type") and not is_valid_type(a["type"])]
    assert not invalid, f"{where}: {macro['name']}: types dbt does not accept: {invalid}"


def test_the_signatures_are_read():
    """The reading above finds what it checks: a macro with keyword arguments, and a generic test."""
    found = signatures()
    assert found["inc_join"] == ["a", "b", "join_cols"]
    assert found["test_join_type_share"][:2] == ["model", "join_types"]
