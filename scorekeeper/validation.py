"""What was sent and is wrong, in the reader's words: the app's own validation error.

The engine says what is wrong with a hand or a set of options as message keys
(`rules.Problem`); the edge puts them in words (`words.told`) next to the field
they concern. Everything else the app checks (a group's name, an account, a
match's seating, an imported file) is said here in words directly. Either way a
view gets a `ValidationError` with every problem at once. A `Refusal` is the other
kind: a write that cannot be done now, whatever was sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any


@dataclass(frozen=True)
class FieldError:
    """One problem: the side it concerns (None: no one side), the field (hand-record or
    API notation), what is wrong in words, and, when the engine found it, its message
    key and parameters (what the JSON API answers beside the words)."""

    side: int | None
    field: str | None
    message: str
    key: str | None = None
    params: Mapping[str, Any] = dataclass_field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"side": self.side, "field": self.field, "message": self.message}
        if self.key:
            data["key"] = self.key
            data["params"] = dict(self.params)
        return data


class ValidationError(ValueError):
    """What was sent cannot be taken: every problem found, never only the first."""

    def __init__(self, problems: Iterable[FieldError]) -> None:
        self.problems: tuple[FieldError, ...] = tuple(problems)
        super().__init__("; ".join(p.message for p in self.problems) or "invalid")


def refuse(field: str | None, message: str, side: int | None = None) -> ValidationError:
    """A validation error of one problem, said in words."""
    return ValidationError([FieldError(side, field, message)])


class Refusal(Exception):
    """A write that cannot be done now, whatever was sent (the match is over, the event's
    round has started, the database cannot write): `message` for the player, `status`
    for the API."""

    status = 409

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
