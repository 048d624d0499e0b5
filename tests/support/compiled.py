"""What every test's fresh app would otherwise build again: each route's URL builder and each
template's code, compiled once per test process and reused by every app made after.

A served app is made once, so it has no need of this; the tests make a new app for nearly every
test, and before this each one spent about 70 ms compiling its 125 routes' URL builders (werkzeug
builds each one as Python source and compiles it) and about 15 ms compiling each template it
rendered, and its fresh engine compiled every SQL statement it ran once more (a tenth of the
time of the tests that read and write games through the API). What is kept is only compiled
code, keyed by everything that code is made from (the rule's parts and defaults; the template's
source, whose checksum Jinja checks; the statement's cache key and the dialect's kind and
settings), so an app built with it behaves exactly as one built without
(tests/web/test_compiled.py).
"""

from __future__ import annotations

import types
import weakref
from collections.abc import Callable
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.elements import ClauseElement
from werkzeug.routing import Rule


class TemplatesInMemory(BytecodeCache):
    """Jinja's compiled templates, kept in memory by template and source checksum."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


# SQLAlchemy's own: each engine's compiled statements in a cache of its own.
COMPILE_ALONE = ClauseElement._compile_w_cache

# A route's URL builder, by what werkzeug builds it from: (code, default arguments).
_BUILDERS: dict[tuple, tuple[types.CodeType, tuple | None]] = {}


# A rule's parsed parts, trace and converters (each as what makes it), by the rule and all that
# its parsing reads of the map it is bound to.
_PARSED: dict[tuple, tuple] = {}


class BuiltOnceRule(Rule):
    """werkzeug's Rule, parsed once and with its URL builders' code kept across apps. The
    parts and the builder read the rule's converters through the rule it is bound to, so they
    are the same for every app whose rule has the same text, settings and converter classes;
    only the converters themselves are made again, for the new app's map."""

    def compile(self) -> None:
        key = (
            self.rule,
            self.subdomain,
            self.host,
            self.map.host_matching,
            self.merge_slashes,
            tuple(sorted(self.map.converters.items())),
        )
        known = _PARSED.get(key)
        if known is None:
            self._made: list[tuple] = []
            super().compile()
            _PARSED[key] = (tuple(self._parts), tuple(self._trace), tuple(self._made))
            return
        parts, trace, made = known
        self._parts, self._trace, self._converters = list(parts), list(trace), {}
        for variable, name, args, kwargs in made:
            self._converters[variable] = super().get_converter(variable, name, args, dict(kwargs))
            self.arguments.add(variable)
        self._build = self._compile_builder(False).__get__(self, None)
        self._build_unknown = self._compile_builder(True).__get__(self, None)

    def get_converter(self, variable_name, converter_name, args, kwargs):
        self._made.append((variable_name, converter_name, args, tuple(sorted(kwargs.items()))))
        return super().get_converter(variable_name, converter_name, args, kwargs)

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        key = (
            self.rule,
            tuple(self._trace),
            tuple(sorted((name, repr(value)) for name, value in (self.defaults or {}).items())),
            tuple(sorted((name, _converter(c)) for name, c in self._converters.items())),
            append_unknown,
        )
        known = _BUILDERS.get(key)
        if known is None:
            built = super()._compile_builder(append_unknown)
            _BUILDERS[key] = (built.__code__, built.__defaults__)
            return built
        code, defaults = known
        return types.FunctionType(code, {}, code.co_name, defaults)


def _converter(converter: Any) -> tuple:
    """A converter's kind and settings (all but the map it belongs to)."""
    settings = {name: value for name, value in vars(converter).items() if name != "map"}
    return type(converter), repr(sorted(settings.items()))


class SharedStatements:
    """SQLAlchemy's compiled statements, kept for every engine of the same kind in this process.

    An engine keeps the statements it compiled in a cache of its own, keyed by its dialect
    object, so every test's fresh engine compiled each statement it ran once more. Here they are
    keyed by what the compiled text is made from instead: the dialect's kind and its settings,
    read at the first statement it compiles (after its first connection has set the server's
    version among them)."""

    def __init__(self) -> None:
        self.compiled: dict[tuple, Any] = {}
        self._kinds: weakref.WeakKeyDictionary[Dialect, tuple] = weakref.WeakKeyDictionary()

    def kind(self, dialect: Dialect) -> tuple:
        """The dialect's class and plain settings, read once."""
        known = self._kinds.get(dialect)
        if known is None:
            settings = (name_value for name_value in vars(dialect).items() if _plain(name_value))
            known = self._kinds[dialect] = (type(dialect), tuple(sorted(settings)))
        return known

    def view(self, dialect: Dialect) -> _StatementsOfKind:
        return _StatementsOfKind(self.compiled, self.kind(dialect))


class _StatementsOfKind:
    """What an engine's compiled cache is asked (`get`, then a store on a miss), answered from
    the shared store under the dialect's kind."""

    __slots__ = ("compiled", "kind")

    def __init__(self, compiled: dict[tuple, Any], kind: tuple):
        self.compiled, self.kind = compiled, kind

    def get(self, key: tuple, default: Any = None) -> Any:
        return self.compiled.get((self.kind, *key[1:]), default)

    def __setitem__(self, key: tuple, value: Any) -> None:
        self.compiled[(self.kind, *key[1:])] = value


def _plain(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_plain(item) for item in value)
    return isinstance(value, str | int | float | bool | type(None))


def compile_once(patch: Any) -> TemplatesInMemory:
    """Make every Flask app made from here on keep its compiled routes and templates in this
    process's store, and every engine its compiled statements (`patch`: a pytest MonkeyPatch,
    undone at the session's end)."""
    templates = TemplatesInMemory()
    patch.setattr(Flask, "url_rule_class", BuiltOnceRule)
    patch.setattr(Flask, "jinja_options", {**Flask.jinja_options, "bytecode_cache": templates})
    statements = SharedStatements()

    def compile_shared(self, dialect, *, compiled_cache, **options):
        if compiled_cache is not None:
            compiled_cache = statements.view(dialect)
        return COMPILE_ALONE(self, dialect, compiled_cache=compiled_cache, **options)

    patch.setattr(ClauseElement, "_compile_w_cache", compile_shared)
    return templates
