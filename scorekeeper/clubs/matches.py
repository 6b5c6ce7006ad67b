"""A finished match as leagues and ratings read it: sides of players, totals, winner.

Both league points and ratings order a match's sides the same way (the winner
first, even one who won at once with a special hand, then the others by final
total), so the order is worked out here once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..rules import GameFamily


@dataclass(frozen=True)
class FinishedMatch:
    """`sides` are player ids per side, `totals` the final totals in the same order;
    `winner` is the winning side's index, None for a draw (the top total shared)."""

    id: int
    finished_at: datetime
    family: GameFamily
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    winner: int | None

    def __post_init__(self) -> None:
        if len(self.sides) < 2 or len(self.totals) != len(self.sides):
            raise ValueError("a match has two or more sides, each with its total")
        players = [player for side in self.sides for player in side]
        if not all(self.sides) or len(set(players)) != len(players):
            raise ValueError("every side has players, and nobody plays on two sides")
        if self.winner is not None and not 0 <= self.winner < len(self.sides):
            raise ValueError("the winner is one of the sides")
        if self.winner is None and self.totals.count(max(self.totals)) < 2:
            raise ValueError("a drawn match has its top total shared")

    @property
    def order_key(self) -> tuple[datetime, int]:
        """Matches count in the order they finished, then by id."""
        return (self.finished_at, self.id)

    def places(self) -> tuple[int, ...]:
        """Each side's place (1 best; equal totals share a place, as drawn sides do): the
        winner first, the other sides by final total."""
        places = []
        for index, total in enumerate(self.totals):
            if index == self.winner:
                places.append(1)
                continue
            ahead = sum(
                1
                for other, theirs in enumerate(self.totals)
                if other != index and (other == self.winner or theirs > total)
            )
            places.append(ahead + 1)
        return tuple(places)
