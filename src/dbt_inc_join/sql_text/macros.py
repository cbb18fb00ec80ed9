"""The package's own macros, rendered with jinja2 the way dbt renders them, for the core.

dbt compiles each macro of a file on its own and hands it a context in which every other macro is a callable
that returns what the macro's ``{{ return(...) }}`` gave (or its rendered text). This runner does the same with
what the pure macros use, in the form dbt gives it: ``return``, the package namespace ``dbt_inc_join`` (and each
macro by its bare name), ``modules`` (datetime, re, pytz when installed), ``exceptions.raise_compiler_error``,
``tojson``, ``fromjson``, ``zip`` and ``var`` at its default (the core has no dbt project: a Python model passes what
its context holds as arguments). Macros that need dbt itself (``run_query``, ``config``, ``adapter``, ``this``)
are found too, but fail if called here: the core asks only the pure ones. The files are read once, on
the first render.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import tzinfo
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

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


class _Context(dict[str, Any]):
    """The names a macro sees: dbt's (as given) and the package's macros, each made on its first use."""

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in _texts()

    def __missing__(self, name: str) -> Callable[..., Any]:
        if name not in _texts():
            raise KeyError(name)
        self[name] = found = _callable(name, self)
        return found


class _Namespace:
    """``dbt_inc_join``: each macro by name (as an attribute, an item, or ``name in dbt_inc_join``)."""

    def __init__(self, context: _Context, macros: Mapping[str, Callable[..., Any]]) -> None:
        self.__dict__.update(_context=context, _macros=macros)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name not in self:
            raise AttributeError(f"inc_join: the package has no macro {name}")
        return self.__dict__["_context"][name]

    __getitem__ = __getattr__

    def __contains__(self, name: object) -> bool:
        return name in _texts() or name in self.__dict__["_macros"]


def _zone(name: str) -> tzinfo:
    """A time zone by its name, as ``pytz.timezone`` gives it (where pytz, which dbt brings, is not installed)."""
    return datetime.timezone.utc if name.upper() in ("UTC", "Z", "GMT") else ZoneInfo(name)


def _modules() -> SimpleNamespace:
    found = SimpleNamespace(datetime=datetime, re=re, pytz=SimpleNamespace(timezone=_zone))
    try:  # dbt gives pytz; the core installs without it
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
def _environment() -> jinja2.Environment:
    """One environment like dbt's (extensions do and loopcontrols)."""
    return jinja2.Environment(extensions=["jinja2.ext.do", "jinja2.ext.loopcontrols"])


@cache
def _texts() -> dict[str, str]:
    """Every macro's text by name, each renamed as dbt compiles it (read once)."""
    return {
        name: re.sub(r"macro\s+" + name + r"\s*\(", f"macro {_EXPORTED}{name}(", text, count=1)
        for name, text in macro_blocks(macro_root())
    }


@cache
def _template(name: str) -> jinja2.Template:
    """The macro's file of one block, compiled once; each context makes its own module of it."""
    return _environment().from_string(_texts()[name])


def _namespace(names: Mapping[str, Any], macros: Mapping[str, Callable[..., Any]]) -> _Namespace:
    """Every macro, each compiled on its own, in a context like dbt's with ``names`` in it; ``macros`` in place of
    the package's macros of those names. A macro may call another of the package by its bare name, as in dbt."""
    context = _Context(_environment().globals)
    namespace = _Namespace(context, macros)
    context.update({
        NAMESPACE: namespace,
        "return": _return,
        "modules": _modules(),
        "exceptions": SimpleNamespace(raise_compiler_error=_raise_compiler_error),
        "tojson": lambda value, default=None, sort_keys=False: json.dumps(value, sort_keys=sort_keys),
        "fromjson": _fromjson,
        "zip": zip,
        "var": lambda name, default=None: default,
        **names,
        **macros,
    })  # fmt: skip
    return namespace


@cache
def _macros() -> _Namespace:
    """The pure macros' namespace: no dbt, no Spark."""
    return _namespace({}, {})


def _callable(name: str, context: _Context) -> Callable[..., Any]:
    """The macro as dbt calls it: its return(...) value, else its rendered text. Bound to ``context`` on its first
    call."""
    compiled: list[Any] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not compiled:
            module = _template(name).make_module(vars=context, shared=True)  # the context itself, not a copy
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


@dataclass(frozen=True)
class QueryResult:
    """What the macros read of dbt's run_query result (an agate table): its rows, each by position or by column
    name (pyspark's Row), and its column names."""

    rows: list[Any]
    column_names: list[str]


def query_runner(run_sql: Callable[[str], Any]) -> Callable[[str], QueryResult]:
    """dbt's ``run_query`` over ``run_sql`` (a statement's text to a DataFrame): what the macros that take a ``run``
    argument call, and what ``port`` puts in their context."""

    def run_query(statement: str) -> QueryResult:
        found = run_sql(statement)
        return QueryResult(found.collect(), list(found.columns))

    return run_query


def port(run_sql: Callable[[str], Any], names: Mapping[str, Any] = {}, macros: Mapping[str, Callable[..., Any]] = {},
         warn: Callable[[str], None] = print) -> Callable[..., Any]:  # fmt: skip
    """The core's port to the macros that read or write state: ``port(...)(name, *args)`` renders the macro
    ``name`` as ``render`` does, with ``run_query`` running its statement through ``run_sql`` (a statement's
    text to a DataFrame), ``names`` in its context as dbt gives them (``this``, ``is_incremental``, ``var``,
    ``config``, ``model``, ``adapter``, ``execute``, ``flags``, ``exceptions``, ...) and ``macros`` in place of
    the package's own (what dbt read before a Python model's code ran). Each port has a context of its own."""
    exceptions = SimpleNamespace(raise_compiler_error=_raise_compiler_error, warn=warn)
    namespace = _namespace({"run_query": query_runner(run_sql), "exceptions": exceptions, **names}, macros)
    return lambda name, *args, **kwargs: getattr(namespace, name)(*args, **kwargs)
