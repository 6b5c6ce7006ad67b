"""Hand records described as rows a player can read: what was entered for a side ("As
entered"), and what a correction changed, in the reader's language and the game's words.

A stored record is shown as it is, odd values too (it may predate today's checks): a null
field is left out, a value of the wrong shape is shown as its JSON, and a field this
version does not know is shown by its name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rules import Rules
from ..rules.model import Vocabulary
from ..words import nouns
from ..words.base import capitalized, number
from ..words.translate import gettext, pgettext

NOTHING = "\u2013"  # shown where a record says nothing


@dataclass(frozen=True)
class Entry:
    """A field of a record in words, and what leaving it out would have meant."""

    value: str
    unsaid: str  # "no", "0" or nothing


def _shown(value: object) -> Entry:
    """A stored value as text, whatever it is."""
    if isinstance(value, bool):
        return Entry(gettext("yes") if value else gettext("no"), gettext("no"))
    if isinstance(value, int):
        return Entry(number(value), "0")
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return Entry(text, NOTHING)


def field_label(vocabulary: Vocabulary, key: str) -> str:
    """A field of a hand record in the game's words; a field this version does not know,
    by its name."""
    feet = nouns.foot(vocabulary, 2)
    labels = {
        "went_out": lambda: nouns.going_out(vocabulary),
        "concealed": lambda: gettext(
            "%(going_out)s concealed", going_out=nouns.going_out(vocabulary)
        ),
        "meld_points": lambda: gettext("Meld points"),
        "hand_points": lambda: gettext("Hand points"),
        "foot_points": lambda: gettext("Points left in %(feet)s", feet=feet),
        "red_threes": lambda: gettext(
            "%(threes)s laid down", threes=capitalized(nouns.category("red_three", 2))
        ),
        "black_threes": lambda: gettext(
            "%(threes)s laid down", threes=capitalized(nouns.category("black_three", 2))
        ),
        "feet_taken": lambda: gettext("%(feet)s picked up", feet=capitalized(feet)),
        "exact_pickups": lambda: gettext(
            "Players who picked up exactly the cards of hand and %(foot)s",
            foot=nouns.foot(vocabulary, 1),
        ),
        "took_extra_hand": lambda: gettext(
            "Took the extra hand (%(name)s)", name=nouns.extra_hand(vocabulary)
        ),
        "special_hand": lambda: gettext("Special hand"),
    }
    label = labels.get(key)
    if label is not None:
        return label()
    if key in nouns.PENALTIES:
        return capitalized(nouns.penalty(vocabulary, key, 2))
    return key


def _cards(rules: Rules, key: str, value: Mapping[Any, Any]) -> dict[str, Entry]:
    """Counted cards: melded, left in hand, or left in the feet."""
    entries = {}
    for category_key, count in value.items():
        known = rules.category(category_key) is not None
        noun = nouns.category(category_key, 2) if known else str(category_key)
        if key == "meld_cards":
            label = gettext("%(cards)s melded", cards=capitalized(noun))
        elif key == "hand_cards":
            label = gettext("%(cards)s in hand", cards=capitalized(noun))
        else:
            label = gettext(
                "%(cards)s in %(feet)s",
                cards=capitalized(noun),
                feet=nouns.foot(rules.vocabulary, 2),
            )
        entries[label] = _shown(count)
    return entries


def _entries(rules: Rules, record: object) -> dict[str, Entry]:
    """A hand record as readable label -> value pairs, in the words of the game."""
    if not isinstance(record, Mapping):
        if record is None:
            return {}
        return {pgettext("what was entered for a hand", "Record"): _shown(record)}
    entries: dict[str, Entry] = {}
    vocabulary = rules.vocabulary
    for key, value in record.items():
        if value is None:
            continue
        if key in ("canastas", "meld_cards", "hand_cards", "foot_cards") and not isinstance(
            value, Mapping
        ):
            entries[field_label(vocabulary, key)] = _shown(value)
        elif key == "canastas":
            for kind_key, count in value.items():
                known = any(k.key == kind_key for k in rules.canasta_kinds)
                named = nouns.kind(vocabulary, kind_key, 2) if known else str(kind_key)
                entries[capitalized(named)] = _shown(count)
        elif key in ("meld_cards", "hand_cards", "foot_cards"):
            entries.update(_cards(rules, key, value))
        elif key == "penalties" and isinstance(value, list):
            for index, item in enumerate(value, start=1):
                entries.update(_penalty_entry(rules, index, item))
        elif key == "special_hand":
            special = rules.special_hand(value) if isinstance(value, str) else None
            shown = Entry(nouns.special_hand(special.key), NOTHING) if special else _shown(value)
            entries[field_label(vocabulary, key)] = shown
        else:
            entries[field_label(vocabulary, key)] = _shown(value)
    return entries


def _penalty_entry(rules: Rules, index: int, item: object) -> dict[str, Entry]:
    other = gettext("Other penalty %(number)s", number=number(index))
    if not isinstance(item, Mapping):
        return {other: _shown(item)}
    if "rule" in item:
        key = item["rule"]
        rule = rules.catalogue_penalty(key) if isinstance(key, str) else None
        named = nouns.catalogue_penalty(rule.key) if rule else _shown(key).value
        return {gettext("Penalty: %(penalty)s", penalty=named): _shown(item.get("count", 1))}
    said = gettext(
        "%(points)s (%(reason)s)",
        points=_shown(item.get("points")).value,
        reason=_shown(item.get("reason", "")).value,
    )
    return {other: Entry(said, NOTHING)}


def describe_record(rules: Rules, record: object) -> list[tuple[str, str]]:
    """What was entered for a side, row by row."""
    return [(label, entry.value) for label, entry in _entries(rules, record).items()]


def record_changes(
    rules: Rules, names: list[str], before: list[dict[str, Any]], after: list[dict[str, Any]]
) -> list[str]:
    """What changed in each side's record, field by field (an omitted field is its default)."""
    changes = []
    for name, old, new in zip(names, before, after, strict=False):
        old_entries, new_entries = _entries(rules, old), _entries(rules, new)
        for label in [*old_entries, *(k for k in new_entries if k not in old_entries)]:
            was = old_entries[label].value if label in old_entries else new_entries[label].unsaid
            now = new_entries[label].value if label in new_entries else old_entries[label].unsaid
            if was != now:
                changes.append(
                    gettext(
                        "%(side)s: %(field)s %(before)s → %(after)s",
                        side=name,
                        field=label,
                        before=was,
                        after=now,
                    )
                )
    return changes
