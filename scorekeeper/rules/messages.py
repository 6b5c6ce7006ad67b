"""Words out of the engine: every line and problem is a message key plus parameters.

The engine decides what to say (a key and the numbers and names it needs);
this module turns that into English. Stored hands keep the key and parameters,
so another language can render them later from the same data. Parameters are
JSON values only (text, numbers, lists of them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Params = Mapping[str, Any]

VOWEL_SOUND_EXCEPTIONS = ("one", "uni", "use", "eu")


def article(noun: str) -> str:
    """'a' or 'an' before `noun`, by its first sound ("an ace-to-ace canasta", "a book")."""
    lowered = noun.lower()
    if lowered.startswith(VOWEL_SOUND_EXCEPTIONS):
        return "a"
    if lowered[:1] in "aeiou" or lowered[:1] in "8" or lowered.startswith(("11", "18")):
        return "an"
    return "a"


def with_article(noun: str) -> str:
    return f"{article(noun)} {noun}"


def cards_text(cards: list[list[Any]]) -> str:
    """[[category, count, value, noun], ...] as "2 jokers x 50, 3 aces x 20"."""
    return ", ".join(f"{count} {noun} x {value}" for _, count, value, noun in cards)


# English text of each message key. `{name}` is a parameter; `{cards}` a list
# rendered by `cards_text`.
TEMPLATES: dict[str, str] = {
    # Score lines.
    "line.canastas": "{count} {noun} x {bonus}",
    "line.meld_points": "Melded cards",
    "line.meld_cards": "Melded cards: {cards}",
    "line.meld_points.minus": "Melded cards, counted minus ({reason})",
    "line.meld_cards.minus": "Melded cards, counted minus ({reason}): {cards}",
    "line.going_out": "{label}",
    "line.going_out.concealed": "{label} concealed",
    "line.red_threes": "{count} {noun} x {each}",
    "line.red_threes.special": "{count} {noun} on one side",
    "line.red_threes.minus": "{count} {noun} x {each}, counted minus ({reason})",
    "line.red_threes.special_minus": "{count} {noun} on one side, counted minus ({reason})",
    "line.red_threes.each_minus": "{count} {noun} x -{each} ({reason})",
    "line.red_threes.laid_minus": "{count} {noun} laid down x -{each}",
    "line.red_threes.zero": "{count} {noun}, counting nothing ({reason})",
    "line.hand_points": "Cards left in hand",
    "line.hand_cards": "Cards left in hand: {cards}",
    "line.foot_points": "Cards in {feet} never picked up",
    "line.foot_cards": "Cards in {feet} never picked up: {cards}",
    "line.counted": "{count} {noun} x {points}",
    "line.exact_pickups": "{count} exact {noun} x {points}",
    "line.extra_hand": "Extra hand ({name}) not taken",
    "line.penalty.catalogue": "Penalty: {label}",
    "line.penalty.catalogue_many": "Penalty: {label} x {count}",
    "line.penalty.free": "Penalty: {reason}",
    # Reasons inside lines.
    "reason.no_canasta": "no {noun}",
    "reason.fewer_canastas": "fewer than {count} {nouns}",
    "reason.nothing_melded": "nothing melded",
    "reason.no_clean_canasta": "no clean {noun}",
}


def render(key: str, params: Params) -> str:
    """The English text of a message; an unknown key shows its `text` parameter or the key."""
    template = TEMPLATES.get(key)
    if template is None:
        return str(params.get("text", key))
    values = dict(params)
    if "cards" in values and isinstance(values["cards"], list):
        values["cards"] = cards_text(values["cards"])
    if "reason" in values and isinstance(values["reason"], Mapping):
        reason = values["reason"]
        values["reason"] = render(str(reason.get("key", "")), reason.get("params", {}))
    return template.format(**values)
