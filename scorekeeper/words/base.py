"""What every part of the edge's words shares: numbers, lists, and the message registry.

A message is a key and its parameters (numbers and keys, lists and maps of them);
its words are made by a function of `Say`, which knows the parameters, the game's
vocabulary and who each side is. Each function calls gettext with literal
msgids (`pybabel extract` finds them), so a catalogue can translate every one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache
from typing import Any

import flask_babel
from babel import Locale
from babel.numbers import format_decimal, format_percent
from flask import has_request_context

from ..rules.model import Vocabulary
from .translate import gettext

# CLDR's minimumGroupingDigits where it is not 1: Spanish writes 4500 but 10.450. Babel does
# not read this field of CLDR, so it is kept here for the languages of the app.
MINIMUM_GROUPING_DIGITS = {"es": 2}


def reader() -> Locale | None:
    """The reader's locale (Flask-Babel's, chosen by `scorekeeper.languages`); None with
    no reader: outside a request (a migration, the command line, the engine's tests)."""
    if not has_request_context():
        return None
    locale: Locale | None = flask_babel.get_locale()
    return locale


def reader_locale_name() -> str:
    """The reader's locale as Babel names it ("pt_BR"), "en" with no reader: part of
    every cache key and ETag of something in words."""
    locale = reader()
    return "en" if locale is None else str(locale)


def number(value: int) -> str:
    """A whole number as the reader writes it (CLDR: 10,450 in English, 10.450 in Brazilian
    Portuguese, Spanish and Italian, 4500 in Spanish): every number the edge shows goes
    through here. With no reader, plain digits (the words a migration compares)."""
    locale = reader()
    return str(value) if locale is None else _grouped(value, str(locale))


@lru_cache(maxsize=8192)
def _grouped(value: int, locale: str) -> str:
    least = MINIMUM_GROUPING_DIGITS.get(locale, 1)
    grouped = abs(value) >= 10 ** (2 + least)
    return format_decimal(value, locale=locale, group_separator=grouped)


def signed(value: int) -> str:
    """Points with their sign: +50, -30, 0, +1,250 (a template filter: a scoreboard shows
    two a hand)."""
    return "+" + number(value) if value > 0 else number(value)


def decimal(value: float, digits: int = 2) -> str:
    """A fraction to `digits` places: 0.47 (0,47 in Portuguese, Spanish and Italian)."""
    locale = reader()
    if locale is None:
        return f"{value:.{digits}f}"
    return format_decimal(value, format="#,##0." + "0" * digits, locale=locale)


def percent(value: float) -> str:
    """A share as a whole percentage: 47% (47 % where the locale spaces it)."""
    locale = reader()
    if locale is None:
        return f"{value:.0%}"
    return format_percent(value, locale=locale)


def moment(value: datetime) -> str:
    """A moment stored in UTC as the reader writes a date and a time: "Mar 5, 2024, 8:15
    PM", "5 de mar. de 2024 20:15" (the page's script shows it in the phone's time zone)."""
    locale = reader()
    if locale is None:
        return value.strftime("%Y-%m-%d %H:%M")
    date = flask_babel.format_date(value, "medium")
    time = flask_babel.format_time(value, "short")
    return str(locale.datetime_formats["medium"]).replace("{1}", date).replace("{0}", time)


def day(value: date | datetime) -> str:
    """A date as the reader writes it: "Mar 5, 2024", "5 mar 2024"."""
    if reader() is None:
        return value.strftime("%Y-%m-%d")
    return str(flask_babel.format_date(value, "medium"))


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
