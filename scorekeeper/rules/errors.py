"""Typed errors of the rules engine.

Every problem found in a hand, a set of options or a rule set is a `Problem`: the
side it concerns (or None when it spans several sides), the field in hand-record
notation, and what is wrong as a message key and its parameters (numbers and keys,
lists and maps of them: never words). Who a side is, and the words, are the edge's
(`scorekeeper.words`), in the reader's language. Errors carry all problems at once so
that a scorer can fix a hand in one go.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any


@dataclass(frozen=True)
class Problem:
    side: int | None
    field: str | None
    key: str
    params: Mapping[str, Any] = dataclass_field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, side: int | None, field: str | None, key: str, /, **params: Any) -> Problem:
        """A problem of `key` with `params` given as keywords."""
        return cls(side, field, key, params)

    def to_dict(self) -> dict[str, Any]:
        """The problem as data: where it is, its key and its parameters."""
        return {"side": self.side, "field": self.field, "key": self.key, "params": self.params}


class RulesError(Exception):
    """Base class of the engine's errors."""


class UnknownVariant(RulesError, LookupError):
    def __init__(self, key: object) -> None:
        super().__init__(key)
        self.key = key


class ProblemsError(RulesError, ValueError):
    """Raised with every problem found, never only the first (its text: their keys)."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(p.key for p in self.problems) or "invalid")


class InvalidOptions(ProblemsError):
    """House-rule options that cannot be applied to a preset."""


class InvalidHand(ProblemsError):
    """A hand record that cannot have happened under the rules.

    `players_per_side` and `lineup` are what the reader made of the table, when it could
    (who each side is depends on them: a team, a player, a pair of seats).
    """

    def __init__(
        self,
        problems: Iterable[Problem],
        players_per_side: int | None = None,
        lineup: tuple[tuple[int, ...], ...] = (),
    ) -> None:
        super().__init__(problems)
        self.players_per_side = players_per_side
        self.lineup = lineup


class InvalidRules(ProblemsError):
    """A rule set that cannot be scored by, or a serialised one that does not read back as
    a rule set (problems of keys `rules.*`)."""
