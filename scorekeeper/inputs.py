"""Typed fields of a request body, checked once for the JSON API and the pages alike."""

from __future__ import annotations

from typing import Any

from .rules.errors import InputError

_KIND_NAMES = {
    int: "a whole number",
    str: "text",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


def field(
    data: dict[str, Any],
    name: str,
    kind: type | tuple[type, ...],
    *,
    required: bool = True,
    default: Any = None,
) -> Any:
    """One field, checked for presence and type (a bool is never taken for a number)."""
    if name not in data or data[name] is None:
        if required:
            raise InputError(f"'{name}' is missing")
        return default
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    wanted = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)
    if isinstance(value, bool) and bool not in kinds:
        raise InputError(f"'{name}' must be {wanted}, not {value!r}")
    if not isinstance(value, kinds):
        raise InputError(f"'{name}' must be {wanted}, not {_json_type(value)}")
    return value


def _json_type(value: Any) -> str:
    """The JSON name of a value's type, as the caller wrote it."""
    if isinstance(value, str):
        return "text"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
