"""Rule sets to JSON-ready dicts and back, unchanged.

A match freezes its resolved rules as JSON; reading them back must give an
equal `Rules` value, so conversion follows the dataclass type hints exactly.
Rules frozen before they held keys only (with English nouns and labels, and no
vocabulary) read back too (`from_english`): a file exported then can still be
imported.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any

from .errors import InvalidRules, Problem
from .model import Rules, Vocabulary
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


def _refused(where: str, key: str, /, **params: Any) -> InvalidRules:
    return InvalidRules([Problem(None, where, f"rules.{key}", {"where": where, **params})])


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
            raise _refused(where, "not_list")
        item_hint = typing.get_args(hint)[0]
        return tuple(_build(item_hint, item, f"{where}[{i}]") for i, item in enumerate(data))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(data, dict):
            raise _refused(where, "not_object")
        hints = _hints(hint)
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(hint):
            if f.name in data:
                kwargs[f.name] = _build(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise _refused(f"{where}.{f.name}", "missing")
        return hint(**kwargs)
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(data)
        except ValueError:
            choices = [member.value for member in hint]
            raise _refused(where, "not_choice", choices=choices) from None
    if hint is bool:
        if not isinstance(data, bool):
            raise _refused(where, "not_bool")
        return data
    if hint is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise _refused(where, "not_int")
        return data
    if hint is str:
        if not isinstance(data, str):
            raise _refused(where, "not_text")
        return data
    raise _refused(where, "bad_type")  # pragma: no cover


def rules_to_json(rules: Rules) -> dict[str, Any]:
    data = to_json(rules)
    assert isinstance(data, dict)
    return data


def rules_from_json(data: Any) -> Rules:
    """Rebuild a `Rules` from `rules_to_json` output; raises InvalidRules.

    Rule sets frozen before a field existed read back with that field's
    default (the behaviour they were scored under); those frozen with English
    words, as their keys (`from_english`); one frozen before `family` existed takes
    the family of the preset it was made from (options never change it).
    """
    if isinstance(data, dict) and "vocabulary" not in data:
        data = from_english(data)
    if isinstance(data, dict) and "family" not in data and data.get("key") in PRESETS:
        data = {**data, "family": PRESETS[data["key"]].family.value}
    rules = _build(Rules, data, "rules")
    assert isinstance(rules, Rules)
    return rules


# The notes on canasta kinds that rule sets held in English, by the key they have now.
ENGLISH_NOTES = {
    "scores its own bonus only, not the natural one as well": "own_bonus_only",
    "seven natural cards of one rank other than aces and sevens": "natural_mac",
    "five or six natural cards and one or two wild cards; never sevens": "mixed_mac",
    "seven natural aces": "aces",
    "seven sevens, never wild": "sevens",
    "seven wild cards with one to three jokers": "wild_mac",
    "all four jokers and three twos": "wild_jokers",
    "seven twos": "wild_twos",
}
RANKS = {"K": 13, "Q": 12, "J": 11}


def _ranks(cards: object) -> list[int]:
    """The ranks a card category's English listed ("K Q J 10 9 8"), when it listed ranks."""
    words = str(cards).split()
    if not words or not all(w in RANKS or w.isdigit() for w in words):
        return []
    return [RANKS.get(w) or int(w) for w in words]


def from_english(data: dict[str, Any]) -> dict[str, Any]:
    """A rule set frozen with English words, as keys and numbers: its vocabulary is its
    preset's (a game the registry no longer has: Canasta's), its kinds' notes and its
    cards' ranks are read from their words, and the words are left behind (fields a
    rule set no longer has are never read)."""
    preset = PRESETS.get(str(data.get("key")))
    upgraded = dict(data)
    upgraded["vocabulary"] = str(preset.vocabulary if preset else Vocabulary.CANASTA)
    kinds = data.get("canasta_kinds")
    if isinstance(kinds, list):
        upgraded["canasta_kinds"] = [
            {**kind, "note": ENGLISH_NOTES.get(str(kind.get("note")), "")}
            if isinstance(kind, dict)
            else kind
            for kind in kinds
        ]
    cards = data.get("cards")
    if isinstance(cards, list):
        upgraded["cards"] = [
            {**card, "ranks": _ranks(card.get("cards"))} if isinstance(card, dict) else card
            for card in cards
        ]
    deck = data.get("deck")
    if isinstance(deck, dict) and str(deck.get("key", "")).startswith("packs-"):
        count = str(deck["key"]).removeprefix("packs-")
        upgraded["deck"] = {**deck, "packs": int(count) if count.isdigit() else None}
    return upgraded
