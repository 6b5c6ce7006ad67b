"""Typed errors of the rules engine.

Every problem found in a hand or in a set of options is a `Problem`: the side it
concerns (or None when it spans several sides), the field in hand-record
notation, and a message a player understands. Errors carry all problems at once
so that a scorer can fix a hand in one go. A problem made by the engine also
carries its message key and parameters (`Problem.of`), the English message
being derived from them, so it can be shown in another language later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from .messages import render


@dataclass(frozen=True)
class Problem:
    side: int | None
    field: str | None
    message: str
    key: str = ""
    params: Mapping[str, Any] = dataclass_field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, side: int | None, field: str | None, key: str, /, **params: Any) -> Problem:
        """A problem whose English message comes from `key` and `params`."""
        return cls(side, field, render(key, params), key, params)

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"side": self.side, "field": self.field, "message": self.message}
        if self.key:
            data["key"] = self.key
            data["params"] = dict(self.params)
        return data


class RulesError(Exception):
    """Base class of the engine's errors."""


class UnknownVariant(RulesError, LookupError):
    def __init__(self, key: object) -> None:
        super().__init__(f"There is no variant called {key!r}")
        self.key = key


class ProblemsError(RulesError, ValueError):
    """Raised with every problem found, never only the first."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(p.message for p in self.problems) or "invalid")


class InvalidOptions(ProblemsError):
    """House-rule options that cannot be applied to a preset."""


class InvalidHand(ProblemsError):
    """A hand record that cannot have happened under the rules."""


class InvalidRules(RulesError, ValueError):
    """A serialised rule set that does not describe a valid rule set."""
