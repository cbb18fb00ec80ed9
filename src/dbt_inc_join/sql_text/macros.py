"""The package's own macros, rendered with jinja2 the way dbt renders them, for the core.

dbt compiles each macro of a file on its own and hands it a context in which every other macro is a callable
that returns what the macro's ``{{ return(...) }}`` gave (or its rendered text). This runner does the same with
what the pure macros use, in the form dbt gives it: ``return``, the package namespace ``dbt_inc_join`` (and each
macro by its bare name), ``modules`` (datetime, re, pytz when installed), ``exceptions.raise_compiler_error``,
``tojson``, ``fromjson``, and ``var`` at its default (the core has no dbt project: a Python model passes what
its context holds as arguments). Macros that need dbt itself (``run_query``, ``config``, ``adapter``, ``this``)
are found too, but fail if called here: the core asks only the pure ones. The files are read once, on
the first render.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2

NAMESPACE = "dbt_inc_join"
# one macro block: dbt compiles each on its own (the package's files hold no nested macro)
_MACRO_BLOCK = re.compile(r"{%-?\s*macro\s+(\w+)\s*\(.*?{%-?\s*endmacro\s*-?%}", re.S)
# jinja2 exports no macro whose name starts with "_"; dbt renames each macro it compiles with this prefix too
_EXPORTED = "dbt_macro__"


class MacroError(ValueError):
    """A macro's exceptions.raise_compiler_error: bad input, named by the macro's own message."""


class _Returned(Exception):
    """How ``{{ return(value) }}`` leaves a macro (dbt does the same with its MacroReturn)."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


def _return(value: Any) -> None:
    raise _Returned(value)


def _raise_compiler_error(message: str, node: Any = None) -> None:
    raise MacroError(message)


def macro_root() -> Path:
    """The macros/ folder: shipped inside the installed package (the wheel), else the repository's own."""
    package = Path(__file__).resolve().parents[1]
    for root in (package / "macros", package.parents[1] / "macros"):
        if root.is_dir():
            return root
    raise FileNotFoundError(f"inc_join: the package's macros/ folder was found neither in {package} nor beside it")


def macro_blocks(root: Path) -> Iterator[tuple[str, str]]:
    """(name, text) of every macro block of every .sql file under ``root``, in file order."""
    for path in sorted(root.rglob("*.sql")):
        for found in _MACRO_BLOCK.finditer(path.read_text(encoding="utf-8")):
            yield found.group(1), found.group(0)


class _Namespace:
    """``dbt_inc_join``: each macro by name (as an attribute, an item, or ``name in dbt_inc_join``)."""

    def __init__(self, calls: dict[str, Callable[..., Any]]) -> None:
        self.__dict__["_calls"] = calls

    def __getattr__(self, name: str) -> Callable[..., Any]:
        try:
            return self.__dict__["_calls"][name]
        except KeyError:
            raise AttributeError(f"inc_join: the package has no macro {name}") from None

    __getitem__ = __getattr__

    def __contains__(self, name: object) -> bool:
        return name in self.__dict__["_calls"]


def _modules() -> SimpleNamespace:
    found = SimpleNamespace(datetime=datetime, re=re)
    try:  # dbt gives pytz; the core's pure macros do not need it
        import pytz  # type: ignore[import-untyped]

        found.pytz = pytz
    except ImportError:
        pass
    return found


def _fromjson(text: Any, default: Any = None) -> Any:
    """dbt's fromjson: the parsed value, or ``default`` when the text is not JSON."""
    try:
        return json.loads(text) if text else default
    except ValueError:
        return default


@cache
def _macros() -> _Namespace:
    """Every macro compiled on its own, in one environment like dbt's (extensions do and loopcontrols)."""
    environment = jinja2.Environment(extensions=["jinja2.ext.do", "jinja2.ext.loopcontrols"])
    calls: dict[str, Callable[..., Any]] = {}
    namespace = _Namespace(calls)
    context: dict[str, Any] = {
        NAMESPACE: namespace,
        "return": _return,
        "modules": _modules(),
        "exceptions": SimpleNamespace(raise_compiler_error=_raise_compiler_error),
        "tojson": lambda value, default=None, sort_keys=False: json.dumps(value, sort_keys=sort_keys),
        "fromjson": _fromjson,
        "var": lambda name, default=None: default,
    }
    for name, text in macro_blocks(macro_root()):
        calls[name] = _callable(environment, name, text, context)
    context.update(calls)  # a macro may call another of the package by its bare name, as in dbt
    return namespace


def _callable(environment: jinja2.Environment, name: str, text: str, context: dict[str, Any]) -> Callable[..., Any]:
    """The macro as dbt calls it: its return(...) value, else its rendered text. Compiled on its first call."""
    compiled: list[Any] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not compiled:
            exported = re.sub(r"macro\s+" + name + r"\s*\(", f"macro {_EXPORTED}{name}(", text, count=1)
            module = environment.from_string(exported).make_module(vars=context)
            compiled.append(getattr(module, _EXPORTED + name))
        try:
            return str(compiled[0](*args, **kwargs))
        except _Returned as returned:
            return returned.value

    call.__name__ = name
    return call


def render(name: str, *args: Any, **kwargs: Any) -> Any:
    """The value of the package's macro ``name`` for these arguments (what its ``return(...)`` gives)."""
    return getattr(_macros(), name)(*args, **kwargs)
