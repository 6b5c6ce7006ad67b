"""Rule sets to JSON-ready dicts and back, unchanged.

A match freezes its resolved rules as JSON; reading them back must give an
equal `Rules` value, so conversion follows the dataclass type hints exactly.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any

from .errors import InvalidRules
from .model import Rules
from .presets import PRESETS


def to_json(value: Any) -> Any:
    """A dataclass tree as plain dicts, lists and scalars."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, Enum):
        return value.value
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _build(hint: Any, data: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if data is None and type(None) in options:
            return None
        real = [o for o in options if o is not type(None)]
        return _build(real[0], data, where)
    if origin is tuple:
        if not isinstance(data, list | tuple):
            raise InvalidRules(f"{where} must be a list")
        item_hint = typing.get_args(hint)[0]
        return tuple(_build(item_hint, item, f"{where}[{i}]") for i, item in enumerate(data))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(data, dict):
            raise InvalidRules(f"{where} must be an object")
        hints = _hints(hint)
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(hint):
            if f.name in data:
                kwargs[f.name] = _build(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise InvalidRules(f"{where}.{f.name} is missing")
        return hint(**kwargs)
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(data)
        except ValueError:
            choices = ", ".join(repr(member.value) for member in hint)
            raise InvalidRules(f"{where} must be one of {choices}") from None
    if hint is bool:
        if not isinstance(data, bool):
            raise InvalidRules(f"{where} must be true or false")
        return data
    if hint is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise InvalidRules(f"{where} must be an integer")
        return data
    if hint is str:
        if not isinstance(data, str):
            raise InvalidRules(f"{where} must be text")
        return data
    raise InvalidRules(f"{where} has a type the rules cannot hold")  # pragma: no cover


def rules_to_json(rules: Rules) -> dict[str, Any]:
    data = to_json(rules)
    assert isinstance(data, dict)
    return data


def rules_from_json(data: Any) -> Rules:
    """Rebuild a `Rules` from `rules_to_json` output; raises InvalidRules.

    Rule sets frozen before a field existed read back with that field's
    default (the behaviour they were scored under); one frozen before `family`
    existed takes the family of the preset it was made from (options never
    change it).
    """
    if isinstance(data, dict) and "family" not in data and data.get("key") in PRESETS:
        data = {**data, "family": PRESETS[data["key"]].family.value}
    rules = _build(Rules, data, "rules")
    assert isinstance(rules, Rules)
    return rules
