"""What every part of the edge's words shares: numbers, lists, and the message registry.

A message is a key and its parameters (numbers and keys, lists and maps of them);
its words are made by a function of `Say`, which knows the parameters, the game's
vocabulary and who each side is. Each function calls gettext with literal
msgids (`pybabel extract` finds them), so a catalogue can translate every one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.model import Vocabulary
from .translate import gettext

NARROW_SPACE = "\u202f"  # between groups of digits in the rule book's tables


def number(value: int, *, grouped: bool = False) -> str:
    """A number as the reader writes it: every number the edge shows goes through here
    (plain digits for now; grouped in threes, as the rule book's tables show them)."""
    if grouped:
        return f"{value:,}".replace(",", NARROW_SPACE)
    return str(value)


def joined(items: Iterable[str]) -> str:
    """A list written out: "a, b, c"."""
    return ", ".join(items)


def either(items: Iterable[str]) -> str:
    """Choices: "2 or 3"."""
    parts = list(items)
    text = parts[0] if parts else ""
    for part in parts[1:]:
        text = gettext("%(choices)s or %(choice)s", choices=text, choice=part)
    return text


def both(items: Iterable[str]) -> str:
    """Things together: "A and B" ("A and B and C" for three)."""
    parts = list(items)
    text = parts[0] if parts else ""
    for part in parts[1:]:
        text = gettext("%(first)s and %(second)s", first=text, second=part)
    return text


def capitalized(text: str) -> str:
    """The first letter upper case, the rest as it is (a label starting a line)."""
    return text[:1].upper() + text[1:]


def with_article(noun: str) -> str:
    """ "a" or "an" before an English noun, by its first sound ("an ace-to-ace canasta", "a
    book"); a catalogue of another language says its own article in each msgid."""
    lowered = noun.lower()
    vowel = lowered[:1] in "aeiou8" or lowered.startswith(("11", "18"))
    if lowered.startswith(("one", "uni", "use", "eu")):
        vowel = False
    return gettext("an %(noun)s", noun=noun) if vowel else gettext("a %(noun)s", noun=noun)


@dataclass(frozen=True)
class Say:
    """A message being put into words: its parameters, the game's vocabulary, who each
    side is (`names`, by side index) and the side it concerns (`side`)."""

    params: Mapping[str, Any]
    vocabulary: Vocabulary = Vocabulary.CANASTA
    names: Sequence[str] = ()
    side: int | None = None
    # How a message inside this one is said (the registry's `render`: see `nested`).
    render: Callable[[Say, Mapping[str, Any]], str] | None = field(
        default=None, compare=False, repr=False
    )

    def __getitem__(self, name: str) -> Any:
        return self.params[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.params.get(name, default)

    def n(self, name: str) -> str:
        """A numeric parameter as the reader writes it."""
        return number(self.params[name])

    def name_of(self, side: int) -> str:
        return self.names[side] if 0 <= side < len(self.names) else str(side + 1)

    @property
    def who(self) -> str:
        """The name of the side the message concerns."""
        return self.name_of(self.side) if self.side is not None else ""

    def nested(self, message: Mapping[str, Any]) -> str:
        """A message inside this one ({"key", "params"}: a reason, a shortfall)."""
        if self.render is None:
            raise LookupError(f"no words for the message inside: {message.get('key')}")
        return self.render(self, message)


Words = Callable[[Say], str]  # a message key's words


def registry(*tables: Mapping[str, Words]) -> dict[str, Words]:
    """The message tables of the edge as one, each key once."""
    merged: dict[str, Words] = {}
    for table in tables:
        twice = merged.keys() & table.keys()
        assert not twice, f"message keys defined twice: {sorted(twice)}"
        merged.update(table)
    return merged
