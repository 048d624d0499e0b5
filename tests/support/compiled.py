"""What every test's fresh app would otherwise build again: each route's URL builder and each
template's code, compiled once per test process and reused by every app made after.

A served app is made once, so it has no need of this; the tests make a new app for nearly every
test, and before this each one spent about 70 ms compiling its 125 routes' URL builders (werkzeug
builds each one as Python source and compiles it) and about 15 ms compiling each template it
rendered. What is kept is only compiled code, keyed by everything that code is made from (the
rule's parts and defaults; the template's source, whose checksum Jinja checks), so an app built
with it behaves exactly as one built without (tests/web/test_compiled.py).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
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


# A route's URL builder, by what werkzeug builds it from: (code, default arguments).
_BUILDERS: dict[tuple, tuple[types.CodeType, tuple | None]] = {}


class BuiltOnceRule(Rule):
    """werkzeug's Rule, with its URL builders' code kept across apps. The builder reads the
    rule's converters through the rule it is bound to, so the code is the same for every app
    whose rule has the same parts, defaults and kind of builder."""

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


def compile_once(patch: Any) -> TemplatesInMemory:
    """Make every Flask app made from here on keep its compiled routes and templates in this
    process's store (`patch`: a pytest MonkeyPatch, undone at the session's end)."""
    templates = TemplatesInMemory()
    patch.setattr(Flask, "url_rule_class", BuiltOnceRule)
    patch.setattr(Flask, "jinja_options", {**Flask.jinja_options, "bytecode_cache": templates})
    return templates
